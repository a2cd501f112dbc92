import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { describeError } from '../src/errors.js';
import { TRIAGE_QUEUE, triageJobSchema, type TriageJob } from '../src/queue/triage-job.js';
import { Cancellation } from '../src/sessions/cancellation.js';
import { ThreadPoster } from '../src/slack/thread-poster.js';
import { failureMessage, isTransient } from './failure-message.js';
import { CardNotReadyError, handleIncidentAnnotated, handleIncidentTriggered, handleIncidentUpdated } from './incident-events.js';
import { runRevert } from './revert-runner.js';
import type { TriageDeps } from './triage-deps.js';
import { runTriage } from './triage-runner.js';
import { closeWorker } from './close-worker.js';
import type { TriageRunJob } from '../src/queue/triage-job.js';
import { RunRecorder, type RunLogOptions } from '../src/run-log/run-recorder.js';
import { isConnectionError } from '../src/redis/redis-connection.js';

export interface TriageWorkerOptions {
  /** For BullMQ's blocking connection (maxRetriesPerRequest: null). */
  connection: ConnectionOptions;
  concurrency: number;
}

export interface TriageWorker {
  worker: Worker;
  /** Stops taking jobs; after `graceMs` running triages and reverts are cancelled and awaited. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The triage queue's processor: incident events (card, lifecycle, notes), triage runs and reverts.
 * A malformed job fails at once; a failure before the agent or the revert starts is retried (transient
 * ones, with backoff); after that it is final and explained in the thread.
 */
export async function startTriageWorker(options: TriageWorkerOptions, deps: TriageDeps): Promise<TriageWorker> {
  const running = new Map<string, AbortController>();
  const cancellation = new Cancellation(deps.redis, deps.prefix);
  const unsubscribe = await cancellation.subscribe((jobId) => running.get(jobId)?.abort(new Error('cancelled')));

  const processor = async (job: Job) => {
    const parsed = triageJobSchema.safeParse(job.data);
    if (!parsed.success) {
      deps.logger.error({ jobId: job.id, issues: parsed.error.issues }, 'malformed triage job');
      throw new UnrecoverableError(`Malformed triage job: ${parsed.error.message}`);
    }
    const payload = parsed.data;
    const jobId = job.id!;
    const log = deps.logger.child({ jobId, kind: payload.kind });
    const final = (error: unknown, started: boolean) => started || !isTransient(error) || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

    if (payload.kind === 'incident-triggered' || payload.kind === 'incident-updated' || payload.kind === 'incident-annotated') {
      try {
        if (payload.kind === 'incident-triggered') return await handleIncidentTriggered(payload, deps);
        if (payload.kind === 'incident-updated') return { status: await handleIncidentUpdated(payload, deps) };
        return { status: await handleIncidentAnnotated(payload, deps) };
      } catch (error) {
        const retry = error instanceof CardNotReadyError || !final(error, false);
        log.warn({ err: error, retry, attempt: job.attemptsMade + 1 }, 'incident event failed');
        if (retry && job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw error;
        throw new UnrecoverableError(describeError(error));
      }
    }

    if (await cancellation.isRequested(jobId)) return { status: 'cancelled' };
    const controller = new AbortController();
    running.set(jobId, controller);
    let started = payload.kind === 'revert';
    let recorder: RunRecorder | undefined;
    try {
      if (payload.kind === 'triage') {
        recorder = deps.runLog ? await startTriageRecorder(deps.runLog, jobId, payload, deps, log) : undefined;
        const record = await runTriage(payload, { jobId, signal: controller.signal, onAgentStarted: () => (started = true), record: recorder }, deps);
        return { status: 'reported', verdict: record.report.verdict };
      }
      return await runRevert(payload, { jobId, signal: controller.signal }, deps);
    } catch (error) {
      const isFinal = final(error, started);
      log.error({ err: error, final: isFinal }, `${payload.kind} failed`);
      if (!isFinal) throw error;
      recorder?.fail(failureMessage(error));
      // A revert reports its own failure on its status message; a triage's is explained here.
      if (payload.kind === 'triage') await reportFailure(payload, error, deps).catch((e) => log.error({ err: e }, 'could not report the failure'));
      throw new UnrecoverableError(describeError(error));
    } finally {
      running.delete(jobId);
      await recorder?.flush();
    }
  };

  const worker = new Worker(TRIAGE_QUEUE, processor, {
    connection: options.connection,
    prefix: deps.prefix,
    concurrency: options.concurrency,
    maxStalledCount: 1,
  });
  worker.on('error', (error) => {
    if (!isConnectionError(error)) deps.logger.error({ err: error }, 'triage worker error');
  });

  return {
    worker,
    async close(graceMs = 25_000) {
      await closeWorker(worker, running, graceMs);
      await unsubscribe();
      deps.threads.close();
    },
  };
}

/** A failed triage is explained in its thread, with what to do next. */
async function reportFailure(job: Extract<TriageJob, { kind: 'triage' }>, error: unknown, deps: TriageDeps): Promise<void> {
  await new ThreadPoster(deps.slack, deps.redact).reply(job.channel, job.threadTs, { text: `:x: Triage failed. ${failureMessage(error)}` });
}

/** A triage's record; a Redis problem here does not stop the triage. */
function startTriageRecorder(
  runLog: RunLogOptions,
  jobId: string,
  job: TriageRunJob,
  deps: TriageDeps,
  log: TriageDeps['logger'],
): Promise<RunRecorder | undefined> {
  return RunRecorder.start(
    runLog.store,
    deps.redact,
    {
      id: jobId,
      repository: `${job.repo.owner}/${job.repo.name}`,
      instruction: job.source.type === 'manual' ? job.source.description : `Triage PagerDuty incident ${job.source.incidentId}`,
      category: 'incident-triage',
      requester: job.requester ?? 'pagerduty',
      channel: job.channel,
      threadTs: job.threadTs,
      queuedAt: Date.parse(job.requestedAt) || undefined,
    },
    { maxBytes: runLog.maxBytes, metrics: runLog.metrics },
    log,
  ).catch((error) => {
    log.warn({ err: error }, 'could not start the run record');
    return undefined;
  });
}

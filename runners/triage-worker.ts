import type { ConnectionOptions, Job, Worker } from 'bullmq';
import { TRIAGE_QUEUE, triageJobSchema, type TriageJob } from '../src/queue/triage-job.js';
import { ThreadPoster } from '../src/slack/thread-poster.js';
import { failureMessage, isTransient } from './failure-message.js';
import { CardNotReadyError, handleIncidentAnnotated, handleIncidentTriggered, handleIncidentUpdated } from './incident-events.js';
import { runRevert } from './revert-runner.js';
import type { TriageDeps } from './triage-deps.js';
import { runTriage } from './triage-runner.js';
import { startQueueWorker, type JobContext } from './queue-worker.js';
import type { TriageRunJob } from '../src/queue/triage-job.js';
import { RunRecorder, type RunLogOptions } from '../src/run-log/run-recorder.js';

export interface TriageWorkerOptions {
  /** For BullMQ's blocking connection (maxRetriesPerRequest: null). */
  connection: ConnectionOptions;
  concurrency: number;
}

export interface TriageWorker {
  worker: Worker<TriageJob, unknown>;
  /** Stops taking jobs; after `graceMs` running triages and reverts are cancelled and awaited. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The triage queue's processor: incident events (card, lifecycle, notes), triage runs and reverts.
 * A malformed job fails at once; a failure before the agent or the revert starts is retried (transient
 * ones, with backoff); after that it is final and explained in the thread.
 */
export async function startTriageWorker(options: TriageWorkerOptions, deps: TriageDeps): Promise<TriageWorker> {
  const processor = async (_job: Job<TriageJob, unknown>, payload: TriageJob, run: JobContext): Promise<unknown> => {
    const { jobId, log } = run;
    if (payload.kind === 'incident-triggered') return await handleIncidentTriggered(payload, deps);
    if (payload.kind === 'incident-updated') return { status: await handleIncidentUpdated(payload, deps) };
    if (payload.kind === 'incident-annotated') return { status: await handleIncidentAnnotated(payload, deps) };

    if (run.signal.aborted) return { status: 'cancelled' };
    if (payload.kind === 'revert') {
      run.markStarted();
      return await runRevert(payload, { jobId, signal: run.signal }, deps);
    }
    const recorder = deps.runLog ? await startTriageRecorder(deps.runLog, jobId, payload, deps, log) : undefined;
    run.onFailure(async (error, final) => {
      if (!final) return;
      recorder?.fail(failureMessage(error));
      await reportFailure(payload, error, deps);
    });
    try {
      const record = await runTriage(payload, { jobId, signal: run.signal, onAgentStarted: run.markStarted, record: recorder }, deps);
      return { status: 'reported', verdict: record.report.verdict };
    } finally {
      await recorder?.flush();
    }
  };

  const triage = await startQueueWorker<TriageJob, unknown>({
    queue: TRIAGE_QUEUE,
    schema: triageJobSchema,
    process: processor,
    connection: options.connection,
    prefix: deps.prefix,
    redis: deps.redis,
    concurrency: options.concurrency,
    logger: deps.logger,
    logFields: (payload) => ({ kind: payload.kind }),
    // An incident's card may not be posted yet when its later events arrive: they wait for it.
    isTransient: (error) => error instanceof CardNotReadyError || isTransient(error),
  });

  return {
    worker: triage.worker,
    async close(graceMs) {
      await triage.close(graceMs);
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

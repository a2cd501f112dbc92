import { DelayedError, type ConnectionOptions, type Job, type Worker } from 'bullmq';
import { INCIDENT_QUEUE, incidentJobSchema, TRIAGE_QUEUE, triageJobSchema, type IncidentJob, type TriageJob } from '../src/queue/triage-job.js';
import type { RunReporter } from '../src/reporting/run-result.js';
import { slackTriageReporterFactory } from '../src/slack/slack-reporter-factory.js';
import { failureMessage, isTransient } from './failure-message.js';
import { CardNotReadyError, CardPendingError, handleIncidentAnnotated, handleIncidentTriggered, handleIncidentUpdated } from './incident-events.js';
import { runRevert } from './revert-runner.js';
import type { TriageDeps } from './triage-deps.js';
import { runTriage } from './triage-runner.js';
import { startQueueWorker, type JobContext, type JobLockOptions } from './queue-worker.js';
import type { TriageRunJob } from '../src/queue/triage-job.js';
import { recordingReporter, startRunRecord, type RunRecordStart } from '../src/run-log/run-recorder.js';

export interface TriageWorkerOptions {
  /** For BullMQ's blocking connection (maxRetriesPerRequest: null). */
  connection: ConnectionOptions;
  concurrency: number;
  /** BullMQ's lock on a running job. @default BullMQ's: 30 s, checked every 30 s */
  jobLock?: JobLockOptions;
}

export interface TriageWorker {
  worker: Worker<TriageJob, unknown>;
  incidentWorker: Worker<IncidentJob, unknown>;
  /** Stops taking jobs; after `graceMs` running triages and reverts are cancelled; resolves once none runs. */
  stopJobs(graceMs?: number): Promise<void>;
  /** `stopJobs`, then closes the workers' connections. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The triage queue's processor (triage runs and reverts) and the incidents queue's (card, lifecycle, notes).
 * A malformed job fails at once; a failure before the agent or the revert starts is retried (transient
 * ones, with backoff); after that it is final and explained in the thread.
 */
export async function startTriageWorker(options: TriageWorkerOptions, deps: TriageDeps): Promise<TriageWorker> {
  const reporterFor = slackTriageReporterFactory(deps.outbox, deps.limiter, deps.logger);
  const processor = async (job: Job<TriageJob, unknown>, payload: TriageJob, run: JobContext): Promise<unknown> => {
    const { jobId, log } = run;
    // Queued before incident events had their own queue.
    if (payload.kind === 'incident-triggered' || payload.kind === 'incident-updated' || payload.kind === 'incident-annotated') {
      return handleIncidentEvent(job, payload, run, deps);
    }

    if (run.signal.aborted) return { status: 'cancelled' };
    if (payload.kind === 'revert') {
      run.markStarted();
      return await runRevert(payload, { jobId, signal: run.signal }, deps);
    }
    const recorder = await startRunRecord(deps.runLog, deps.redact, triageRecordStart(jobId, payload), log);
    const threadReporter = await reporterFor(payload, jobId, { runPageUrl: deps.runLog?.links?.urlFor(jobId) }, run.claim);
    // A final failure is told by the reporter: in the thread (through its outbox), on the status line and in the record.
    const reporter: RunReporter = recorder ? recordingReporter(threadReporter, recorder) : threadReporter;
    run.onFailure(async (error, final) => {
      if (final) await reporter.failed(failureMessage(error, payload.language));
    });
    try {
      const outcome = await runTriage(
        payload,
        { jobId, reporter, signal: run.signal, claim: run.claim, onAgentStarted: run.markStarted, record: recorder },
        deps,
      );
      return { status: 'reported', verdict: outcome.record.report.verdict };
    } finally {
      await recorder?.flush();
    }
  };

  // Incident events (card, lifecycle, notes) have their own queue and worker: they never wait behind a triage run.
  const incidents = await startQueueWorker<IncidentJob, unknown>({
    queue: INCIDENT_QUEUE,
    schema: incidentJobSchema,
    process: (job, payload, context) => handleIncidentEvent(job, payload, context, deps),
    connection: options.connection,
    prefix: deps.prefix,
    concurrency: INCIDENT_CONCURRENCY,
    logger: deps.logger,
    logFields: (payload) => ({ kind: payload.kind }),
    // An incident's card may not be posted yet when its later events arrive: they wait for it.
    isTransient: (error) => error instanceof CardNotReadyError || isTransient(error),
  });
  const triage = await startQueueWorker<TriageJob, unknown>({
    queue: TRIAGE_QUEUE,
    schema: triageJobSchema,
    process: processor,
    connection: options.connection,
    prefix: deps.prefix,
    redis: deps.redis,
    workerOptions: options.jobLock,
    concurrency: options.concurrency,
    logger: deps.logger,
    logFields: (payload) => ({ kind: payload.kind }),
    // An incident's card may not be posted yet when its later events arrive: they wait for it.
    isTransient: (error) => error instanceof CardNotReadyError || isTransient(error),
  });

  return {
    worker: triage.worker,
    incidentWorker: incidents.worker,
    async stopJobs(graceMs) {
      await Promise.all([triage.stopJobs(graceMs), incidents.stopJobs(graceMs)]);
    },
    async close(graceMs) {
      await Promise.all([triage.close(graceMs), incidents.close(graceMs)]);
      deps.threads.close();
    },
  };
}

/** Card updates and notes are quick: several at once, whatever the run concurrency. */
const INCIDENT_CONCURRENCY = 4;

/** How often a triggered incident whose card waits in the outbox checks whether Slack took it. */
const CARD_RECHECK_MS = 2_000;

/** The longest pause between two looks of a later event (acknowledged, a note) for its incident's card. */
const CARD_WAIT_MAX_MS = 5 * 60_000;

async function handleIncidentEvent(job: Job, payload: IncidentJob, context: JobContext, deps: TriageDeps): Promise<unknown> {
  // The outbox keeps the card until Slack takes it (or its deadline): wait for it without spending the job's attempts.
  const waitForCard = async (delayMs: number): Promise<never> => {
    await job.moveToDelayed(Date.now() + delayMs, context.token);
    throw new DelayedError();
  };
  if (payload.kind === 'incident-triggered') {
    try {
      return await handleIncidentTriggered(payload, deps);
    } catch (error) {
      if (!(error instanceof CardPendingError) || !context.token) throw error;
      return waitForCard(CARD_RECHECK_MS);
    }
  }
  try {
    if (payload.kind === 'incident-updated') return { status: await handleIncidentUpdated(payload, deps) };
    return { status: await handleIncidentAnnotated(payload, deps) };
  } catch (error) {
    // A later event whose card is not posted yet waits as long as the card itself may (the outbox's delivery
    // deadline), looking again less often the longer it waits; past that, its attempts decide.
    const waited = Date.now() - job.timestamp;
    if (!(error instanceof CardNotReadyError) || !context.token || waited > deps.config.env.WRENCH_SLACK_DELIVERY_HOURS * 3600_000) throw error;
    return waitForCard(Math.min(Math.max(waited / 4, CARD_RECHECK_MS), CARD_WAIT_MAX_MS));
  }
}

function triageRecordStart(jobId: string, job: TriageRunJob): RunRecordStart {
  return {
    id: jobId,
    repository: `${job.repo.owner}/${job.repo.name}`,
    instruction: job.source.type === 'manual' ? job.source.description : `Triage PagerDuty incident ${job.source.incidentId}`,
    category: 'incident-triage',
    requester: job.requester ?? 'pagerduty',
    channel: job.channel,
    threadTs: job.threadTs,
    queuedAt: Date.parse(job.requestedAt) || undefined,
  };
}

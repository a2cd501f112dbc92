import { DelayedError, Queue, UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { describeError } from '../src/errors.js';
import { RunSlots, type SlotAnswer, type SlotLimits } from '../src/queue/run-slots.js';
import { TASK_QUEUE, taskJobSchema, type TaskJob } from '../src/queue/task-job.js';
import type { RunReporter, RunResult } from '../src/reporting/run-result.js';
import { Cancellation, RunCancelled } from '../src/sessions/cancellation.js';
import { sessionSummary, type RunRecord } from '../src/sessions/thread-session.js';
import { ThreadSessionStore } from '../src/sessions/thread-session-store.js';
import { failureMessage, isTransient } from './failure-message.js';
import type { RunnerDeps } from './runner-deps.js';
import { runTask } from './run-task.js';
import { answerOnGitHub } from './github-reply.js';
import { closeWorker } from './close-worker.js';
import { recordingReporter, RunRecorder, type RunLogOptions } from '../src/run-log/run-recorder.js';
import { isConnectionError } from '../src/redis/redis-connection.js';

export interface ReporterContext {
  reporter: RunReporter;
  threadUrl?: string;
  requesterName?: string;
}

export interface TaskWorkerOptions {
  /** For BullMQ's blocking connection (maxRetriesPerRequest: null). */
  connection: ConnectionOptions;
  /** For sessions, slots and cancel requests. */
  redis: Redis;
  prefix: string;
  concurrency: number;
  limits: SlotLimits;
  /** Builds where a job reports to (its Slack thread); the run page's link goes into its status message. */
  reporterFor: (job: TaskJob, jobId: string, links: { runPageUrl?: string }) => Promise<ReporterContext>;
  /** Where each run's record is written (run pages, App Home, metrics). */
  runLog?: RunLogOptions;
  /** How long a job waits before asking again for a slot. Default 3 s. */
  retrySlotMs?: number;
}

export interface TaskWorker {
  worker: Worker;
  /** Stops taking jobs; after `graceMs` running jobs are cancelled (their work kept) and awaited. */
  close(graceMs?: number): Promise<void>;
}

const WAITING_TEXT: Record<Exclude<SlotAnswer, 'ok'>, string> = {
  thread: 'waiting for the run already going in this thread',
  global: 'waiting for a free slot (all workers are busy)',
  repository: 'waiting for other runs on this repository to finish',
  user: 'waiting for your other runs to finish',
};

export async function startTaskWorker(options: TaskWorkerOptions, deps: RunnerDeps): Promise<TaskWorker> {
  const running = new Map<string, AbortController>();
  const sessions = new ThreadSessionStore(options.redis, options.prefix);
  const slots = new RunSlots(options.redis, options.prefix, options.limits);
  const cancellation = new Cancellation(options.redis, options.prefix);
  const queue = new Queue(TASK_QUEUE, { connection: options.redis, prefix: options.prefix });
  queue.on('error', (error) => {
    if (!isConnectionError(error)) deps.logger.error({ err: error }, 'task queue error');
  });
  const unsubscribe = await cancellation.subscribe(async (jobId) => {
    const controller = running.get(jobId);
    if (controller) controller.abort(new RunCancelled((await cancellation.requestedBy(jobId).catch(() => undefined)) ?? 'someone'));
  });

  const setRun = async (
    job: TaskJob,
    jobId: string,
    change: Partial<RunRecord>,
    extra: { branch?: string; baseBranch?: string; pullRequest?: { number: number; url: string } } = {},
  ) => {
    if (job.origin.type !== 'slack') return;
    await sessions.update(job.origin.channel, job.origin.threadTs, (current) =>
      current ? { ...current, ...stripUndefined(extra), runs: current.runs.map((r) => (r.jobId === jobId ? { ...r, ...change } : r)) } : null,
    );
  };

  /** Runs of one thread go in the order they were asked for: wait while an earlier one is still queued or running. */
  const earlierRunPending = async (job: Job, payload: TaskJob): Promise<boolean> => {
    if (payload.origin.type !== 'slack') return false;
    const session = await sessions.get(payload.origin.channel, payload.origin.threadTs);
    const runs = session?.runs ?? [];
    const mine = runs.find((r) => r.jobId === job.id);
    const index = runs.indexOf(mine!);
    const isEarlier = (other: (typeof runs)[number], position: number) =>
      mine?.messageTs && other.messageTs ? Number(other.messageTs) < Number(mine.messageTs) : position < index;
    for (const earlier of runs.filter((r, position) => r !== mine && isEarlier(r, position))) {
      if (earlier.status !== 'queued' && earlier.status !== 'running') continue;
      const other = await queue.getJob(earlier.jobId);
      // Recorded but not enqueued yet (its handler is a moment behind): wait for it, briefly.
      if (!other) {
        if (Date.now() - Date.parse(earlier.at) < 30_000) return true;
        continue;
      }
      if (!(await other.isCompleted()) && !(await other.isFailed())) return true;
    }
    return false;
  };

  const processor = async (job: Job, token?: string) => {
    const parsed = taskJobSchema.safeParse(job.data);
    if (!parsed.success) {
      deps.logger.error({ jobId: job.id, issues: parsed.error.issues }, 'malformed task job');
      throw new UnrecoverableError(`Malformed task job: ${parsed.error.message}`);
    }
    const payload = parsed.data;
    const jobId = job.id!;
    const log = deps.logger.child({
      jobId,
      repo: `${payload.repo.owner}/${payload.repo.name}`,
      thread: payload.origin.type === 'slack' ? payload.origin.threadTs : undefined,
    });
    const runPageUrl = options.runLog?.links?.urlFor(jobId);
    const { reporter: threadReporter, threadUrl, requesterName } = await options.reporterFor(payload, jobId, { runPageUrl });
    let reporter = threadReporter;

    if (await cancellation.isRequested(jobId)) {
      await setRun(payload, jobId, { status: 'cancelled' });
      await reporter.phase('cancelled', 'cancelled before it started');
      return { status: 'cancelled' };
    }

    const slot = {
      jobId,
      thread: payload.origin.type === 'slack' ? `${payload.origin.channel}:${payload.origin.threadTs}` : jobId,
      repository: `${payload.repo.owner}/${payload.repo.name}`,
      user: payload.requester.slackUserId,
    };
    const answer = (await earlierRunPending(job, payload)) ? 'thread' : await slots.acquire(slot);
    if (answer !== 'ok') {
      if (job.data.waitingFor !== answer) {
        await job.updateData({ ...job.data, waitingFor: answer });
        await reporter.phase('queued', WAITING_TEXT[answer]).catch(() => undefined);
      }
      await job.moveToDelayed(Date.now() + (options.retrySlotMs ?? 3000), token);
      throw new DelayedError();
    }

    const stopKeepAlive = slots.keepAlive(slot);
    const controller = new AbortController();
    running.set(jobId, controller);
    let agentStarted = false;
    let recorder: RunRecorder | undefined;
    try {
      recorder = options.runLog
        ? await startRecorder(options.runLog, job, payload, threadUrl, deps, log).catch((error) => {
            log.warn({ err: error }, 'could not start the run record');
            return undefined;
          })
        : undefined;
      if (recorder) reporter = recordingReporter(threadReporter, recorder);
      const session = payload.origin.type === 'slack' ? await sessions.get(payload.origin.channel, payload.origin.threadTs) : null;
      // Only a worker marks a run running: still running now means the worker that had it died mid-run.
      if (session?.runs.find((r) => r.jobId === jobId)?.status === 'running') {
        log.warn('run restarted after an interruption');
        await threadReporter.note?.(':arrows_counterclockwise: Wrench restarted after an interruption: this run starts again from the beginning.');
      }
      await setRun(payload, jobId, { status: 'running' });
      const result = await runTask(
        payload,
        {
          jobId,
          reporter,
          signal: controller.signal,
          threadUrl,
          requesterName,
          continueBranch: session?.branch,
          history: session && session.runs.some((r) => r.jobId !== jobId && r.status !== 'queued') ? sessionSummary(session) : undefined,
          onAgentStarted: () => (agentStarted = true),
          record: recorder,
        },
        deps,
      );
      await answerOnGitHub(payload, { result }, deps, threadUrl).catch((error) => log.warn({ err: error }, 'could not answer on GitHub'));
      await setRun(payload, jobId, runRecordOf(result, controller.signal.aborted), {
        branch: result.pullRequest ? result.branch : session?.branch,
        pullRequest: result.pullRequest ? { number: result.pullRequest.number, url: result.pullRequest.url } : undefined,
      });
      return { status: result.status, pullRequest: result.pullRequest?.url };
    } catch (error) {
      const attempts = job.opts.attempts ?? 1;
      const final = agentStarted || !isTransient(error) || job.attemptsMade + 1 >= attempts;
      log.error({ err: error, final }, 'task failed');
      if (!final) {
        await setRun(payload, jobId, { status: 'queued' });
        await reporter.phase('queued', `retrying shortly after a temporary problem: ${describeError(error).slice(0, 200)}`).catch(() => undefined);
        throw error;
      }
      await setRun(payload, jobId, { status: 'failed', summary: describeError(error).slice(0, 500) }).catch(() => undefined);
      await reporter.failed(failureMessage(error)).catch((e) => log.error({ err: e }, 'could not report the failure'));
      await answerOnGitHub(payload, { failure: describeError(error).slice(0, 1000) }, deps, threadUrl).catch((e) =>
        log.warn({ err: e }, 'could not answer on GitHub'),
      );
      throw new UnrecoverableError(describeError(error));
    } finally {
      running.delete(jobId);
      stopKeepAlive();
      await recorder?.flush();
      await slots.release(slot).catch(() => undefined);
    }
  };

  const worker = new Worker(TASK_QUEUE, processor, {
    connection: options.connection,
    prefix: options.prefix,
    concurrency: options.concurrency,
    maxStalledCount: 1,
  });
  worker.on('error', (error) => {
    if (!isConnectionError(error)) deps.logger.error({ err: error }, 'task worker error');
  });

  return {
    worker,
    async close(graceMs = 25_000) {
      await closeWorker(worker, running, graceMs);
      await unsubscribe();
      await queue.close();
      sessions.close();
    },
  };
}

function startRecorder(
  runLog: RunLogOptions,
  job: Job,
  payload: TaskJob,
  threadUrl: string | undefined,
  deps: RunnerDeps,
  log: RunnerDeps['logger'],
): Promise<RunRecorder> {
  const origin = payload.origin.type === 'slack' ? payload.origin : undefined;
  return RunRecorder.start(
    runLog.store,
    deps.redact,
    {
      id: job.id!,
      repository: `${payload.repo.owner}/${payload.repo.name}`,
      instruction: payload.instruction,
      category: payload.category,
      requester: payload.requester.slackUserId,
      channel: origin?.channel,
      threadTs: origin?.threadTs,
      threadUrl,
      queuedAt: job.timestamp,
    },
    { maxBytes: runLog.maxBytes, metrics: runLog.metrics },
    log,
  );
}

function runRecordOf(result: RunResult, cancelled: boolean): Partial<RunRecord> {
  return {
    status: cancelled ? 'cancelled' : 'done',
    summary: (result.report?.summary ?? result.answer ?? result.stopReason ?? '').slice(0, 2000),
    usage: result.usage ? { ...result.usage } : undefined,
    costUsd: result.costUsd,
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

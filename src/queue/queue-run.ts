import type { Logger } from '../logging/logger.js';
import type { RunRecord, ThreadSession } from '../sessions/thread-session.js';
import type { ThreadSessionStore } from '../sessions/thread-session-store.js';
import { enqueueTask, type Queues } from './queues.js';
import type { TaskJob } from './task-job.js';

export interface QueueRunDeps {
  sessions: ThreadSessionStore;
  queues: Queues;
  logger: Logger;
}

export interface RunRequest {
  jobId: string;
  job: TaskJob;
  /** The run as the thread's session records it (status queued). */
  run: RunRecord;
  thread: { channel: string; threadTs: string };
  /** The session to start when the thread has none; without it the run is recorded only in an existing session. */
  newSession?: () => ThreadSession;
  /** Said before the job is queued (its status card, a mirror), so it comes ahead of everything the run says. */
  announce?: () => Promise<void>;
  /** The run answers the instruction the thread held pending (a Slack instruction); a GitHub run leaves it. */
  answersPending?: boolean;
}

export type QueueRunResult = { queued: true } | { queued: false; error: unknown };

/**
 * The one way to queue a run: it is recorded in its thread's session (in message order) before anything else, so a
 * worker never misses it, then queued; if queueing fails the record is rolled back, so the thread is not left
 * waiting on a run that will never come.
 */
export async function queueRun(deps: QueueRunDeps, request: RunRequest): Promise<QueueRunResult> {
  const { jobId, thread } = request;
  let recorded = false;
  await deps.sessions.update(thread.channel, thread.threadTs, (current) => {
    const base = current ?? request.newSession?.() ?? null;
    if (!base || base.runs.some((r) => r.jobId === jobId)) return current;
    recorded = true;
    return { ...base, pending: request.answersPending ? undefined : base.pending, runs: [...base.runs, request.run] };
  });
  try {
    await request.announce?.();
    await enqueueTask(deps.queues, jobId, request.job);
  } catch (error) {
    deps.logger.error({ err: error, jobId }, 'could not queue the run');
    if (recorded) {
      await deps.sessions.update(thread.channel, thread.threadTs, (current) =>
        current ? { ...current, runs: current.runs.filter((r) => r.jobId !== jobId) } : null,
      );
    }
    return { queued: false, error };
  }
  // Without the mark a later run of the thread still waits for this one, only for the queueing grace: not worth failing for.
  await deps.sessions
    .update(thread.channel, thread.threadTs, (current) =>
      current ? { ...current, runs: current.runs.map((r) => (r.jobId === jobId ? { ...r, inQueue: true as const } : r)) } : null,
    )
    .catch((error) => deps.logger.warn({ err: error, jobId }, 'could not mark the run as queued'));
  return { queued: true };
}

/**
 * Whether a run of a thread is still to come or going on, from its record and its job's state in the queue. A job the
 * queue does not have is one that ended and was removed, once the run is marked in the queue; before that its handler
 * is still queueing it, or died doing so and the mention is taken over after its claim: it is waited for `graceMs`.
 */
export function isRunPending(run: RunRecord, jobState: string, graceMs: number, now = Date.now()): boolean {
  if (run.status !== 'queued' && run.status !== 'running') return false;
  if (jobState === 'unknown') return !run.inQueue && now - Date.parse(run.at) < graceMs;
  return jobState !== 'completed' && jobState !== 'failed';
}

import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Logger } from '../logging/logger.js';
import { jobIdFor, taskJobSchema, type TaskJob } from '../queue/task-job.js';
import type { ThreadSessionStore } from '../sessions/thread-session-store.js';
import {
  questionMessage,
  questionMessageKey,
  questionReminder,
  questionReminderKey,
  settledQuestionMessage,
  type QuestionView,
} from '../slack/question-message.js';
import { statusCardKey } from '../slack/slack-reporter-factory.js';
import type { ThreadStrings } from '../slack/strings/index.js';
import type { ThreadOutbox } from '../slack/thread-outbox.js';
import type { PausedRun, QuestionSettlement } from './paused-run.js';
import { type PausedRunStore, pausedRunTtlSeconds } from './paused-run-store.js';

export interface QuestionDeskOptions {
  store: PausedRunStore;
  sessions: ThreadSessionStore;
  outbox: ThreadOutbox;
  /** The task queue: the resume job waits there, delayed until the timeout. */
  queue: Queue<TaskJob>;
  /** How long a question waits for its answer. */
  timeoutMs: number;
  logger: Logger;
}

export type NewPausedRun = Omit<PausedRun, 'pauseId' | 'resumeJobId' | 'askedAt' | 'timeoutAt'>;

/**
 * The runners' side of the agent's questions. `ask` keeps the conversation in Redis, queues the resume job
 * (delayed until the timeout; an answer promotes it), records in the thread's session that the run waits, and
 * asks in the thread (a streamed run asks in its own message instead: see the reporter's `asked`). The resume job
 * then `take`s the question back with whatever settled it.
 */
export class QuestionDesk {
  constructor(private readonly options: QuestionDeskOptions) {}

  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  async ask(paused: NewPausedRun): Promise<PausedRun> {
    const { store, sessions, outbox, queue, timeoutMs } = this.options;
    const origin = paused.job.origin;
    if (origin.type !== 'slack') throw new Error('Only runs asked for in Slack can ask their requester');
    const pauseId = `${paused.askedByJobId.slice(0, 60)}-q${paused.questionsAsked}-${randomBytes(3).toString('hex')}`;
    const askedAt = new Date();
    const run: PausedRun = {
      ...paused,
      pauseId,
      resumeJobId: jobIdFor('resume', pauseId),
      askedAt: askedAt.toISOString(),
      timeoutAt: new Date(askedAt.getTime() + timeoutMs).toISOString(),
    };
    await store.save(run, pausedRunTtlSeconds(timeoutMs));
    // The resume job exists before anyone can see the question: an answer always finds it to promote.
    // Every job of the run reports under its first job's key: a streamed run keeps one message through its pauses.
    const statusKey = paused.job.resume?.statusKey ?? statusCardKey(paused.askedByJobId);
    const resumeJob = taskJobSchema.parse({ ...paused.job, resume: { pauseId, statusKey } });
    await queue.add('task', resumeJob, { jobId: run.resumeJobId, delay: timeoutMs });
    const reminder = taskJobSchema.parse({ ...paused.job, remind: { pauseId } });
    await queue.add('task', reminder, { jobId: reminderJobId(pauseId), delay: Math.floor(timeoutMs / 2) });
    const thread = { channel: origin.channel, threadTs: origin.threadTs };
    // A streamed run shows its question in its own message (its reporter's `asked`): one message per run.
    const inRunMessage = origin.stream === true;
    await sessions.update(origin.channel, origin.threadTs, (current) =>
      current
        ? {
            ...current,
            branch: run.pushed ? run.branch : current.branch,
            waiting: {
              pauseId,
              jobId: run.resumeJobId,
              requester: run.requester,
              question: run.question,
              askedAt: run.askedAt,
              timeoutAt: run.timeoutAt,
              ...(inRunMessage ? { inRunMessage } : {}),
            },
            // The run record now follows the resume job: the worker running it updates it as usual.
            runs: current.runs.map((r) => (r.jobId === run.askedByJobId ? { ...r, jobId: run.resumeJobId, status: 'waiting' as const } : r)),
          }
        : null,
    );
    // The resumed run goes on editing the same status card.
    const cardTs = await outbox.tsOf(thread, statusCardKey(run.askedByJobId));
    if (cardTs) await outbox.remember(thread, statusCardKey(run.resumeJobId), cardTs);
    if (!inRunMessage) await outbox.post(thread, questionMessage(viewOf(run)), questionMessageKey(pauseId));
    this.options.logger.info(
      { pauseId, resumeJobId: run.resumeJobId, timeoutAt: run.timeoutAt, thread: origin.threadTs },
      'the agent asked the requester; run paused',
    );
    return run;
  }

  /**
   * The paused run and what settled its question, for the resume job. Nothing settled yet means the timeout
   * came first: it is settled as such now (a late answer then finds it settled). Null when the conversation expired.
   */
  async take(pauseId: string): Promise<{ run: PausedRun; settlement: QuestionSettlement } | null> {
    const { store } = this.options;
    const run = await store.load(pauseId);
    if (!run) return null;
    if (await store.settle(pauseId, { kind: 'timeout', at: new Date().toISOString() })) {
      const origin = run.job.origin;
      if (origin.type === 'slack') {
        await this.clearWaiting(run);
        // A late answer in the thread is then told that the run went on without it, and how to go on.
        await this.options.sessions.update(origin.channel, origin.threadTs, (current) =>
          current
            ? {
                ...current,
                timedOutQuestion: {
                  pauseId,
                  jobId: run.resumeJobId,
                  requester: run.requester,
                  question: run.question,
                  timedOutAt: new Date().toISOString(),
                },
              }
            : null,
        );
        // A question shown in a streamed run's message is settled there, by the resumed run.
        if (origin.stream !== true)
          await this.options.outbox.update(
            { channel: origin.channel, threadTs: origin.threadTs },
            questionMessageKey(pauseId),
            settledQuestionMessage(viewOf(run), (t) => t.noAnswerInTime),
          );
        await reminderSettled(this.options.outbox, viewOf(run), (t) => t.noAnswerInTime);
      }
    }
    const settlement = await store.settlement(pauseId);
    return settlement ? { run, settlement } : null;
  }

  /**
   * Halfway to the timeout, the requester is reminded in the thread that the run still waits for them: a message of
   * its own, since an edit notifies no one. Once (the message has its own outbox key), and never once the question is
   * settled: nothing is queued then, and a reminder queued before an answer, the timeout or a cancel is dropped unsent
   * if that came before its turn (one sent already is edited then: see `reminderSettled`).
   */
  async remind(pauseId: string): Promise<'reminded' | 'settled'> {
    const { store, outbox } = this.options;
    const run = await store.load(pauseId);
    if (!run || (await store.settlement(pauseId))) return 'settled';
    const view = viewOf(run);
    await outbox.postOnce({ channel: view.channel, threadTs: view.threadTs }, questionReminder(view), questionReminderKey(pauseId), {
      unless: store.settledKey(pauseId),
    });
    return 'reminded';
  }

  /** The resumed run is over: its conversation is no longer needed. */
  async done(run: PausedRun): Promise<void> {
    await this.options.store.remove(run.pauseId);
    await this.options.queue.remove(reminderJobId(run.pauseId)).catch(() => undefined);
    await this.clearWaiting(run);
  }

  private async clearWaiting(run: PausedRun): Promise<void> {
    const origin = run.job.origin;
    if (origin.type !== 'slack') return;
    await this.options.sessions.update(origin.channel, origin.threadTs, (current) =>
      current?.waiting?.pauseId === run.pauseId
        ? {
            ...current,
            waiting: undefined,
            runs: current.runs.map((r) => (r.jobId === run.resumeJobId && r.status === 'waiting' ? { ...r, status: 'queued' as const } : r)),
          }
        : null,
    );
  }
}

export const reminderJobId = (pauseId: string) => jobIdFor('remind', pauseId);

/**
 * The question is settled: its reminder, if one was sent, is edited into what was asked and what settled it, so the
 * thread never says the run still waits. Queued after the settlement, so a reminder whose turn comes later is dropped
 * unsent (`remind`) and this edit, finding nothing posted, does nothing.
 */
export async function reminderSettled(outbox: ThreadOutbox, view: QuestionView, outcome: (strings: ThreadStrings) => string): Promise<void> {
  await outbox.updateIfPosted({ channel: view.channel, threadTs: view.threadTs }, questionReminderKey(view.pauseId), settledQuestionMessage(view, outcome));
}

export function viewOf(run: PausedRun) {
  const origin = run.job.origin.type === 'slack' ? run.job.origin : { channel: '', threadTs: '' };
  return {
    pauseId: run.pauseId,
    channel: origin.channel,
    threadTs: origin.threadTs,
    requester: run.requester,
    question: run.question,
    suggestedAnswers: run.suggestedAnswers,
    timeoutAt: new Date(run.timeoutAt),
    language: run.job.language,
  };
}

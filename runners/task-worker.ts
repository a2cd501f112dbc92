import { DelayedError, type ConnectionOptions, type Queue, type Job, type Worker } from 'bullmq';
import type { RedisClient } from '../src/redis/redis-connection.js';
import { describeError } from '../src/errors.js';
import type { HostAffinity } from '../src/queue/host-affinity.js';
import type { RunSlots } from '../src/queue/run-slots.js';
import { isRunPending } from '../src/queue/queue-run.js';
import { TASK_QUEUE, taskJobSchema, type TaskJob, type TaskWaitReason } from '../src/queue/task-job.js';
import type { RunReporter, RunResult } from '../src/reporting/run-result.js';
import { sessionSummary, type RunRecord, type ThreadSession } from '../src/sessions/thread-session.js';
import { attemptDigest } from '../src/run-log/attempt-digest.js';
import type { ThreadSessionStore } from '../src/sessions/thread-session-store.js';
import { failureMessage } from './failure-message.js';
import { dataDirLow } from '../src/workspace/disk-space.js';
import type { EarlierAttempt, RunnerDeps } from './runner-deps.js';
import { runTask } from './run-task.js';
import { previousRequestTs, requestImages } from './request-images.js';
import { acknowledgeOnGitHub, answerOnGitHub } from './github-reply.js';
import { JobWaits } from './job-waits.js';
import { startQueueWorker, type JobContext, type JobLockOptions } from './queue-worker.js';
import { recordingReporter, startRunRecord, type RunLogOptions, type RunRecordStart, type RunRecorder } from '../src/run-log/run-recorder.js';
import { unreadSteeringMessage } from '../src/slack/help-messages.js';
import { renderProgress, type ProgressDetail, type StopStage } from '../src/reporting/progress.js';
import { RunCancelled } from '../src/sessions/cancellation.js';
import type { RunContext, StageName } from './pipeline/run-pipeline.js';
import { stringsFor } from '../src/slack/strings/index.js';
import { watchRun } from '../src/slack/run-watchdog.js';
import type { ThreadOutbox } from '../src/slack/thread-outbox.js';
import { type SteeringInbox, steeringTurn } from '../src/sessions/steering-inbox.js';
import type { JobClaim } from '../src/queue/job-claim.js';

/** What a run says of its thread and requester: the thread's link, the requester's name and email. */
export interface RunLookups {
  threadUrl?: string;
  requesterName?: string;
  /** The requester's Slack profile email (needs the users:read.email scope), for their commits' co-author trailer. */
  requesterEmail?: string;
}

export interface ReporterContext extends RunLookups {
  reporter: RunReporter;
  /** The same, from lookups still under way (Slack): the run starts without waiting for them. */
  lookups?: Promise<RunLookups>;
}

export interface TaskWorkerOptions {
  /** For BullMQ's blocking connection (maxRetriesPerRequest: null). */
  connection: ConnectionOptions;
  /** For thread waits, claims and GitHub acknowledgements. */
  redis: RedisClient;
  prefix: string;
  concurrency: number;
  /** The task queue the handlers add to (its job states tell which runs of a thread are still to come). */
  queue: Queue<TaskJob>;
  sessions: ThreadSessionStore;
  steering: SteeringInbox;
  slots: RunSlots;
  /** Where the thread is told of steering messages that came after the run's last step. */
  outbox: ThreadOutbox;
  /** Builds where a job reports to (its Slack thread); the run page's link goes into its status message. */
  reporterFor: (job: TaskJob, jobId: string, links: { runPageUrl?: string }, claim?: JobClaim) => Promise<ReporterContext>;
  /** Where each run's record is written (run pages, App Home, metrics). */
  runLog?: RunLogOptions;
  /**
   * How long a run recorded in its thread but not yet in the queue is waited for by the thread's later runs: its
   * handler is queueing it, or died doing so and another process takes the mention over (WRENCH_MENTION_CLAIM_SECONDS).
   */
  queueingGraceMs: number;
  /** How long a job waits before asking again for a slot (global, repository, user). @default 3000 ms */
  retrySlotMs?: number;
  /**
   * A follow-up waiting for the earlier run of its thread starts when that run's job ends (its BullMQ event);
   * it also looks again after this long, in case the event was missed. @default 60_000 ms
   */
  threadWaitFallbackMs?: number;
  /**
   * Where jobs of a repository go first: a worker that does not hold it warm gives a job back for a bounded moment
   * while another worker that does has room (src/queue/host-affinity.ts). @default none: any worker takes any job
   */
  affinity?: HostAffinity;
  /** How long a job waits before looking again at the data dir's free space (WRENCH_MIN_FREE_MB). @default 5000 ms */
  retryDiskMs?: number;
  /** BullMQ's lock on a running job. @default BullMQ's: 30 s, checked every 30 s */
  jobLock?: JobLockOptions;
}

export interface TaskWorker {
  worker: Worker<TaskJob, TaskOutcome>;
  /** Stops taking jobs; after `graceMs` running jobs are cancelled (their work kept); resolves once none runs. */
  stopJobs(graceMs?: number): Promise<void>;
  /** `stopJobs`, then closes the worker's connections. */
  close(graceMs?: number): Promise<void>;
}

export interface TaskOutcome {
  status: string;
  pullRequest?: string;
}

const WAITING: Record<Exclude<TaskWaitReason, 'disk'>, ProgressDetail> = {
  thread: { key: 'waitingThread' },
  global: { key: 'waitingGlobal' },
  repository: { key: 'waitingRepository' },
  user: { key: 'waitingUser' },
};

export async function startTaskWorker(options: TaskWorkerOptions, deps: RunnerDeps): Promise<TaskWorker> {
  const { queue, sessions, steering, slots } = options;
  const waits = await JobWaits.start({ queue, redis: options.redis, prefix: options.prefix, logger: deps.logger, fallbackMs: options.threadWaitFallbackMs });

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

  /** Jobs given back for a warm host, each until it is back at the front (one timer per job, gone when it fires). */
  const givenBack = new Map<string, NodeJS.Timeout>();
  const putBackInFront = (job: Job<TaskJob, TaskOutcome>, afterMs: number) => {
    const jobId = job.id ?? '';
    clearTimeout(givenBack.get(jobId));
    const timer = setTimeout(() => {
      givenBack.delete(jobId);
      // promote fails when the job is no longer delayed (BullMQ promoted it, or a worker has it); changePriority with
      // lifo moves it to the front only if it is waiting, and otherwise changes nothing (its priority stays 0).
      void job
        .promote()
        .catch(() => undefined)
        .then(() => job.changePriority({ priority: 0, lifo: true }))
        .catch((error) => deps.logger.warn({ err: error, jobId }, 'could not put a given-back job back in front'));
    }, afterMs);
    timer.unref();
    givenBack.set(jobId, timer);
  };

  /** A run is still to come or going on: its job has not ended (or, just recorded, its handler has not queued it yet). */
  const isPending = async (run: RunRecord): Promise<boolean> =>
    (run.status === 'queued' || run.status === 'running') && isRunPending(run, await queue.getJobState(run.jobId), options.queueingGraceMs);

  /** Messages for the agent that came after its last model call are said in the thread (the steer handler checks too). */
  const tellUnreadSteering = async (jobId: string, payload: TaskJob, claim: JobClaim) => {
    // An attempt that lost its job leaves the messages to the attempt that has it.
    if (claim.lost) return;
    const unread = await steering.drain(jobId);
    if (unread.length === 0 || payload.origin.type !== 'slack') return;
    await options.outbox
      .fencedBy(claim)
      .post({ channel: payload.origin.channel, threadTs: payload.origin.threadTs }, { text: unreadSteeringMessage(unread, stringsFor(payload.language)) });
  };

  /** Runs of one thread go in the order they were asked for: the latest earlier run still pending, if any. */
  const earlierPendingRun = async (jobId: string, payload: TaskJob): Promise<string | undefined> => {
    if (payload.origin.type !== 'slack') return undefined;
    const session = await sessions.get(payload.origin.channel, payload.origin.threadTs);
    const runs = session?.runs ?? [];
    const mine = runs.find((r) => r.jobId === jobId);
    const index = mine ? runs.indexOf(mine) : runs.length;
    const isEarlier = (other: RunRecord, position: number) =>
      mine?.messageTs && other.messageTs ? Number(other.messageTs) < Number(mine.messageTs) : position < index;
    const earlier = runs.filter((r, position) => r !== mine && isEarlier(r, position));
    for (const run of earlier.reverse()) if (await isPending(run)) return run.jobId;
    return undefined;
  };

  const processor = async (job: Job<TaskJob, TaskOutcome>, payload: TaskJob, run: JobContext): Promise<TaskOutcome> => {
    const { jobId, log } = run;
    if (payload.remind) return { status: (await deps.questions?.remind(payload.remind.pauseId)) ?? 'no question desk' };
    const runPageUrl = options.runLog?.links?.urlFor(jobId);
    const { reporter: threadReporter, lookups: lookingUp, ...known } = await options.reporterFor(payload, jobId, { runPageUrl }, run.claim);
    let reporter = threadReporter;
    // Filled in as the lookups answer; whatever needs them waits for `lookups` (the pipeline, before it acts outside).
    const details: RunLookups = { ...known };
    const lookups = (lookingUp ?? Promise.resolve({})).then(
      (found) => Object.assign(details, stripUndefined(found)),
      () => details,
    );

    if (run.signal.aborted) {
      await setRun(payload, jobId, { status: 'cancelled' });
      await reporter.phase('cancelled', { key: 'cancelledBeforeStart' });
      return { status: 'cancelled' };
    }

    const noteWaiting = async (reason: TaskWaitReason, detail?: ProgressDetail) => {
      if (payload.waitingFor === reason) return;
      await job.updateData({ ...payload, waitingFor: reason });
      await reporter.phase('queued', detail ?? (reason === 'disk' ? undefined : WAITING[reason])).catch(() => undefined);
    };
    const earlier = await earlierPendingRun(jobId, payload);
    if (earlier) {
      await noteWaiting('thread');
      throw await waits.park(job, run.token, earlier, async () => (await earlierPendingRun(jobId, payload)) !== undefined);
    }
    const repository = `${payload.repo.owner}/${payload.repo.name}`;
    const { affinity } = options;
    if (affinity && !payload.localPath) {
      // After the thread's order, before a slot: a job given back holds nothing, and its thread's later runs wait behind it.
      // A busy warm worker is waited for only while this one has other jobs to take instead (it is never idle for it).
      const otherWorkWaiting = async () => {
        const counts = await queue.getJobCounts('wait', 'prioritized');
        return (counts.wait ?? 0) + (counts.prioritized ?? 0) > 0;
      };
      const since = await affinity.holdBack(repository, payload.affinitySince, otherWorkWaiting);
      if (since !== undefined) {
        if (payload.affinitySince === undefined) {
          payload.affinitySince = since;
          await job.updateData(payload);
        }
        // Out of this worker's way (it goes on with the next job), then back at the front of the waiting list, where it
        // was when picked: BullMQ would promote it behind every job waiting, past the bound. The delay is only the
        // fallback if this process ends before it puts the job back (BullMQ then promotes it itself).
        await job.moveToDelayed(Date.now() + affinity.retryMs * 4, run.token);
        putBackInFront(job, affinity.retryMs);
        throw new DelayedError();
      }
    }
    // A full data dir fails a run only after all its model calls (at `git add`): below the minimum, it waits for space.
    const minFreeMb = deps.config.env.WRENCH_MIN_FREE_MB;
    const disk = minFreeMb > 0 ? await dataDirLow(deps.config.dataDir, minFreeMb).catch(() => undefined) : undefined;
    if (disk?.low) {
      log.warn({ freeMb: disk.freeMb, minFreeMb, dataDir: deps.config.dataDir }, 'the data dir is low on space: the run waits');
      await noteWaiting('disk', { key: 'waitingDisk', freeMb: disk.freeMb, needMb: minFreeMb });
      await job.moveToDelayed(Date.now() + (options.retryDiskMs ?? 5000), run.token);
      throw new DelayedError();
    }
    const slot = {
      jobId,
      thread: payload.origin.type === 'slack' ? `${payload.origin.channel}:${payload.origin.threadTs}` : jobId,
      repository,
      user: payload.slotHolder ?? payload.requester.slackUserId,
    };
    const answer = await slots.acquire(slot);
    if (answer !== 'ok') {
      await noteWaiting(answer);
      await job.moveToDelayed(Date.now() + (options.retrySlotMs ?? 3000), run.token);
      throw new DelayedError();
    }

    const stopKeepAlive = slots.keepAlive(slot);
    if (affinity) {
      log.info(
        { host: affinity.host, warm: affinity.holds(repository), heldBackMs: payload.affinitySince ? Date.now() - payload.affinitySince : 0 },
        'job placed',
      );
      await affinity.occupy(jobId);
    }
    let recorder: RunRecorder | undefined;
    // Asked for on GitHub: 👀 and a "working on it" reply there now, replaced by the answer at the end.
    const ack = payload.github
      ? await acknowledgeOnGitHub(payload, jobId, runPageUrl, deps, options.redis, options.prefix).catch((error) => {
          log.warn({ err: error }, 'could not acknowledge the request on GitHub');
          return undefined;
        })
      : undefined;
    let stageNow: StageName | undefined;
    run.onFailure(async (error, final) => {
      if (!final) {
        await setRun(payload, jobId, { status: 'queued' });
        await reporter.phase('queued', { key: 'retrying', problem: describeError(error).slice(0, 200) });
        return;
      }
      const reason: unknown = run.signal.aborted ? run.signal.reason : undefined;
      if (reason instanceof RunCancelled) {
        // A person stopped it: said as a stop, with who and during which stage, not as a failure.
        const detail = { key: 'stoppedDuring', by: reason.by, stage: stopStage(stageNow) } as const;
        await setRun(payload, jobId, { status: 'cancelled', summary: renderProgress(detail) }).catch(() => undefined);
        await reporter.phase('cancelled', detail);
        await answerOnGitHub(payload, { failure: `${renderProgress(detail)}.` }, deps, (await lookups).threadUrl, ack).catch((e) =>
          log.warn({ err: e }, 'could not answer on GitHub'),
        );
        return;
      }
      await setRun(payload, jobId, { status: 'failed', summary: describeError(error).slice(0, 500) }).catch(() => undefined);
      await reporter.failed(failureMessage(error, payload.language));
      await answerOnGitHub(payload, { failure: describeError(error).slice(0, 1000) }, deps, (await lookups).threadUrl, ack).catch((e) =>
        log.warn({ err: e }, 'could not answer on GitHub'),
      );
    });
    try {
      const session = payload.origin.type === 'slack' ? await sessions.get(payload.origin.channel, payload.origin.threadTs) : null;
      // Read before this attempt's record replaces the earlier one's steps.
      const earlierAttempt = await earlierAttemptOf(session, jobId, payload, options.runLog).catch((error) => {
        log.warn({ err: error }, "could not read the earlier attempt's record");
        return undefined;
      });
      if (earlierAttempt) log.info({ branch: earlierAttempt.branch, pullRequest: earlierAttempt.pullRequest?.number }, 'going on from an earlier attempt');
      recorder = await startRunRecord(options.runLog, deps.redact, recordStart(jobId, job.timestamp, payload, details.threadUrl, details.requesterName), log);
      if (recorder) reporter = recordingReporter(threadReporter, recorder);
      const record = recorder;
      void lookups.then(({ threadUrl, requesterName }) => record?.describe({ threadUrl, requesterName }));
      // The new attempt's record starts empty: the run page keeps what the earlier one did in a note.
      if (earlierAttempt)
        recorder?.note(
          `An earlier attempt of this run pushed to ${earlierAttempt.branch}; this attempt goes on from its commits.` +
            (earlierAttempt.steps ? ` Its steps as recorded:\n${earlierAttempt.steps}` : ''),
        );
      // Only a worker marks a run running: still running now means the worker that had it died mid-run.
      if (session?.runs.find((r) => r.jobId === jobId)?.status === 'running') {
        log.warn('run restarted after an interruption');
        const strings = stringsFor(payload.language);
        const said = earlierAttempt ? strings.restartedFromBranch(earlierAttempt.branch) : strings.restartedAfterInterruption;
        await (threadReporter.restarted ? threadReporter.restarted(said) : threadReporter.note?.(said));
      }
      // A run started over reads steering again, whatever its agent had done before the interruption.
      await setRun(payload, jobId, { status: 'running', agentDone: undefined });
      if (payload.origin.type === 'slack') {
        // From now on its thread waits for its last word: the run watchdog says so if none comes in time.
        const { channel, threadTs } = payload.origin;
        await Promise.resolve()
          .then(() => {
            const { limits } = deps.config.file;
            const budgetMs = limits.minutes[payload.complexity] * 60_000;
            const watched = { channel, threadTs, language: payload.language, startedAt: Date.now(), budgetMs };
            return watchRun(options.redis, options.prefix, jobId, watched, limits.silenceMarginMinutes * 60_000);
          })
          .catch((error) => log.warn({ err: error }, 'could not put the run under the watchdog'));
      }
      const context: RunContext = {
        jobId,
        reporter,
        signal: run.signal,
        claim: run.claim,
        ...details,
        runPageUrl,
        continueBranch: session?.branch,
        earlierAttempt,
        onPushed: (pushed) =>
          setRun(
            payload,
            jobId,
            { branch: pushed?.branch, startSha: pushed?.startSha },
            pushed?.pullRequest ? { branch: pushed.branch, pullRequest: pushed.pullRequest } : {},
          ).catch((error) => log.warn({ err: error }, "could not record the run's pushed branch")),
        history: session?.runs.some((r) => r.jobId !== jobId && r.status !== 'queued') ? sessionSummary(session) : undefined,
        onAgentStarted: run.markStarted,
        onStage: (event) => {
          if (event.status === 'started') stageNow = event.stage;
          // The workspace is open (mirror and tree ready): this host is warm for the repository from now, not from
          // the job's end, so a burst's later jobs of the repository can be sent here while this one still runs.
          if (affinity && !payload.localPath && event.stage === 'prepare' && event.status === 'finished') {
            void affinity.markWarm(repository).catch((error) => log.warn({ err: error }, 'could not advertise the repository as warm here'));
          }
        },
        // An attempt that lost its job leaves the run's record to the attempt that has it.
        onAgentDone: async () => {
          if (run.claim.lost) return;
          await setRun(payload, jobId, { agentDone: true }).catch((error) => log.warn({ err: error }, 'could not record that the agent is done'));
        },
        record: recorder,
        images: requestImages(payload, {
          // The thread's own reporter: its notes go to the thread (the recording one tells only the run's phases).
          reporter: threadReporter,
          record: recorder,
          log,
          previousRequestTs: session && payload.origin.type === 'slack' ? previousRequestTs(session.runs, jobId, payload.origin.messageTs) : undefined,
          // A resumed conversation has its images already; every other task's agent asks for them.
          early: !payload.resume,
        }),
        steering: async () => {
          const messages = await steering.drain(jobId);
          if (messages.length === 0) return undefined;
          log.info({ count: messages.length }, 'steering messages delivered to the agent');
          return steeringTurn(messages);
        },
        // What follows the reply (a review comment on the PR, a follow-up) finds the branch and PR already recorded.
        beforeReport: async (result) => {
          if (result.pullRequest)
            await setRun(payload, jobId, {}, { branch: result.branch, pullRequest: { number: result.pullRequest.number, url: result.pullRequest.url } });
        },
      };
      context.lookups = lookups.then((found) => Object.assign(context, found));
      const result = await runTask(payload, context, deps);
      await run.claim.hold('the answer on GitHub');
      await answerOnGitHub(payload, { result }, deps, (await lookups).threadUrl, ack).catch((error) => log.warn({ err: error }, 'could not answer on GitHub'));
      await setRun(payload, jobId, runRecordOf(result, run.signal.aborted), {
        branch: result.pullRequest ? result.branch : session?.branch,
        pullRequest: result.pullRequest ? { number: result.pullRequest.number, url: result.pullRequest.url } : undefined,
      });
      return { status: result.status, pullRequest: result.pullRequest?.url };
    } finally {
      stopKeepAlive();
      if (affinity) await affinity.release(jobId);
      await recorder?.flush();
      // The slots are held under the job's id: an attempt that lost the job leaves them to the one that has it.
      if (!run.claim.lost) await slots.release(slot).catch(() => undefined);
      await tellUnreadSteering(jobId, payload, run.claim).catch((error) => log.warn({ err: error }, 'could not tell the thread of unread steering messages'));
    }
  };

  const tasks = await startQueueWorker<TaskJob, TaskOutcome>({
    queue: TASK_QUEUE,
    schema: taskJobSchema,
    process: processor,
    connection: options.connection,
    prefix: options.prefix,
    redis: options.redis,
    concurrency: options.concurrency,
    logger: deps.logger,
    workerOptions: options.jobLock,
    logFields: (payload) => ({
      repo: `${payload.repo.owner}/${payload.repo.name}`,
      thread: payload.origin.type === 'slack' ? payload.origin.threadTs : undefined,
    }),
    // Its worker stopped under it once too often (SIGKILLs, crashes): BullMQ ends it unrun, and the thread is told why.
    onAbandoned: async (job, payload, interruptions) => {
      if (payload.origin.type !== 'slack' || payload.remind) return;
      const jobId = job.id ?? '';
      const { reporter } = await options.reporterFor(payload, jobId, { runPageUrl: options.runLog?.links?.urlFor(jobId) });
      const t = stringsFor(payload.language).failure;
      const message = t.runFailed(t.interrupted(interruptions));
      await setRun(payload, jobId, { status: 'failed', summary: message.slice(0, 500) });
      await reporter.failed(message);
    },
  });

  return {
    worker: tasks.worker,
    stopJobs: (graceMs) => tasks.stopJobs(graceMs),
    async close(graceMs) {
      // Jobs still given back come back when their delay ends (BullMQ promotes them).
      for (const timer of givenBack.values()) clearTimeout(timer);
      givenBack.clear();
      await tasks.close(graceMs);
      await waits.close();
    },
  };
}

/**
 * An earlier attempt of this job that pushed to a branch (its worker died, or it failed and is retried): its branch, its
 * pull request when the thread recorded one for that branch, and Wrench's record of its steps. A job resuming a paused
 * run goes on from the paused run instead.
 */
async function earlierAttemptOf(
  session: ThreadSession | null,
  jobId: string,
  payload: TaskJob,
  runLog: RunLogOptions | undefined,
): Promise<EarlierAttempt | undefined> {
  const mine = session?.runs.find((r) => r.jobId === jobId);
  if (!session || !mine?.branch || payload.resume) return undefined;
  const steps = runLog ? attemptDigest(await runLog.store.entries(jobId)) : undefined;
  return {
    branch: mine.branch,
    startSha: mine.startSha,
    pullRequest: session.branch === mine.branch ? session.pullRequest : undefined,
    steps,
  };
}

/** The stage a person stopped the run in, as the thread says it (none begun yet: setup). */
export function stopStage(stage: StageName | undefined): StopStage {
  switch (stage) {
    case 'before':
    case 'agent':
      return 'work';
    case 'verify':
    case 'after':
      return 'checks';
    case 'publish':
    case 'report':
      return 'publishing';
    default:
      return 'setup';
  }
}

function recordStart(jobId: string, queuedAt: number, payload: TaskJob, threadUrl: string | undefined, requesterName: string | undefined): RunRecordStart {
  const origin = payload.origin.type === 'slack' ? payload.origin : undefined;
  return {
    id: jobId,
    repository: `${payload.repo.owner}/${payload.repo.name}`,
    instruction: payload.instruction,
    category: payload.category,
    requester: payload.requester.slackUserId,
    requesterName,
    channel: origin?.channel,
    threadTs: origin?.threadTs,
    threadUrl,
    queuedAt,
  };
}

function runRecordOf(result: RunResult, cancelled: boolean): Partial<RunRecord> {
  return {
    status: cancelled ? 'cancelled' : 'done',
    summary: (result.report?.summary ?? result.answer ?? result.stopReason ?? result.headline ?? '').slice(0, 2000),
    findings: result.findings?.slice(0, 12_000),
    usage: result.usage ? { ...result.usage } : undefined,
    costUsd: result.costUsd,
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

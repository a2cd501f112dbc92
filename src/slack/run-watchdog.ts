import type { Logger } from '../logging/logger.js';
import type { RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';
import { stringsFor } from './strings/index.js';
import type { ThreadOutbox, ThreadRef } from './thread-outbox.js';

/** A run whose thread waits for its last word: where it reports, since when, and how long it may take. */
export interface WatchedRun extends ThreadRef {
  language?: string;
  /** When a worker (last) started it, ms since epoch. */
  startedAt: number;
  /** Its own time limit (limits.minutes of its complexity), ms. */
  budgetMs: number;
}

/** The job states of a run that waits for a worker (again): its budget has not begun. */
const WAITING_STATES = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/** The outbox key of the watchdog's word in a run's thread: posted once across processes. */
const watchdogKey = (jobId: string) => `watchdog:${jobId}`;

/**
 * Watches a run from its start: the watchdog says so in its thread if no last word (a result, or a message saying what
 * happened) has reached it `marginMs` after its time limit. Started again (after a restart), the clock starts again.
 * The thread's outbox stops watching it once it delivers the run's last word (an item that `settles` the job).
 */
export async function watchRun(redis: RedisClient, prefix: string, jobId: string, run: WatchedRun, marginMs: number): Promise<void> {
  const keys = redisKeys(prefix).runWatch;
  await redis
    .multi()
    .hset(keys.runs, jobId, JSON.stringify(run))
    .zadd(keys.due, run.startedAt + run.budgetMs + marginMs, jobId)
    .exec();
}

export interface RunWatchdogOptions {
  redis: RedisClient;
  prefix: string;
  outbox: ThreadOutbox;
  /** A job's state in the task queue (BullMQ's names; 'unknown' once it is gone). */
  jobState(jobId: string): Promise<string>;
  log: Logger;
  /** Past its time limit by this much with no last word, a run is said to be silent. */
  marginMs: number;
  /** How often due runs are looked for. @default 30_000 ms */
  intervalMs?: number;
  now?: () => number;
}

/**
 * Finds runs whose thread has had no last word for longer than their time limit and a margin (a run that ended without
 * its reply reaching the thread, or one still marked running long past its limit), and says so in the thread once:
 * every web process looks, the thread's outbox takes the word once (a once key), and the run is then forgotten. A run
 * whose thread still has messages on their way, or whose job waits for a worker again, is looked at again later.
 */
export class RunWatchdog {
  private readonly intervalMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<unknown> = Promise.resolve();
  private stopped = true;

  constructor(private readonly options: RunWatchdogOptions) {
    this.intervalMs = options.intervalMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.checking = this.check()
        .catch((error) => this.options.log.warn({ err: error }, 'run watchdog: could not look for silent runs'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.timer = setTimeout(tick, this.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.checking;
  }

  /** Looks at every run past its deadline once; resolves with how many threads were told. */
  async check(): Promise<number> {
    const { redis, prefix, outbox, log } = this.options;
    const keys = redisKeys(prefix).runWatch;
    const now = this.now();
    const due = await redis.zrangebyscore(keys.due, '-inf', now, 'LIMIT', 0, 50);
    let told = 0;
    for (const jobId of due) {
      const stored = await redis.hget(keys.runs, jobId);
      const run = stored ? parseWatchedRun(stored) : undefined;
      if (!run) {
        await redis.zrem(keys.due, jobId);
        continue;
      }
      const thread = { channel: run.channel, threadTs: run.threadTs };
      if ((await outbox.keyState(thread, watchdogKey(jobId))) !== 'unknown') {
        // Said already (by another process looking at the same moment): the run is said once, whatever follows.
        await redis.multi().zrem(keys.due, jobId).hdel(keys.runs, jobId).exec();
        continue;
      }
      const state = await this.options.jobState(jobId);
      if (WAITING_STATES.has(state) || (await outbox.waiting(thread)) > 0) {
        // Waiting for a worker again (its start restarts the clock), or its words are on their way: looked at again later.
        await redis.zadd(keys.due, 'XX', now + Math.max(this.intervalMs, this.options.marginMs), jobId);
        continue;
      }
      const t = stringsFor(run.language);
      const minutes = Math.max(1, Math.round((now - run.startedAt) / 60_000));
      const limit = Math.max(1, Math.round(run.budgetMs / 60_000));
      const text = state === 'active' ? t.runSilentRunning(minutes, limit) : t.runSilentEnded(minutes, limit);
      await outbox.postOnce(thread, { text }, watchdogKey(jobId));
      // Said once per job: a process that looked meanwhile and put it off finds it gone, or said, next time.
      await redis.multi().zrem(keys.due, jobId).hdel(keys.runs, jobId).exec();
      log.warn(
        { jobId, channel: run.channel, thread: run.threadTs, state, minutes, limitMinutes: limit },
        'run watchdog: a run had no last word past its time limit; its thread is told',
      );
      told += 1;
    }
    return told;
  }
}

function parseWatchedRun(stored: string): WatchedRun | undefined {
  try {
    const run = JSON.parse(stored) as Partial<WatchedRun>;
    if (typeof run.channel !== 'string' || typeof run.threadTs !== 'string' || typeof run.startedAt !== 'number' || typeof run.budgetMs !== 'number')
      return undefined;
    return run as WatchedRun;
  } catch {
    return undefined;
  }
}

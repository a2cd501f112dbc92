import type { RedisClient } from '../redis/redis-connection.js';
import { duplicateConnection } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';

/**
 * Cancel requests cross processes: a flag in Redis (for a run that has not started yet) and a
 * pub/sub message (for a run going on in some worker right now).
 */
export class Cancellation {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private key(jobId: string) {
    return redisKeys(this.prefix).cancelRequest(jobId);
  }

  get channel() {
    return redisKeys(this.prefix).cancelChannel;
  }

  /** `by`: who or what asked, as the thread should read it ("<@U123>", "the pull request was closed"). */
  async request(jobId: string, by = 'someone'): Promise<void> {
    await this.redis.set(this.key(jobId), by, 'EX', 7 * 24 * 3600);
    await this.redis.publish(this.channel, jobId);
  }

  async requestedBy(jobId: string): Promise<string | undefined> {
    return (await this.redis.get(this.key(jobId))) ?? undefined;
  }

  async isRequested(jobId: string): Promise<boolean> {
    return (await this.redis.exists(this.key(jobId))) === 1;
  }

  /** Calls `onCancel(jobId)` for every request from any process; returns the unsubscribe function. */
  async subscribe(onCancel: (jobId: string) => void): Promise<() => Promise<void>> {
    const subscriber = duplicateConnection(this.redis);
    await subscriber.subscribe(this.channel);
    subscriber.on('message', (_channel: string, jobId: string) => onCancel(jobId));
    return async () => {
      await subscriber.unsubscribe().catch(() => undefined);
      subscriber.disconnect();
    };
  }
}

/** The reason a run's signal is aborted when someone cancels it: who asked, for the thread's reply. */
/** Who cancels the runs of a thread whose pull request was merged or closed. */
export const PULL_REQUEST_CLOSED = 'the pull request being closed';

export class RunCancelled extends Error {
  constructor(readonly by: string) {
    super(`cancelled by ${by}`);
  }
}

/** The reason a run's signal is aborted when the process shuts down (not cancelled by a person): its work is kept. */
export class ShutdownSignal extends Error {
  constructor() {
    super('Wrench is shutting down');
    this.name = 'ShutdownSignal';
  }
}

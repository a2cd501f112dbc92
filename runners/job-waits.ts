import { DelayedError, QueueEvents, type Job, type Queue } from 'bullmq';
import type { Logger } from '../src/logging/logger.js';
import { duplicateConnection, isConnectionError, type RedisClient } from '../src/redis/redis-connection.js';
import { redisKeys } from '../src/redis/redis-keys.js';

const WAITERS_TTL_SECONDS = 7 * 24 * 3600;

export interface JobWaitsOptions {
  /** The queue whose jobs wait for each other. */
  queue: Queue;
  /** For the waiters' sets; its duplicate reads the queue's events. */
  redis: RedisClient;
  prefix: string;
  logger: Logger;
  /**
   * When a parked job looks again even if no event woke it (an event missed while Redis was away).
   * @default 60_000 ms
   */
  fallbackMs?: number;
}

/**
 * Jobs parked until another job of the same queue finishes: a parked job is moved to delayed and promoted by the
 * other job's `completed`, `failed` or `removed` event (BullMQ's QueueEvents, whichever process ran it), so it
 * starts as soon as that job ends instead of at the next poll.
 */
export class JobWaits {
  private constructor(
    private readonly options: JobWaitsOptions,
    private readonly events: QueueEvents,
    private readonly connection: RedisClient,
  ) {}

  static async start(options: JobWaitsOptions): Promise<JobWaits> {
    // QueueEvents blocks on XREAD: its own connection, which BullMQ requires to retry forever.
    const connection = duplicateConnection(options.redis, { maxRetriesPerRequest: null });
    const events = new QueueEvents(options.queue.name, { connection, prefix: options.prefix });
    const waits = new JobWaits(options, events, connection);
    events.on('error', (error) => {
      if (!isConnectionError(error)) options.logger.error({ err: error, queue: options.queue.name }, 'queue events error');
    });
    for (const event of ['completed', 'failed', 'removed'] as const) {
      events.on(event, ({ jobId }: { jobId: string }) => {
        waits.wake(jobId).catch((error) => options.logger.warn({ err: error, jobId }, 'could not wake the jobs waiting for a job'));
      });
    }
    await events.waitUntilReady();
    return waits;
  }

  private key(jobId: string): string {
    return redisKeys(this.options.prefix).jobWaiters(this.options.queue.name, jobId);
  }

  /**
   * Parks `job` (being processed with `token`) until the job `otherJobId` ends; throw the returned DelayedError
   * from the processor. `stillWaiting` is asked once more after the move: the other job may have ended in between.
   */
  async park(job: Job, token: string | undefined, otherJobId: string, stillWaiting: () => Promise<boolean>): Promise<DelayedError> {
    const key = this.key(otherJobId);
    await this.options.redis
      .multi()
      .sadd(key, job.id ?? '')
      .expire(key, WAITERS_TTL_SECONDS)
      .exec();
    await job.moveToDelayed(Date.now() + (this.options.fallbackMs ?? 60_000), token);
    if (!(await stillWaiting().catch(() => true))) await job.promote().catch(() => undefined);
    return new DelayedError();
  }

  /** Promotes the jobs parked behind `jobId` (each process gets the event; the first takes the waiters). */
  private async wake(jobId: string): Promise<void> {
    const key = this.key(jobId);
    const replies = await this.options.redis.multi().smembers(key).del(key).exec();
    const waiting = (replies?.[0]?.[1] as string[] | undefined) ?? [];
    for (const id of waiting) {
      const job = await this.options.queue.getJob(id);
      // Not delayed (yet): it is between its check and its move, and its own second look will see the end.
      await job?.promote().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.events.close();
    this.connection.disconnect();
  }
}

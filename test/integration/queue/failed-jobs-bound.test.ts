import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envSchema } from '../../../src/config/env-options.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createQueues, DEFAULT_FAILED_MAX, type Queues } from '../../../src/queue/queues.js';
import { startQueueWorker, type QueueWorker } from '../../../runners/queue-worker.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const BOUND = 5;
const FAILURES = 12;
const WEEK_SECONDS = 7 * 24 * 3600;

describe('failed jobs stay at WRENCH_QUEUE_FAILED_MAX per queue however many fail', () => {
  let server: RedisServer;
  let redis: Redis;
  const opened: Queues[] = [];
  const workers: QueueWorker<unknown, never>[] = [];

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close(0)));
    await Promise.all(opened.map((queues) => queues.close()));
    redis?.disconnect();
    await server?.stop();
  });

  it('keeps exactly the newest failedMax failed jobs of every queue, and the data of the older ones is gone', async () => {
    const prefix = uniqueName('failed');
    const queues = createQueues(redis, prefix, undefined, { failedMax: BOUND });
    opened.push(queues);
    const all = [queues.tasks, queues.triage, queues.incidents, queues.github];
    // One job at a time, in the order queued: each fails for good (not transient), so failures end in that order.
    for (const queue of all) {
      workers.push(
        await startQueueWorker<unknown, never>({
          queue: queue.name,
          schema: z.unknown(),
          process: async () => {
            throw new Error('poison payload');
          },
          isTransient: () => false,
          connection: redis,
          prefix,
          logger: createLogger({ level: 'silent' }),
        }),
      );
    }
    const ids = Array.from({ length: FAILURES }, (_, i) => `poison-${String(i).padStart(2, '0')}`);
    for (const queue of all) {
      for (const jobId of ids) await queue.add('poison', { jobId } as never, { jobId });
    }

    for (const queue of all) {
      // The last job's failure is the last removal: once it is failed, the set is as it stays.
      await expect.poll(() => queue.getJobState(ids.at(-1)!), { timeout: 30_000, interval: 100 }).toBe('failed');
      expect(await queue.getFailedCount()).toBe(BOUND);
      const kept = (await queue.getFailed()).map((job) => job.id).sort();
      expect(kept, queue.name).toEqual(ids.slice(-BOUND));
      const gone = await Promise.all(ids.slice(0, -BOUND).map((id) => redis.exists(`${prefix}:${queue.name}:${id}`)));
      expect(gone.every((exists) => exists === 0)).toBe(true);
      const job = await queue.getJob(ids.at(-1)!);
      // The week's bound stays beside the count.
      expect(job?.opts.removeOnFail).toEqual({ age: WEEK_SECONDS, count: BOUND });
      expect(job?.failedReason).toContain('poison payload');
    }
  });

  it('defaults to 1,000 failed jobs a queue, from WRENCH_QUEUE_FAILED_MAX as from createQueues', async () => {
    expect(envSchema.parse({}).WRENCH_QUEUE_FAILED_MAX).toBe(DEFAULT_FAILED_MAX);
    expect(DEFAULT_FAILED_MAX).toBe(1000);
    expect(envSchema.parse({ WRENCH_QUEUE_FAILED_MAX: '50' }).WRENCH_QUEUE_FAILED_MAX).toBe(50);
    expect(envSchema.safeParse({ WRENCH_QUEUE_FAILED_MAX: '0' }).error?.issues[0]?.message).toBe('WRENCH_QUEUE_FAILED_MAX must be at least 1');
    const queues = createQueues(redis, uniqueName('failed-default'));
    opened.push(queues);
    const job = await queues.tasks.add('task', {} as never, { jobId: 'default-bound' });
    expect(job.opts.removeOnFail).toEqual({ age: WEEK_SECONDS, count: DEFAULT_FAILED_MAX });
    expect((await queues.tasks.getJob('default-bound'))?.opts.removeOnFail).toEqual({ age: WEEK_SECONDS, count: DEFAULT_FAILED_MAX });
  });
});

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../../../src/logging/logger.js';
import { createQueues, DEFAULT_EVENTS_MAX_LEN, type Queues } from '../../../src/queue/queues.js';
import { TASK_QUEUE } from '../../../src/queue/task-job.js';
import { startQueueWorker, type QueueWorker } from '../../../runners/queue-worker.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

/** Redis trims a stream approximately (MAXLEN ~): whole nodes of stream-node-max-entries (100) at a time. */
const TRIM_SLACK = 100;
const JOBS = 400;

describe("BullMQ's events streams stay at WRENCH_QUEUE_EVENTS_MAX_LEN however many jobs run", () => {
  let server: RedisServer;
  let redis: Redis;
  let queues: Queues | undefined;
  let worker: QueueWorker<unknown, string> | undefined;

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    await worker?.close(0);
    await queues?.close();
    redis?.disconnect();
    await server?.stop();
  });

  it('keeps about maxLen events of jobs added, run and completed, and a worker starting later does not put the default back', async () => {
    const prefix = uniqueName('events');
    queues = createQueues(redis, prefix, undefined, { eventsMaxLen: 200 });
    await queues.tasks.waitUntilReady();
    const meta = `${prefix}:${TASK_QUEUE}:meta`;
    await expect.poll(() => redis.hget(meta, 'opts.maxLenEvents'), { timeout: 10_000 }).toBe('200');
    // The worker's own queue handle (for cancel requests) starts after the queues, as in a worker process.
    worker = await startQueueWorker<unknown, string>({
      queue: TASK_QUEUE,
      schema: z.unknown(),
      process: async () => 'done',
      connection: redis,
      prefix,
      redis,
      logger: createLogger({ level: 'silent' }),
      concurrency: 20,
    });
    await worker.worker.waitUntilReady();
    await queues.tasks.addBulk(Array.from({ length: JOBS }, (_, i) => ({ name: 'task', data: { i } as never, opts: { jobId: `job-${i}` } })));
    await expect.poll(() => queues!.tasks.getCompletedCount(), { timeout: 120_000, interval: 200 }).toBe(JOBS);

    // Each job says added, waiting, active and completed: four times maxLen events went through the stream.
    expect(await redis.hget(meta, 'opts.maxLenEvents')).toBe('200');
    const length = await redis.xlen(`${prefix}:${TASK_QUEUE}:events`);
    expect(length).toBeGreaterThanOrEqual(200);
    expect(length).toBeLessThanOrEqual(200 + TRIM_SLACK);
  });

  it("defaults to BullMQ's own 10,000", async () => {
    const prefix = uniqueName('events-default');
    const defaults = createQueues(redis, prefix);
    await defaults.tasks.waitUntilReady();
    await expect.poll(() => redis.hget(`${prefix}:${TASK_QUEUE}:meta`, 'opts.maxLenEvents'), { timeout: 10_000 }).toBe(String(DEFAULT_EVENTS_MAX_LEN));
    await defaults.close();
  });
});

import { Queue, QueueEvents, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JobWaits } from '../../../runners/job-waits.js';
import { startQueueWorker, type JobContext, type QueueWorker } from '../../../runners/queue-worker.js';
import { WrenchError } from '../../../src/errors.js';
import { createLogger } from '../../../src/logging/logger.js';
import { Cancellation, RunCancelled, ShutdownSignal } from '../../../src/sessions/cancellation.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const schema = z.object({ step: z.string(), count: z.number().int() });
type Data = z.infer<typeof schema>;
type Outcome = { status: string; by?: string; attempt?: number };
type Process = (job: Job<Data, Outcome>, data: Data, context: JobContext) => Promise<Outcome>;

/** A promise with its resolve function, to let a test and a processor meet without sleeping. */
function signalled<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The worker wrapper under every queue, against a real Redis: each test has its own prefix and queue. */
describe('startQueueWorker', () => {
  let server: RedisServer;
  let redis: Redis;
  let connection: Redis;
  const logger = createLogger({ level: 'silent' });
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
    connection = new Redis(server.url, { maxRetriesPerRequest: null });
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    redis?.disconnect();
    connection?.disconnect();
    await server?.stop();
  });

  /** A queue, its events and a wrapped worker running `process`, all under a fresh prefix. */
  async function setUp(process: Process, options: { graceMs?: number } = {}) {
    const prefix = uniqueName('qw');
    const name = 'work';
    const queue = new Queue<Data, Outcome>(name, {
      connection: redis,
      prefix,
      defaultJobOptions: { attempts: 3, backoff: { type: 'fixed', delay: 10 } },
    });
    const eventsConnection = connection.duplicate();
    const events = new QueueEvents(name, { connection: eventsConnection, prefix });
    await events.waitUntilReady();
    const wrapped: QueueWorker<Data, Outcome> = await startQueueWorker({
      queue: name,
      schema,
      process,
      connection,
      prefix,
      redis,
      logger,
      concurrency: 2,
      graceMs: options.graceMs,
    });
    let closed = false;
    const close = async (graceMs?: number) => {
      closed = true;
      await wrapped.close(graceMs);
    };
    cleanups.push(async () => {
      if (!closed) await wrapped.close(0);
      await events.close();
      eventsConnection.disconnect();
      await queue.close();
    });
    return { prefix, queue, events, close, stopJobs: (graceMs?: number) => wrapped.stopJobs(graceMs) };
  }

  it('fails a malformed job for good with invalid_job, without calling the processor or retrying', async () => {
    let calls = 0;
    const { queue, events } = await setUp(async () => {
      calls += 1;
      return { status: 'done' };
    });
    const job = await queue.add('bad', { step: 'x', count: 'three' } as unknown as Data);
    await expect(job.waitUntilFinished(events)).rejects.toThrow(/^invalid_job: the work job's data does not match its schema \(count: /);
    const failed = await queue.getJob(job.id!);
    expect(await failed!.getState()).toBe('failed');
    expect(failed!.attemptsMade).toBe(1);
    expect(failed!.failedReason).not.toMatch(/unavailable/);
    expect(calls).toBe(0);
  });

  it('retries a transient failure before the work started, and the next attempt succeeds', async () => {
    const told: boolean[] = [];
    const { queue, events } = await setUp(async (job, data, context) => {
      context.onFailure((_error, final) => {
        told.push(final);
      });
      if (job.attemptsMade === 0) throw new WrenchError('git_failed', 'git fetch failed: connection reset');
      context.markStarted();
      return { status: `did ${data.step}`, attempt: job.attemptsMade + 1 };
    });
    const job = await queue.add('flaky', { step: 'clone', count: 1 });
    expect(await job.waitUntilFinished(events)).toEqual({ status: 'did clone', attempt: 2 });
    expect(told).toEqual([false]);
  });

  it('fails at once, for good, when a transient error comes after the work started', async () => {
    const told: boolean[] = [];
    let attempts = 0;
    const { queue, events } = await setUp(async (_job, _data, context) => {
      attempts += 1;
      context.onFailure((_error, final) => {
        told.push(final);
      });
      context.markStarted();
      throw new WrenchError('git_failed', 'git push failed: connection reset');
    });
    const job = await queue.add('started', { step: 'push', count: 1 });
    await expect(job.waitUntilFinished(events)).rejects.toThrow('git push failed: connection reset');
    expect(attempts).toBe(1);
    expect(told).toEqual([true]);
    const failed = await queue.getJob(job.id!);
    expect(await failed!.getState()).toBe('failed');
    expect(failed!.attemptsMade).toBe(1);
  });

  it('a permanent error before the work started is final too', async () => {
    let attempts = 0;
    const { queue, events } = await setUp(async () => {
      attempts += 1;
      throw new WrenchError('invalid_repository', 'no such repository');
    });
    const job = await queue.add('permanent', { step: 'clone', count: 1 });
    await expect(job.waitUntilFinished(events)).rejects.toThrow('no such repository');
    expect(attempts).toBe(1);
  });

  it('a cancel request aborts the running job with who asked, and the processor decides the outcome', async () => {
    const running = signalled();
    const { prefix, queue, events } = await setUp(async (_job, _data, context) => {
      running.resolve();
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
      const reason = context.signal.reason;
      return { status: 'cancelled', by: reason instanceof RunCancelled ? reason.by : String(reason) };
    });
    const job = await queue.add('long', { step: 'agent', count: 1 });
    await running.promise;
    await new Cancellation(redis, prefix).request(job.id!, '<@U0ALICE>');
    expect(await job.waitUntilFinished(events)).toEqual({ status: 'cancelled', by: '<@U0ALICE>' });
  });

  it('a job cancelled before it starts gets an already aborted signal; a delayed one is woken to see it', async () => {
    const { prefix, queue, events } = await setUp(async (_job, _data, context) => ({
      status: context.signal.aborted ? 'cancelled' : 'ran',
      by: (context.signal.reason as RunCancelled | undefined)?.by,
    }));
    const cancellation = new Cancellation(redis, prefix);
    await cancellation.request('early', 'the pull request being closed');
    const early = await queue.add('early', { step: 'x', count: 1 }, { jobId: 'early' });
    expect(await early.waitUntilFinished(events)).toEqual({ status: 'cancelled', by: 'the pull request being closed' });

    const later = await queue.add('later', { step: 'x', count: 1 }, { jobId: 'later', delay: 3_600_000 });
    expect(await later.getState()).toBe('delayed');
    await cancellation.request('later', '<@U0BOB>');
    expect(await later.waitUntilFinished(events)).toEqual({ status: 'cancelled', by: '<@U0BOB>' });
  });

  it('close(grace) lets a job that ends within the grace finish untouched', async () => {
    const running = signalled();
    const release = signalled();
    const { queue, close } = await setUp(async (_job, _data, context) => {
      running.resolve();
      await release.promise;
      return { status: context.signal.aborted ? 'aborted' : 'done' };
    });
    const job = await queue.add('short', { step: 'x', count: 1 });
    await running.promise;
    const closing = close(3_600_000);
    release.resolve();
    await closing;
    const finished = await queue.getJob(job.id!);
    expect(await finished!.getState()).toBe('completed');
    expect(finished!.returnvalue).toEqual({ status: 'done' });
  });

  it('close(grace) cancels a job still running after the grace with ShutdownSignal; it completes with its work kept', async () => {
    const running = signalled();
    const kept: string[] = [];
    const { queue, close } = await setUp(async (_job, data, context) => {
      running.resolve();
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
      kept.push(`${data.step} kept`);
      return { status: context.signal.reason instanceof ShutdownSignal ? 'stopped for shutdown' : 'other' };
    });
    const job = await queue.add('long', { step: 'agent work', count: 1 });
    await running.promise;
    await close(20);
    const finished = await queue.getJob(job.id!);
    expect(await finished!.getState()).toBe('completed');
    expect(finished!.returnvalue).toEqual({ status: 'stopped for shutdown' });
    expect(kept).toEqual(['agent work kept']);
  });

  it('stopJobs(grace) resolves once no processor runs: a job past the grace has been stopped and has returned; close records it', async () => {
    const running = signalled();
    let returned = false;
    const { queue, close, stopJobs } = await setUp(async (_job, _data, context) => {
      running.resolve();
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
      returned = true;
      return { status: context.signal.reason instanceof ShutdownSignal ? 'stopped for shutdown' : 'other' };
    });
    const job = await queue.add('long', { step: 'agent work', count: 1 });
    await running.promise;
    await stopJobs(20);
    expect(returned).toBe(true);
    await close(20);
    const finished = await queue.getJob(job.id!);
    expect(await finished!.getState()).toBe('completed');
    expect(finished!.returnvalue).toEqual({ status: 'stopped for shutdown' });
  });
});

/** Jobs parked behind another job of the queue start on its end event, not on a timer (the fallback is an hour). */
describe('JobWaits', { timeout: 30_000 }, () => {
  let server: RedisServer;
  let redis: Redis;
  let connection: Redis;
  const logger = createLogger({ level: 'silent' });

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
    connection = new Redis(server.url, { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    redis?.disconnect();
    connection?.disconnect();
    await server?.stop();
  });

  it('a job parked behind a running one starts when that one completes, and after it', async () => {
    const prefix = uniqueName('waits');
    const queue = new Queue<Data, Outcome>('work', { connection: redis, prefix });
    const eventsConnection = connection.duplicate();
    const events = new QueueEvents('work', { connection: eventsConnection, prefix });
    await events.waitUntilReady();
    const waits = await JobWaits.start({ queue, redis, prefix, logger, fallbackMs: 3_600_000 });
    const firstRunning = signalled();
    const releaseFirst = signalled();
    const order: string[] = [];
    let firstDone = false;
    const worker = await startQueueWorker<Data, Outcome>({
      queue: 'work',
      schema,
      connection,
      prefix,
      redis,
      logger,
      concurrency: 2,
      process: async (job, data, context) => {
        if (data.step === 'first') {
          order.push('first started');
          firstRunning.resolve();
          await releaseFirst.promise;
          order.push('first ended');
          firstDone = true;
          return { status: 'done' };
        }
        if (!firstDone) {
          order.push('second parked');
          throw await waits.park(job, context.token, 'first', async () => !firstDone);
        }
        order.push('second started');
        return { status: 'done' };
      },
    });
    try {
      const first = await queue.add('first', { step: 'first', count: 1 }, { jobId: 'first' });
      await firstRunning.promise;
      const parked = new Promise<void>((resolve) => events.on('delayed', ({ jobId }) => jobId === 'second' && resolve()));
      const second = await queue.add('second', { step: 'second', count: 2 }, { jobId: 'second' });
      await parked;
      expect(await second.getState()).toBe('delayed');
      releaseFirst.resolve();
      await first.waitUntilFinished(events);
      expect(await second.waitUntilFinished(events)).toEqual({ status: 'done' });
      expect(order).toEqual(['first started', 'second parked', 'first ended', 'second started']);
    } finally {
      await worker.close(0);
      await waits.close();
      await events.close();
      eventsConnection.disconnect();
      await queue.close();
    }
  });

  it('a job whose awaited job ended between its check and its move to delayed does not wait for the fallback', async () => {
    const prefix = uniqueName('waits');
    const queue = new Queue<Data, Outcome>('work', { connection: redis, prefix });
    const eventsConnection = connection.duplicate();
    const events = new QueueEvents('work', { connection: eventsConnection, prefix });
    await events.waitUntilReady();
    const waits = await JobWaits.start({ queue, redis, prefix, logger, fallbackMs: 3_600_000 });
    let parks = 0;
    const worker = await startQueueWorker<Data, Outcome>({
      queue: 'work',
      schema,
      connection,
      prefix,
      redis,
      logger,
      process: async (job, _data, context) => {
        parks += 1;
        // The awaited job never sends an event here: only the second look can let this one go.
        if (parks === 1) throw await waits.park(job, context.token, 'gone-already', async () => false);
        return { status: 'done', attempt: parks };
      },
    });
    try {
      const job = await queue.add('late', { step: 'x', count: 1 });
      expect(await job.waitUntilFinished(events)).toEqual({ status: 'done', attempt: 2 });
    } finally {
      await worker.close(0);
      await waits.close();
      await events.close();
      eventsConnection.disconnect();
      await queue.close();
    }
  });
});

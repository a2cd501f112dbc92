import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startQueueWorker, type JobContext } from '../../../runners/queue-worker.js';
import { createLogger } from '../../../src/logging/logger.js';
import { LostClaimError } from '../../../src/queue/job-claim.js';
import { createRedactor } from '../../../src/security/redact.js';
import { outboxSlackClient, ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const schema = z.object({ name: z.string() });

/** A worker's hold on its job against a real Redis and BullMQ: what another attempt taking the job does to this one. */
describe('the effect fence on a job attempt (JobClaim)', () => {
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

  /** Runs one job through `startQueueWorker` with `process`; resolves with what it returned and the failure handlers' calls. */
  async function runOne(prefix: string, lockDuration: number, process: (context: JobContext) => Promise<void>) {
    const queueName = uniqueName('claims');
    const queue = new Queue(queueName, { connection: redis, prefix });
    const failures: unknown[] = [];
    let finished!: (value: unknown) => void;
    const done = new Promise((resolve) => (finished = resolve));
    const worker = await startQueueWorker({
      queue: queueName,
      schema,
      prefix,
      connection,
      logger,
      workerOptions: { lockDuration, stalledInterval: 60_000 },
      process: async (_job, _data, context) => {
        context.onFailure((error) => void failures.push(error));
        try {
          await process(context);
          finished('returned');
        } catch (error) {
          finished(error);
          throw error;
        }
        return {};
      },
    });
    const failed: string[] = [];
    worker.worker.on('failed', (job) => failed.push(job?.id ?? ''));
    const job = await queue.add('one', { name: 'one' }, { jobId: 'job-1' });
    const outcome = await done;
    await worker.close(1000);
    const state = await queue.getJobState(job.id!);
    await queue.close();
    return { outcome, failures, failed, state, lockKey: `${prefix}:${queueName}:job-1:lock` };
  }

  const outboxFor = async (prefix: string) => {
    const outbox = new ThreadOutbox(redis, prefix, outboxSlackClient('xoxb-claims', 'http://127.0.0.1:9/api/'), createRedactor([]), logger);
    // Nothing is delivered: the test reads what waits in Redis.
    await outbox.stop();
    return outbox;
  };
  const thread = { channel: 'C0CLAIM', threadTs: '1700000000.000100' };

  it('holds while the lock is its own (renewing it); once another attempt has the job, no message is queued and the attempt ends quietly', async () => {
    const prefix = uniqueName('{claims}');
    const outbox = await outboxFor(prefix);
    const seen: Record<string, unknown> = {};
    const { outcome, failures, failed, state } = await runOne(prefix, 20_000, async (context) => {
      const fenced = outbox.fencedBy(context.claim);
      const key = context.claim.fence!.key;
      await redis.pexpire(key, 2000);
      await context.claim.hold('a push');
      seen.renewedTtl = await redis.pttl(key);
      await fenced.post(thread, { text: 'while held' });
      seen.waitingWhileHeld = await outbox.waiting(thread);
      // Another worker took the job over: the lock now holds its token.
      await redis.set(key, 'another-attempt-token', 'PX', 20_000);
      seen.refusedPost = await fenced.post(thread, { text: 'after the loss' }).then(
        () => 'queued',
        (error: unknown) => error,
      );
      seen.waitingAfter = await outbox.waiting(thread);
      seen.aborted = context.signal.reason;
      await context.claim.hold('a pull request');
    });
    expect(seen.renewedTtl).toBeGreaterThan(15_000);
    expect(seen.waitingWhileHeld).toBe(1);
    expect(seen.refusedPost).toBeInstanceOf(LostClaimError);
    expect((seen.refusedPost as LostClaimError).effect).toBe('a Slack post');
    expect(seen.waitingAfter).toBe(1);
    expect(seen.aborted).toBe(seen.refusedPost);
    expect(outcome).toBe(seen.refusedPost);
    // No failure told anywhere, and the job left to the attempt that has it (still active under its lock).
    expect(failures).toEqual([]);
    expect(failed).toEqual([]);
    expect(state).toBe('active');
  });

  it("learns of a lock BullMQ could not renew by itself and aborts the run's signal with LostClaimError", async () => {
    const prefix = uniqueName('claims');
    const outbox = await outboxFor(prefix);
    const { outcome, failures } = await runOne(prefix, 1000, async (context) => {
      // The lock expired (the process was paused past it), and no attempt holds the job now.
      await redis.del(context.claim.fence!.key);
      await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
      expect(context.signal.reason).toBeInstanceOf(LostClaimError);
      expect((context.signal.reason as LostClaimError).effect).toBe('lock renewal');
      // Later effects are refused at once.
      await outbox.fencedBy(context.claim).post(thread, { text: 'never' });
    });
    expect(outcome).toBeInstanceOf(LostClaimError);
    expect(failures).toEqual([]);
    expect(await outbox.waiting(thread)).toBe(0);
  });
});

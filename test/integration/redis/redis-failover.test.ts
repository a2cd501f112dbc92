import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueues, type Queues } from '../../../src/queue/queues.js';
import { createRedis, isConnectionError } from '../../../src/redis/redis-connection.js';
import { redisConnectionOptions } from '../../../src/redis/redis-options.js';
import { Cancellation } from '../../../src/sessions/cancellation.js';
import type { ThreadSession } from '../../../src/sessions/thread-session.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import { startSentinelSetup, type SentinelSetup } from '../../helpers/redis-sentinel.js';
import { uniqueName } from '../../helpers/unique-name.js';

const JOBS_BEFORE = 20;
const JOBS_AFTER = 50;
const JOBS_TOTAL = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The primary is killed (SIGKILL) while a BullMQ worker made by Wrench's factory processes task jobs, each of which
 * records itself in a thread session (a WATCH/MULTI transaction on a duplicated connection), and while more jobs are
 * added. The sentinels promote the replica; every connection follows.
 */
describe('Redis Sentinel failover under load', () => {
  let setup: SentinelSetup;

  beforeAll(async () => {
    setup = await startSentinelSetup();
  }, 30_000);

  afterAll(async () => {
    await setup?.stop();
  });

  it('finishes every job exactly once, loses no write, and reconnects every client (subscribers too) to the promoted replica', async () => {
    const url = `redis://:${setup.password}@${setup.group}`;
    const options = redisConnectionOptions({ REDIS_URL: url, REDIS_SENTINELS: setup.sentinels, REDIS_SENTINEL_PASSWORD: setup.sentinelPassword });
    const prefix = uniqueName('failover');
    const redis = createRedis(url, undefined, 'main', options);
    const queues: Queues = createQueues(redis, prefix);
    const sessions = new ThreadSessionStore(redis, prefix);
    // A pub/sub subscriber (cancel requests) made before the failover.
    const cancellation = new Cancellation(redis, prefix);
    const cancelled: string[] = [];
    const unsubscribe = await cancellation.subscribe((jobId) => cancelled.push(jobId));
    const runs = new Map<string, number>();
    const workerErrors: Error[] = [];
    const worker = new Worker(
      queues.tasks.name,
      async (job) => {
        const id = job.id ?? '';
        runs.set(id, (runs.get(id) ?? 0) + 1);
        await sleep(20);
        await sessions.update('C1', '1700000000.000100', (current) => recordRun(current, id));
      },
      { connection: createRedis(url, undefined, 'task-worker', options), prefix, concurrency: 2 },
    );
    worker.on('error', (error) => workerErrors.push(error));
    const ids = Array.from({ length: JOBS_TOTAL }, (_, i) => `job-${i}`);
    const add = (id: string) => queues.tasks.add('task', { id } as never, { jobId: id });
    try {
      for (const id of ids.slice(0, JOBS_BEFORE)) await add(id);
      while (runs.size < JOBS_BEFORE / 2) await sleep(10);

      setup.killPrimary();
      const killedAt = Date.now();
      // More work arrives while the sentinels notice and promote: adds wait for the new primary, none is refused.
      for (const id of ids.slice(JOBS_BEFORE, JOBS_AFTER)) {
        await add(id);
        await sleep(25);
      }
      await setup.waitForPrimary(setup.replicaPort, 20_000);
      const promotedAfterMs = Date.now() - killedAt;
      for (const id of ids.slice(JOBS_AFTER)) await add(id);

      const deadline = Date.now() + 30_000;
      while ((await queues.tasks.getJobCountByTypes('completed')) < JOBS_TOTAL && Date.now() < deadline) await sleep(100);

      expect(await queues.tasks.getJobCounts('completed', 'failed', 'wait', 'active', 'delayed')).toEqual({
        completed: JOBS_TOTAL,
        failed: 0,
        wait: 0,
        active: 0,
        delayed: 0,
      });
      expect([...runs.entries()].filter(([, count]) => count !== 1)).toEqual([]);
      expect([...runs.keys()].sort()).toEqual([...ids].sort());

      // What the promoted replica holds, read from it directly: every job's record, once, and every job completed.
      // (Connected only now: the sentinels close the normal clients of the replica they promote.)
      const newPrimary = setup.node(setup.replicaPort);
      const stored = JSON.parse((await newPrimary.get(sessions.key('C1', '1700000000.000100'))) ?? 'null') as ThreadSession;
      expect(stored.runs.map((run) => run.jobId).sort()).toEqual([...ids].sort());
      expect(await newPrimary.zcard(`${prefix}:${queues.tasks.name}:completed`)).toBe(JOBS_TOTAL);
      expect((await newPrimary.info('replication')).split('\r\n')).toContain('role:master');

      // The clients are connected to the promoted replica: the main connection, its duplicate for transactions, the
      // worker's connection and the one BullMQ duplicated from it for blocking commands.
      expect(await redis.config('GET', 'port')).toEqual(['port', String(setup.replicaPort)]);
      const blocking = `${prefix}:${Buffer.from(queues.tasks.name).toString('base64')}`;
      const named = async () => ((await newPrimary.client('LIST')) as string).split('\n').map((line) => /\bname=(\S*)/.exec(line)?.[1]);
      const reconnectDeadline = Date.now() + 10_000;
      while (!(await named()).includes(blocking) && Date.now() < reconnectDeadline) await sleep(100);
      const names = await named();
      expect(names.filter((name) => name === 'wrench-main').length).toBeGreaterThanOrEqual(2);
      expect(names.filter((name) => name === 'wrench-task-worker').length).toBeGreaterThanOrEqual(1);
      expect(names).toContain(blocking);
      // The subscriber made before the failover hears a cancel request published after it.
      await cancellation.request('job-after-failover', 'the test');
      const heardDeadline = Date.now() + 10_000;
      while (!cancelled.includes('job-after-failover') && Date.now() < heardDeadline) await sleep(50);
      expect(cancelled).toEqual(['job-after-failover']);
      // The worker only met the outage itself (logged once as an outage by Wrench, not as an error per attempt).
      expect(workerErrors.filter((error) => !isConnectionError(error)).map((error) => error.message)).toEqual([]);
      console.info(`failover: the sentinels named the replica ${promotedAfterMs} ms after the kill; ${JOBS_TOTAL} jobs completed once each`);
    } finally {
      await unsubscribe();
      await worker.close();
      await queues.close();
      sessions.close();
      redis.disconnect();
    }
  }, 60_000);
});

function recordRun(current: ThreadSession | null, jobId: string): ThreadSession {
  const now = new Date().toISOString();
  const session = current ?? {
    channel: 'C1',
    threadTs: '1700000000.000100',
    repo: { owner: 'acme', name: 'app' },
    requester: 'U1',
    runs: [],
    createdAt: now,
    updatedAt: now,
  };
  return { ...session, runs: [...session.runs, { jobId, instruction: `run ${jobId}`, requester: 'U1', status: 'done', at: now }] };
}

describe('Redis Sentinel failover from a frozen primary', () => {
  let setup: SentinelSetup;

  beforeAll(async () => {
    setup = await startSentinelSetup();
  }, 30_000);

  afterAll(async () => {
    await setup?.stop();
  });

  it('moves to the promoted replica although the frozen primary never closes its connections', async () => {
    const url = `redis://:${setup.password}@${setup.group}`;
    const options = redisConnectionOptions({ REDIS_URL: url, REDIS_SENTINELS: setup.sentinels, REDIS_SENTINEL_PASSWORD: setup.sentinelPassword });
    const redis = createRedis(url, undefined, 'main', options);
    const prefix = uniqueName('frozen');
    const errors: string[] = [];
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await redis.rpush(`${prefix}:writes`, String(written)).then(
          () => (written += 1),
          (error: Error) => errors.push(error.message),
        );
        await sleep(2);
      }
    })();
    try {
      while (written < 50) await sleep(5);
      setup.freezePrimary();
      await setup.waitForPrimary(setup.replicaPort, 20_000);
      const announcedAt = Date.now();
      const before = written;
      // The write waiting on the frozen primary is sent again to the new one, and the writer goes on.
      while (written < before + 50 && Date.now() - announcedAt < 10_000) await sleep(20);
      writing = false;
      await writer;
      expect(written).toBeGreaterThanOrEqual(before + 50);
      expect(errors).toEqual([]);
      expect(await redis.config('GET', 'port')).toEqual(['port', String(setup.replicaPort)]);
      const held = await setup.node(setup.replicaPort).lrange(`${prefix}:writes`, 0, -1);
      const after = Array.from({ length: written - before }, (_, i) => String(before + i));
      expect(held.slice(-after.length)).toEqual(after);
    } finally {
      writing = false;
      await writer;
      redis.disconnect();
    }
  }, 60_000);
});

import { Worker } from 'bullmq';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/logging/logger.js';
import { createQueues, type Queues } from '../../../src/queue/queues.js';
import { createRedis, isConnectionError } from '../../../src/redis/redis-connection.js';
import { redisConnectionOptions } from '../../../src/redis/redis-options.js';
import { Cancellation } from '../../../src/sessions/cancellation.js';
import type { ThreadSession } from '../../../src/sessions/thread-session.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import { startRedisCluster, type ClusterSetup } from '../../helpers/redis-cluster.js';
import { uniqueName } from '../../helpers/unique-name.js';

const JOBS_BEFORE = 20;
const JOBS_AFTER = 50;
const JOBS_TOTAL = 60;
const PASSWORD = 'cluster-failover-password-0123';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A Redis Cluster of three masters, each with a replica (cluster-node-timeout 2 s). The master serving Wrench's slot
 * is killed (SIGKILL) while a BullMQ worker made by Wrench's factory processes task jobs, each recording itself in a
 * thread session (WATCH/MULTI on a duplicated connection), and while more jobs are added. Its replica is promoted by
 * the cluster; every Wrench connection follows it.
 */
describe('Redis Cluster failover under load', () => {
  let setup: ClusterSetup;

  beforeAll(async () => {
    setup = await startRedisCluster({ auth: { password: PASSWORD }, replicas: 1 });
  }, 40_000);

  afterAll(async () => {
    await setup?.stop();
  });

  it("finishes every job exactly once and loses no write when the master of Wrench's slot dies", async () => {
    const options = redisConnectionOptions({ REDIS_URL: setup.url, REDIS_CLUSTER_NODES: setup.nodes.slice(1) });
    const prefix = `{${uniqueName('cfail').toLowerCase()}}`;
    const logLines: string[] = [];
    const logger = createLogger({ level: 'info', destination: new Writable({ write: (chunk, _encoding, done) => done(void logLines.push(String(chunk))) }) });
    const redis = createRedis(setup.url, logger, 'main', options);
    const queues: Queues = createQueues(redis, prefix);
    const sessions = new ThreadSessionStore(redis, prefix);
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
      { connection: createRedis(setup.url, undefined, 'task-worker', options), prefix, concurrency: 2 },
    );
    worker.on('error', (error) => workerErrors.push(error));
    const ids = Array.from({ length: JOBS_TOTAL }, (_, i) => `job-${i}`);
    const add = (id: string) => queues.tasks.add('task', { id } as never, { jobId: id });
    try {
      await queues.tasks.waitUntilReady();
      const slot = Number(await redis.cluster('KEYSLOT', prefix));
      const master = Number((redis as Cluster).slots[slot]?.[0]?.split(':')[1]);
      for (const id of ids.slice(0, JOBS_BEFORE)) await add(id);
      while (runs.size < JOBS_BEFORE / 2) await sleep(10);

      // Redis replicates asynchronously: on this shared machine the replica has been seen 200 ms behind, and what it
      // lacks at the kill is lost (README). A write followed by WAIT on the master's connection brings the replica up
      // to this moment, so the test is about the failover, not about that window.
      await redis.set(`${prefix}:fence`, '1');
      const masterNode = (redis as Cluster).nodes('master').find((node) => node.options.port === master);
      expect(await masterNode?.wait(1, 2000)).toBe(1);
      setup.kill(master);
      const killedAt = Date.now();
      // More work arrives while the cluster notices and promotes: adds wait for the new master, none is refused.
      for (const id of ids.slice(JOBS_BEFORE, JOBS_AFTER)) {
        await add(id);
        await sleep(25);
      }
      const promoted = await setup.waitForMaster(slot, master, 20_000);
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

      // The session holds every job's record once, read through the cluster from the promoted replica.
      expect((redis as Cluster).slots[slot]?.[0]).toBe(`127.0.0.1:${promoted}`);
      const stored = JSON.parse((await redis.get(sessions.key('C1', '1700000000.000100'))) ?? 'null') as ThreadSession;
      expect(stored.runs.map((run) => run.jobId).sort()).toEqual([...ids].sort());
      expect(await redis.zcard(`${prefix}:${queues.tasks.name}:completed`)).toBe(JOBS_TOTAL);

      // The subscriber made before the failover hears a cancel request published after it.
      await cancellation.request('job-after-failover', 'the test');
      const heardDeadline = Date.now() + 10_000;
      while (!cancelled.includes('job-after-failover') && Date.now() < heardDeadline) await sleep(50);
      expect(cancelled).toEqual(['job-after-failover']);
      expect(workerErrors.filter((error) => !isConnectionError(error)).map((error) => error.message)).toEqual([]);
      // The main connection logged the dead master once, and once that its slots moved; nothing per retry.
      const about = (text: string) => logLines.filter((line) => line.includes(text)).map((line) => JSON.parse(line) as { node: string; level: number });
      expect(about('Redis Cluster node not answering')).toEqual([expect.objectContaining({ node: `127.0.0.1:${master}`, level: 40 })]);
      expect(about('Redis Cluster node no longer serves slots')).toEqual([expect.objectContaining({ node: `127.0.0.1:${master}`, level: 30 })]);
      console.info(`cluster failover: the replica served slot ${slot} ${promotedAfterMs} ms after the kill; ${JOBS_TOTAL} jobs completed once each`);
    } finally {
      await unsubscribe();
      await worker.close();
      await queues.close();
      sessions.close();
      redis.disconnect();
    }
  }, 90_000);
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

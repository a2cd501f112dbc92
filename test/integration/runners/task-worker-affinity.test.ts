import { PassThrough } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunnerDeps } from '../../../runners/runner-deps.js';
import { startTaskWorker, type TaskWorker } from '../../../runners/task-worker.js';
import { createLogger } from '../../../src/logging/logger.js';
import { HostAffinity } from '../../../src/queue/host-affinity.js';
import { createQueues, type Queues } from '../../../src/queue/queues.js';
import { RunSlots } from '../../../src/queue/run-slots.js';
import type { TaskJob } from '../../../src/queue/task-job.js';
import { redisKeys } from '../../../src/redis/redis-keys.js';
import type { RunReporter } from '../../../src/reporting/run-result.js';
import { SteeringInbox } from '../../../src/sessions/steering-inbox.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import type { ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

/**
 * The run as the pipeline runs it: the `prepare` stage opens the workspace (mirror and tree ready), then the job works
 * until the test lets it end (its gate).
 */
const gates = vi.hoisted(() => ({ byJob: new Map<string, Promise<void>>() }));
vi.mock('../../../runners/run-task.js', () => ({
  runTask: async (job: TaskJob, context: { jobId: string; onStage?: (event: object) => void }) => {
    const event = { jobId: context.jobId, kind: 'change', stage: 'prepare', at: Date.now() };
    context.onStage?.({ ...event, status: 'started' });
    context.onStage?.({ ...event, status: 'finished' });
    await gates.byJob.get(context.jobId);
    return { status: 'answered', repository: `${job.repo.owner}/${job.repo.name}`, instruction: job.instruction, filesChanged: [], durationMs: 1 };
  },
}));

/**
 * Two task workers as two hosts (host ids h0 and h1, each its own HostAffinity) on one real Redis and one queue: a host
 * is warm for a repository once a job's workspace is open there, not once the job ends, and a job of that repository
 * picked by the other host while the warm one is busy waits for it when the other host has other jobs to take.
 */
describe('task workers on two hosts: warm once the workspace is ready', () => {
  let server: RedisServer;
  let redis: Redis;
  let queues: Queues;
  let prefix: string;
  const workers: TaskWorker[] = [];
  const affinities: HostAffinity[] = [];
  const placed: Array<{ host: string; jobId: string; warm: boolean; heldBackMs: number }> = [];
  const release = new Map<string, () => void>();

  const startHost = async (host: string) => {
    const affinity = new HostAffinity({ redis, prefix, host, concurrency: 1, boundMs: 30_000, retryMs: 100, ttlMs: 5000 });
    await affinity.start();
    affinities.push(affinity);
    const destination = new PassThrough();
    destination.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as { msg: string; host: string; jobId: string; warm: boolean; heldBackMs: number };
        if (entry.msg === 'job placed') placed.push({ host: entry.host, jobId: entry.jobId, warm: entry.warm, heldBackMs: entry.heldBackMs });
      }
    });
    const reporter: RunReporter = { phase: async () => undefined, finished: async () => undefined, failed: async () => undefined };
    workers.push(
      await startTaskWorker(
        {
          connection: redis,
          redis,
          prefix,
          concurrency: 1,
          queue: queues.tasks,
          sessions: new ThreadSessionStore(redis, prefix),
          steering: new SteeringInbox(redis, prefix),
          slots: new RunSlots(redis, prefix, { global: 10, perRepository: 10, perUser: 10 }),
          queueingGraceMs: 1000,
          outbox: { post: async () => undefined } as unknown as ThreadOutbox,
          reporterFor: async () => ({ reporter }),
          affinity,
        },
        { logger: createLogger({ level: 'info', destination }), config: { env: { WRENCH_MIN_FREE_MB: 0 } } } as unknown as RunnerDeps,
      ),
    );
  };

  /** Adds a job of `repo`; with `gated`, it runs until `release` is called for it. */
  const add = async (jobId: string, repo: string, gated = false) => {
    if (gated) gates.byJob.set(jobId, new Promise<void>((resolve) => release.set(jobId, resolve)));
    const job: TaskJob = {
      kind: 'task',
      origin: { type: 'slack', channel: 'C0AFF', threadTs: `${jobId}.1`, messageTs: `${jobId}.1` },
      repo: { owner: 'acme', name: repo },
      instruction: `work ${jobId}`,
      category: 'bug-fixing',
      complexity: 'simple',
      elements: {},
      language: 'en',
      requester: { slackUserId: 'U1' },
      requestedAt: new Date().toISOString(),
    };
    await queues.tasks.add('task', job, { jobId });
  };
  const state = (jobId: string) => queues.tasks.getJobState(jobId);
  const placedFor = (jobId: string) => placed.filter((p) => p.jobId === jobId);

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    prefix = uniqueName('affw');
    queues = createQueues(redis, prefix);
  });
  afterAll(async () => {
    for (const resolve of release.values()) resolve();
    await Promise.all(workers.map((w) => w.close(1000)));
    await Promise.all(affinities.map((a) => a.stop()));
    await queues?.close();
    redis?.disconnect();
    await server?.stop();
  });

  it("advertises a repository while its first job still runs, and the other host's pick of a later job waits for the warm host", async () => {
    await startHost('h0');
    await add('a1', 'alpha', true);
    // a1 runs on h0 (the only host) and has not ended: h0 is already advertised warm for alpha.
    await expect.poll(() => redis.zscore(redisKeys(prefix).affinity.warm('acme/alpha'), 'h0'), { timeout: 20_000, interval: 50 }).not.toBeNull();
    expect(await state('a1')).toBe('active');
    expect(placedFor('a1')).toEqual([{ host: 'h0', jobId: 'a1', warm: false, heldBackMs: 0 }]);

    // A burst while h0 is busy: alpha again, then two beta jobs. h1 starts and picks a2 first (FIFO).
    await add('a2', 'alpha');
    await add('b1', 'beta', true);
    await add('b2', 'beta');
    await startHost('h1');
    // h1 gave a2 back (alpha is warm on h0, and b1 waits) and took b1, which it runs (warm for beta from its prepare).
    await expect.poll(() => placedFor('b1'), { timeout: 20_000, interval: 50 }).toEqual([{ host: 'h1', jobId: 'b1', warm: false, heldBackMs: 0 }]);
    expect(placedFor('a2')).toEqual([]);
    expect(await state('a2')).not.toBe('active');

    // h0 ends a1 and takes a2 warm (b2 it gives back: beta is warm on h1, and a2 waits).
    release.get('a1')!();
    await expect.poll(() => state('a2'), { timeout: 20_000, interval: 50 }).toBe('completed');
    const [a2] = placedFor('a2');
    expect(a2).toMatchObject({ host: 'h0', warm: true });
    expect(a2!.heldBackMs).toBeGreaterThan(0);
    release.get('b1')!();
    await expect.poll(() => state('b2'), { timeout: 20_000, interval: 50 }).toBe('completed');
  });
  it('a job given back for the busy warm host is the next one that host takes, before jobs queued after it', async () => {
    // Two new hosts alone on the queue: h2 runs g1 (gamma) while it is the only host, then h3 starts and runs d1 (delta).
    await Promise.all(workers.map((w) => w.close(1000)));
    await Promise.all(affinities.map((a) => a.stop()));
    await startHost('h2');
    await add('g1', 'gamma', true);
    await expect.poll(() => placedFor('g1'), { timeout: 20_000, interval: 50 }).toMatchObject([{ host: 'h2' }]);
    await expect.poll(() => redis.zscore(redisKeys(prefix).affinity.warm('acme/gamma'), 'h2'), { timeout: 20_000, interval: 50 }).not.toBeNull();
    await add('d1', 'delta', true);
    await startHost('h3');
    await expect.poll(() => placedFor('d1'), { timeout: 20_000, interval: 50 }).toMatchObject([{ host: 'h3' }]);

    // Both busy. g2 is first in the queue, then d2 and d3.
    await add('g2', 'gamma', true);
    await add('d2', 'delta', true);
    await add('d3', 'delta');
    // h3 ends d1 and picks g2: cold, gamma's warm host busy, other work waiting: given back; it takes d2.
    release.get('d1')!();
    await expect.poll(() => placedFor('d2'), { timeout: 20_000, interval: 50 }).toMatchObject([{ host: 'h3', warm: true }]);
    expect(placedFor('g2')).toEqual([]);
    expect((await queues.tasks.getJob('g2'))?.data.affinitySince).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 500));

    // h2 ends g1: the next job it takes is g2, where g2 was, not d3 (queued after it), which no host has picked.
    release.get('g1')!();
    await expect.poll(() => placedFor('g2'), { timeout: 20_000, interval: 50 }).toMatchObject([{ host: 'h2', warm: true }]);
    expect((await queues.tasks.getJob('d3'))?.data.affinitySince).toBeUndefined();
    expect(await state('d3')).toBe('waiting');
    // One job g2, kept under its id: placed once, and it ends.
    release.get('g2')!();
    await expect.poll(() => state('g2'), { timeout: 20_000, interval: 50 }).toBe('completed');
    expect(placedFor('g2')).toHaveLength(1);
    release.get('d2')!();
    await expect.poll(() => state('d3'), { timeout: 20_000, interval: 50 }).toBe('completed');
  });
});

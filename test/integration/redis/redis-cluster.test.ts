import { Queue, Worker } from 'bullmq';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkRedis } from '../../../app/cli/doctor-checks.js';
import { startQueueWorker } from '../../../runners/queue-worker.js';
import { envSchema } from '../../../src/config/env-options.js';
import type { Config } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createQueues } from '../../../src/queue/queues.js';
import { ModelBudget, ModelBudgetSpent } from '../../../src/agent/model-budget.js';
import { RunSlots } from '../../../src/queue/run-slots.js';
import { createRedis, duplicateConnection, type RedisClient } from '../../../src/redis/redis-connection.js';
import { redisConnectionOptions, type RedisConnectionOptions, type RedisEnv } from '../../../src/redis/redis-options.js';
import { Cancellation, RunCancelled } from '../../../src/sessions/cancellation.js';
import { AgentSurfaces, readRefusals } from '../../../src/slack/agent-surfaces.js';
import { createRedactor } from '../../../src/security/redact.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import { outboxSlackClient, ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { UpdateRateLimiter } from '../../../src/slack/update-rate-limiter.js';
import { pollFor } from '../../fakes/shared/wait-for.js';
import { startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import { freePort } from '../../helpers/free-port.js';
import { startRedisCluster, type ClusterSetup } from '../../helpers/redis-cluster.js';
import { startRedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const PASSWORD = 'cluster-password-0123456789';
const silent = createLogger({ level: 'silent' });

async function eventually<T>(find: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() >= deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A hash-tagged prefix whose slot a master other than `node` serves: a connection to that node alone gets MOVED. */
async function prefixAwayFrom(cluster: RedisClient, node: { port: number }, name: string): Promise<string> {
  for (;;) {
    const prefix = `{${uniqueName(name).toLowerCase()}}`;
    const owner = (cluster as Cluster).slots[Number(await cluster.cluster('KEYSLOT', prefix))]?.[0];
    if (owner && owner !== `127.0.0.1:${node.port}`) return prefix;
  }
}

/**
 * Wrench on a real Redis Cluster of three masters whose nodes speak TLS only and require an ACL user (the default user
 * is off), configured as Wrench is: REDIS_URL (one node, the user, password and rediss://), REDIS_CLUSTER_NODES (the
 * others) and WRENCH_REDIS_CA_FILE. Every connection made through Wrench's factory is an ioredis Cluster; with a
 * hash-tagged WRENCH_QUEUE_PREFIX (`{name}`) every key is in one slot, so BullMQ and each of Wrench's scripts run.
 */
describe('Wrench on a Redis Cluster (three masters, ACL user, TLS)', () => {
  let setup: ClusterSetup;
  let slack: SlackFake;
  let env: RedisEnv;
  let options: RedisConnectionOptions;
  let cluster: RedisClient;

  beforeAll(async () => {
    [setup, slack] = await Promise.all([startRedisCluster({ auth: { user: 'wrench', password: PASSWORD }, tls: true }), startSlackFake()]);
    env = { REDIS_URL: setup.url, REDIS_CLUSTER_NODES: setup.nodes.slice(1), WRENCH_REDIS_CA_FILE: setup.caFile };
    options = redisConnectionOptions(env);
    cluster = createRedis(setup.url, undefined, 'main', options);
  }, 30_000);

  afterAll(async () => {
    cluster?.disconnect();
    await Promise.all([setup?.stop(), slack?.stop()]);
  });

  it("runs 40 jobs through Wrench's queue and worker exactly once, every connection a Cluster", async () => {
    // Not on REDIS_URL's node: a queue, worker or blocking connection to that node alone would be refused (MOVED).
    const prefix = await prefixAwayFrom(cluster, setup.nodes[0] ?? { port: 0 }, 'jobs');
    const queues = createQueues(cluster, prefix, silent);
    const runs = new Map<number, number>();
    const worker = await startQueueWorker({
      queue: queues.tasks.name,
      schema: z.object({ n: z.number() }),
      process: async (_job, data) => {
        runs.set(data.n, (runs.get(data.n) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return data.n;
      },
      connection: createRedis(setup.url, undefined, 'task-worker', options),
      redis: cluster,
      prefix,
      logger: silent,
      concurrency: 4,
    });
    try {
      expect(cluster).toBeInstanceOf(Cluster);
      expect(duplicateConnection(cluster)).toBeInstanceOf(Cluster);
      for (let n = 0; n < 40; n += 1) await queues.tasks.add('task', { n } as never, { jobId: `job-${n}` });
      const counts = await eventually(
        async () => {
          const found = await queues.tasks.getJobCounts('completed', 'failed', 'active', 'wait');
          return (found.completed ?? 0) + (found.failed ?? 0) === 40 ? found : undefined;
        },
        20_000,
        '40 jobs to finish',
      );
      expect(counts).toMatchObject({ completed: 40, failed: 0, active: 0, wait: 0 });
      expect([...runs.keys()].sort((a, b) => a - b)).toEqual([...Array(40).keys()]);
      expect([...runs.values()].every((times) => times === 1)).toBe(true);
    } finally {
      await worker.close(1000);
      await queues.close();
    }
  });

  it('delivers a cancel request (pub/sub) from another connection to the running job', async () => {
    const prefix = await prefixAwayFrom(cluster, setup.nodes[0] ?? { port: 0 }, 'cancel');
    const queues = createQueues(cluster, prefix, silent);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const worker = await startQueueWorker({
      queue: queues.tasks.name,
      schema: z.object({}),
      process: async (_job, _data, context) => {
        started();
        return await new Promise<string>((_resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('not cancelled within 10 s')), 10_000);
          context.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(context.signal.reason);
          });
        });
      },
      connection: createRedis(setup.url, undefined, 'task-worker', options),
      redis: cluster,
      prefix,
      logger: silent,
      workerOptions: { removeOnFail: { count: 10 } },
    });
    const other = createRedis(setup.url, undefined, 'web', options);
    try {
      const job = await queues.tasks.add('task', {} as never, { jobId: 'long', attempts: 1 });
      await running;
      await new Cancellation(other, prefix).request('long', '<@U1>');
      const reason = await eventually(
        async () => ((await job.getState()) === 'failed' ? (await queues.tasks.getJob('long'))?.failedReason : undefined),
        10_000,
        'the job to fail',
      );
      expect(reason).toBe(new RunCancelled('<@U1>').message);
    } finally {
      other.disconnect();
      await worker.close(1000);
      await queues.close();
    }
  });

  it('reads keys by SCAN on every master: doctor finds the refusals of prefixes whose slots are on each of the three', async () => {
    // One prefix per master (its hash tag's slot served there): SCAN sent to any one node would miss two of them.
    const owners = new Map<string, string>();
    for (let i = 0; owners.size < 3 && i < 200; i += 1) {
      const prefix = `{${uniqueName('scan').toLowerCase()}}`;
      const slot = Number(await cluster.cluster('KEYSLOT', prefix));
      const owner = (cluster as Cluster).slots[slot]?.[0] ?? '';
      if (![...owners.values()].includes(owner)) owners.set(prefix, owner);
    }
    expect(owners.size).toBe(3);
    for (const prefix of owners.keys()) {
      await new AgentSurfaces(cluster, prefix).rememberRefusal('T1', 'chat.startStream', 'not_allowed');
      expect(await readRefusals(cluster, prefix)).toEqual([{ team: 'T1', method: 'chat.startStream', error: 'not_allowed' }]);
    }
  });

  it('accepts a lowercase hash tag as WRENCH_QUEUE_PREFIX and refuses other braces', () => {
    expect(envSchema.parse({ WRENCH_QUEUE_PREFIX: '{wrench}' }).WRENCH_QUEUE_PREFIX).toBe('{wrench}');
    for (const bad of ['{Wrench}', 'wr{ench}', '{wrench', '{}']) {
      const result = envSchema.safeParse({ WRENCH_QUEUE_PREFIX: bad });
      expect(result.error?.issues[0]?.message, bad).toMatch(/^WRENCH_QUEUE_PREFIX must be .* a lowercase Redis Cluster hash tag in braces/);
    }
  });

  it('runs BullMQ, the run slots, the update limiter, the outbox and thread sessions with every key in one slot', async () => {
    const prefix = `{${uniqueName('cluster').toLowerCase()}}`;
    const redis = cluster;
    const queue = new Queue('tasks', { connection: cluster, prefix });
    let processed!: (data: unknown) => void;
    const done = new Promise((resolve) => (processed = resolve));
    const worker = new Worker('tasks', async (job) => processed(job.data), { connection: duplicateConnection(cluster), prefix });
    const outbox = new ThreadOutbox(redis, prefix, outboxSlackClient('xoxb-cluster', slack.apiUrl), createRedactor([]), createLogger({ level: 'silent' }), {
      pollMs: 20,
    });
    outbox.start();
    const sessions = new ThreadSessionStore(redis, prefix);
    try {
      await queue.add('task', { n: 1 });
      expect(await done).toEqual({ n: 1 });

      const slots = new RunSlots(redis, prefix, { global: 1, perRepository: 1, perUser: 1 });
      expect(await slots.acquire({ jobId: 'a', thread: 'C1:1.0', repository: 'acme/app', user: 'U1' })).toBe('ok');
      expect(await slots.acquire({ jobId: 'b', thread: 'C1:2.0', repository: 'acme/web', user: 'U2' })).toBe('global');
      await slots.release({ jobId: 'a', thread: 'C1:1.0', repository: 'acme/app', user: 'U1' });

      const limiter = new UpdateRateLimiter(redis, prefix, 1);
      expect(await limiter.tryTake('T1')).toBe(0);
      expect(await limiter.tryTake('T1')).toBeGreaterThan(0);

      const budget = new ModelBudget(redis, prefix, { requestsPerMinute: 1, inputTokensPerMinute: 0, outputTokensPerMinute: 0, maxWaitSeconds: 60 });
      const first = await budget.reserve('claude-x', { inputTokens: 10, outputTokens: 10 });
      await budget.settle('claude-x', first.member, { inputTokens: 5, outputTokens: 3 });
      await expect(budget.reserve('claude-x', { inputTokens: 10, outputTokens: 10 }, { maxWaitMs: 100 })).rejects.toBeInstanceOf(ModelBudgetSpent);
      await budget.learn('claude-x', new Headers({ 'anthropic-ratelimit-requests-limit': '50', 'retry-after': '1' }), 429);
      expect(await budget.learnt('claude-x')).toMatchObject({ requests: 50, pausedUntil: expect.any(Number) });

      const thread = { channel: 'C0CLU', threadTs: '1700000000.000200' };
      await outbox.post(thread, { text: 'Queued' }, 'status:job-1');
      await outbox.update(thread, 'status:job-1', { text: 'Done' });
      await outbox.post(thread, { text: 'Reply' });
      const texts = () => slack.messages(thread.channel, thread.threadTs).map((m) => m.text);
      expect(
        await pollFor(
          () => (texts().length === 2 && texts()[0] === 'Done' ? texts() : undefined),
          10_000,
          () => JSON.stringify(texts()),
        ),
      ).toEqual(['Done', 'Reply']);

      const now = new Date().toISOString();
      await sessions.update('C1', '1.0', () => ({
        channel: 'C1',
        threadTs: '1.0',
        repo: { owner: 'acme', name: 'app' },
        requester: 'U1',
        pullRequest: { number: 7, url: 'https://github.com/acme/app/pull/7' },
        runs: [],
        createdAt: now,
        updatedAt: now,
      }));
      expect(await sessions.threadOfPullRequest('acme', 'app', 7)).toEqual({ channel: 'C1', threadTs: '1.0' });

      // Everything Wrench and BullMQ wrote is on one master, in one slot.
      const tag = prefix.slice(1, -1);
      const owner = (await Promise.all((cluster as Cluster).nodes('master').map(async (node) => ({ node, keys: await node.keys(`{${tag}}*`) })))).filter(
        (found) => found.keys.length > 0,
      );
      expect(owner).toHaveLength(1);
      const keys = owner[0]?.keys ?? [];
      expect(keys).toEqual(
        expect.arrayContaining([`${prefix}:tasks:meta`, `${prefix}:tasks:completed`, sessions.key('C1', '1.0'), sessions.pullRequestKey('acme', 'app', 7)]),
      );
      expect(keys.filter((key) => key.includes(':outbox'))).not.toEqual([]);
      expect(keys).toEqual(expect.arrayContaining([`${prefix}:model-budget:claude-x:window`, `${prefix}:model-budget:claude-x:state`]));
      const slotsOfKeys = new Set(await Promise.all(keys.map((key) => owner[0]?.node.cluster('KEYSLOT', key))));
      expect(slotsOfKeys.size).toBe(1);
    } finally {
      await outbox.stop();
      sessions.close();
      await worker.close();
      await queue.close();
    }
  });

  it("a thread session update that changes nothing leaves no WATCH behind to fail the next one's transaction", async () => {
    const prefix = `{${uniqueName('watch').toLowerCase()}}`;
    const sessions = new ThreadSessionStore(cluster, prefix);
    const other = createRedis(setup.url, undefined, 'other', options);
    const session = (threadTs: string, requester: string) => ({
      channel: 'C1',
      threadTs,
      repo: { owner: 'acme', name: 'app' },
      requester,
      runs: [],
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    });
    try {
      await sessions.update('C1', '1.0', () => session('1.0', 'U1'));
      // Several rounds: a keyless UNWATCH sent to one random master of three would miss the WATCH in most of them.
      for (let round = 0; round < 6; round += 1) {
        await sessions.update('C1', '1.0', () => null);
        await other.set(sessions.key('C1', '1.0'), JSON.stringify(session('1.0', `U${round}`)));
        let attempts = 0;
        await sessions.update('C1', '2.0', () => {
          attempts += 1;
          return session('2.0', 'U2');
        });
        expect(attempts, `round ${round}`).toBe(1);
      }
    } finally {
      other.disconnect();
      sessions.close();
    }
  });

  it('is refused by the cluster without the hash tag: the scripts touch keys of several slots', async () => {
    const slots = new RunSlots(cluster, uniqueName('plain'), { global: 1, perRepository: 1, perUser: 1 });
    await expect(slots.acquire({ jobId: 'a', thread: 'C1:1.0', repository: 'acme/app', user: 'U1' })).rejects.toThrow(/CROSSSLOT/);
    const budget = new ModelBudget(cluster, uniqueName('plain'), {
      requestsPerMinute: 1,
      inputTokensPerMinute: 0,
      outputTokensPerMinute: 0,
      maxWaitSeconds: 60,
    });
    await expect(budget.reserve('claude-x', { inputTokens: 1, outputTokens: 1 })).rejects.toThrow(/CROSSSLOT/);
  });

  it('doctor checks the cluster REDIS_URL and REDIS_CLUSTER_NODES name, and says what is wrong when it cannot use it', async () => {
    const config = (overrides: Partial<RedisEnv>, prefix = '{wrench}') => ({ env: { WRENCH_QUEUE_PREFIX: prefix, ...env, ...overrides } }) as unknown as Config;
    const slot = Number(await cluster.cluster('KEYSLOT', '{wrench}'));
    const owner = (cluster as Cluster).slots[slot]?.[0];
    const shown = `the Redis Cluster of ${setup.url.replace(PASSWORD, '***')}, ${setup.nodes
      .slice(1)
      .map((node) => `127.0.0.1:${node.port}`)
      .join(', ')}`;
    expect(await checkRedis(config({}))).toEqual({
      name: 'Redis',
      ok: true,
      detail: `${shown} answers: cluster_state:ok, 3 masters; Wrench's keys ({wrench}) are in slot ${slot} on ${owner}, and refuses clients without its password`,
    });

    const wrongPassword = await checkRedis(config({ REDIS_URL: setup.url.replace(PASSWORD, 'not-the-password') }));
    expect(wrongPassword).toMatchObject({ ok: false, fix: "Check REDIS_URL's user and password: every node of the cluster is asked with them" });
    expect(wrongPassword.detail).toMatch(/WRONGPASS/);
    expect(wrongPassword.detail).not.toContain('not-the-password');

    const dead = await freePort();
    const down = await checkRedis(
      config({ REDIS_URL: `rediss://wrench:${PASSWORD}@127.0.0.1:${dead}`, REDIS_CLUSTER_NODES: [{ host: '127.0.0.1', port: dead }] }),
    );
    expect(down).toMatchObject({ ok: false, fix: 'Start the cluster, or fix REDIS_URL and REDIS_CLUSTER_NODES (host:port of nodes of the cluster)' });
    expect(down.detail).toBe(`the Redis Cluster of rediss://wrench:***@127.0.0.1:${dead}, 127.0.0.1:${dead}: 127.0.0.1:${dead} (connection refused)`);

    // REDIS_CLUSTER_NODES naming a standalone Redis.
    const standalone = await startRedisServer();
    const plain = new URL(standalone.url);
    const notCluster = await checkRedis(
      config({ REDIS_URL: standalone.url, REDIS_CLUSTER_NODES: [{ host: plain.hostname, port: Number(plain.port || 6379) }], WRENCH_REDIS_CA_FILE: undefined }),
    );
    await standalone.stop();
    expect(notCluster).toMatchObject({ ok: false, fix: expect.stringMatching(/^Unset REDIS_CLUSTER_NODES for a standalone Redis/) });
    expect(notCluster.detail).toMatch(/ \(not a cluster node: cluster support disabled\)$/);

    // REDIS_URL at a node, but not configured as a cluster: Wrench would talk to that node alone.
    const single = await checkRedis(config({ REDIS_CLUSTER_NODES: undefined }, 'wrench'));
    expect(single).toMatchObject({
      ok: false,
      detail: `${setup.url.replace(PASSWORD, '***')} is a node of a Redis Cluster, but REDIS_CLUSTER_NODES is not set: Wrench would talk to this node alone, and it refuses the keys of the other nodes' slots (MOVED)`,
      fix: 'Set REDIS_CLUSTER_NODES to more nodes of the cluster (host:port,host:port) and WRENCH_QUEUE_PREFIX to a hash tag ({wrench}), or point REDIS_URL at a standalone Redis',
    });
  });
});

import { Queue, Worker } from 'bullmq';
import { Cluster, type Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRedis } from '../../../app/cli/doctor-checks.js';
import { envSchema } from '../../../src/config/env-options.js';
import type { Config } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/logger.js';
import { RunSlots } from '../../../src/queue/run-slots.js';
import { createRedactor } from '../../../src/security/redact.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import { outboxSlackClient, ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { UpdateRateLimiter } from '../../../src/slack/update-rate-limiter.js';
import { pollFor } from '../../fakes/shared/wait-for.js';
import { startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import { startRedisCluster, type ClusterSetup } from '../../helpers/redis-cluster.js';
import { uniqueName } from '../../helpers/unique-name.js';

/**
 * Wrench's keys and Lua scripts on a real Redis Cluster of three masters: with a hash-tagged WRENCH_QUEUE_PREFIX
 * (`{name}`) every key is in one slot, so BullMQ and each of Wrench's scripts run; without one they are refused.
 * Wrench's stores are typed for a single Redis; a Cluster client answers the same commands, hence the cast.
 */
describe('Redis Cluster with a hash-tagged prefix', () => {
  let setup: ClusterSetup;
  let slack: SlackFake;
  let cluster: Cluster;
  const asRedis = (client: Cluster) => client as unknown as Redis;

  beforeAll(async () => {
    [setup, slack] = await Promise.all([startRedisCluster(), startSlackFake()]);
    cluster = new Cluster(setup.nodes, { redisOptions: { maxRetriesPerRequest: null } });
  }, 30_000);

  afterAll(async () => {
    cluster?.disconnect();
    await Promise.all([setup?.stop(), slack?.stop()]);
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
    const redis = asRedis(cluster);
    const queue = new Queue('tasks', { connection: cluster, prefix });
    let processed!: (data: unknown) => void;
    const done = new Promise((resolve) => (processed = resolve));
    const worker = new Worker('tasks', async (job) => processed(job.data), { connection: cluster.duplicate(), prefix });
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
      const owner = (await Promise.all(cluster.nodes('master').map(async (node) => ({ node, keys: await node.keys(`{${tag}}*`) })))).filter(
        (found) => found.keys.length > 0,
      );
      expect(owner).toHaveLength(1);
      const keys = owner[0]?.keys ?? [];
      expect(keys).toEqual(
        expect.arrayContaining([`${prefix}:tasks:meta`, `${prefix}:tasks:completed`, sessions.key('C1', '1.0'), sessions.pullRequestKey('acme', 'app', 7)]),
      );
      expect(keys.filter((key) => key.includes(':outbox'))).not.toEqual([]);
      const slotsOfKeys = new Set(await Promise.all(keys.map((key) => owner[0]?.node.cluster('KEYSLOT', key))));
      expect(slotsOfKeys.size).toBe(1);
    } finally {
      await outbox.stop();
      sessions.close();
      await worker.close();
      await queue.close();
    }
  });

  it('is refused by the cluster without the hash tag: the scripts touch keys of several slots', async () => {
    const slots = new RunSlots(asRedis(cluster), uniqueName('plain'), { global: 1, perRepository: 1, perUser: 1 });
    await expect(slots.acquire({ jobId: 'a', thread: 'C1:1.0', repository: 'acme/app', user: 'U1' })).rejects.toThrow(/CROSSSLOT/);
  });

  it('doctor says that a REDIS_URL pointing at a cluster node is not something Wrench can use yet', async () => {
    const node = setup.nodes[0];
    const url = `redis://127.0.0.1:${node?.port}`;
    const result = await checkRedis({ env: { WRENCH_QUEUE_PREFIX: 'wrench', REDIS_URL: url } } as unknown as Config);
    expect(result).toMatchObject({
      ok: false,
      detail: `${url} is a node of a Redis Cluster: Wrench connects to one Redis (or the primary Sentinel names), not to a cluster, and this node would refuse the keys of the other nodes' slots (MOVED)`,
      fix: 'Point REDIS_URL at a standalone Redis, or at a Sentinel-watched primary with REDIS_SENTINELS',
    });
  });
});

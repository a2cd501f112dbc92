import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRedis } from '../../../app/cli/doctor-checks.js';
import type { Config } from '../../../src/config/load-config.js';
import { createQueues } from '../../../src/queue/queues.js';
import { createRedis, duplicateConnection } from '../../../src/redis/redis-connection.js';
import { redisConnectionOptions, type RedisEnv } from '../../../src/redis/redis-options.js';
import { freePort } from '../../helpers/free-port.js';
import { startSentinelSetup, type SentinelSetup } from '../../helpers/redis-sentinel.js';
import { uniqueName } from '../../helpers/unique-name.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Redis through Sentinel', () => {
  let setup: SentinelSetup;
  let env: RedisEnv;

  beforeAll(async () => {
    setup = await startSentinelSetup();
    env = { REDIS_URL: `redis://:${setup.password}@${setup.group}`, REDIS_SENTINELS: setup.sentinels, REDIS_SENTINEL_PASSWORD: setup.sentinelPassword };
  }, 30_000);

  afterAll(async () => {
    await setup?.stop();
  });

  it('connects the main connection, its duplicates, queues and BullMQ workers to the primary the sentinels name', async () => {
    const url = env.REDIS_URL ?? '';
    const options = redisConnectionOptions(env);
    const redis = createRedis(url, undefined, 'main', options);
    const copy = duplicateConnection(redis);
    const prefix = uniqueName('sentinel');
    const queues = createQueues(redis, prefix);
    const seen: unknown[] = [];
    let processed!: () => void;
    const done = new Promise<void>((resolve) => (processed = resolve));
    const worker = new Worker(
      queues.tasks.name,
      async (job) => {
        seen.push(job.data);
        processed();
      },
      { connection: createRedis(url, undefined, 'task-worker', options), prefix },
    );
    const primary = setup.node(setup.primaryPort);
    try {
      await redis.set(`${prefix}:main`, 'written');
      await copy.set(`${prefix}:copy`, 'written');
      await queues.tasks.add('task', { n: 1 } as never, { jobId: 'one' });
      await done;
      expect(seen).toEqual([{ n: 1 }]);
      expect(await primary.mget(`${prefix}:main`, `${prefix}:copy`)).toEqual(['written', 'written']);
      expect(await primary.exists(`${prefix}:${queues.tasks.name}:one`)).toBe(1);
      // Each connection is to the primary itself, not to a sentinel.
      expect(await redis.config('GET', 'port')).toEqual(['port', String(setup.primaryPort)]);
      expect(await copy.config('GET', 'port')).toEqual(['port', String(setup.primaryPort)]);
    } finally {
      await worker.close();
      await queues.close();
      copy.disconnect();
      redis.disconnect();
    }
  });

  it('doctor finds the primary through the sentinels, and names what is wrong when it cannot', async () => {
    const config = (overrides: Partial<RedisEnv>) => ({ env: { WRENCH_QUEUE_PREFIX: 'wrench', ...env, ...overrides } }) as unknown as Config;
    const good = await checkRedis(config({}));
    expect(good).toMatchObject({
      ok: true,
      detail: `the primary of "${setup.group}" named by sentinels ${setup.sentinels.map((s) => `127.0.0.1:${s.port}`).join(', ')} answers, and refuses clients without its password`,
    });

    const deadPorts = [await freePort(), await freePort()];
    const unreachable = await checkRedis(config({ REDIS_SENTINELS: deadPorts.map((port) => ({ host: '127.0.0.1', port })) }));
    expect(unreachable.ok).toBe(false);
    expect(unreachable.detail).toBe(
      `none of the sentinels in REDIS_SENTINELS answers: 127.0.0.1:${deadPorts[0]} (connection refused); 127.0.0.1:${deadPorts[1]} (connection refused)`,
    );
    expect(unreachable.fix).toMatch(/Start the sentinels, or fix REDIS_SENTINELS/);

    const wrongGroup = await checkRedis(config({ REDIS_URL: `redis://:${setup.password}@othergroup` }));
    expect(wrongGroup).toMatchObject({ ok: false, detail: expect.stringContaining('know no master group named "othergroup" (REDIS_URL\'s host)') });

    const wrongSentinelPassword = await checkRedis(config({ REDIS_SENTINEL_PASSWORD: 'not-the-password' }));
    expect(wrongSentinelPassword.ok).toBe(false);
    expect(wrongSentinelPassword.detail).toMatch(/^none of the sentinels in REDIS_SENTINELS answers: 127\.0\.0\.1:\d+ \((WRONGPASS|invalid username-password)/);
    expect(wrongSentinelPassword.detail).not.toContain('not-the-password');

    const wrongDataPassword = await checkRedis(config({ REDIS_URL: `redis://:not-the-password@${setup.group}` }));
    expect(wrongDataPassword.ok).toBe(false);
    expect(wrongDataPassword.detail).toMatch(/WRONGPASS|invalid username-password/);
  });

  it('follows a manual SENTINEL FAILOVER (the old primary demoted, not dead) as soon as the sentinels announce it', async () => {
    const url = env.REDIS_URL ?? '';
    const redis = createRedis(url, undefined, 'main', redisConnectionOptions(env));
    const prefix = uniqueName('switch');
    const errors: string[] = [];
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await redis.rpush(`${prefix}:writes`, String(written)).then(
          () => (written += 1),
          (error: Error) => errors.push(error.message),
        );
        await sleep(1);
      }
    })();
    const sentinel = new Redis({ ...(setup.sentinels[0] ?? {}), password: setup.sentinelPassword });
    const port = async () => ((await redis.config('GET', 'port')) as string[])[1];
    try {
      while (written < 50) await sleep(5);
      expect(await sentinel.call('SENTINEL', 'FAILOVER', setup.group)).toBe('OK');
      await setup.waitForPrimary(setup.replicaPort, 20_000);
      // The old primary is alive and still takes writes until the sentinels demote it (their next look at it, seconds
      // later); the connection moves when a sentinel publishes +switch-master.
      const announcedAt = Date.now();
      while (Date.now() - announcedAt < 5000 && (await port()) !== String(setup.replicaPort)) await sleep(20);
      const followedAfterMs = Date.now() - announcedAt;
      expect(await port()).toBe(String(setup.replicaPort));
      expect(followedAfterMs).toBeLessThan(2000);
      const followedAt = written;
      while (written < followedAt + 50) await sleep(5);
      writing = false;
      await writer;
      expect(errors).toEqual([]);
      // Every write from then on is on the promoted replica. (Writes the old primary took between the replica's
      // promotion and the announcement are lost when it resyncs: Sentinel's own property, see README.)
      const held = await setup.node(setup.replicaPort).lrange(`${prefix}:writes`, 0, -1);
      const after = Array.from({ length: written - followedAt }, (_, i) => String(followedAt + i));
      expect(held.slice(-after.length)).toEqual(after);
    } finally {
      writing = false;
      await writer;
      sentinel.disconnect();
      redis.disconnect();
    }
  }, 40_000);
});

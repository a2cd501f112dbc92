import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostAffinity } from '../../../src/queue/host-affinity.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

describe('HostAffinity: which worker holds a repository warm, with room, in Redis', () => {
  let server: RedisServer;
  let redis: Redis;

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  const pair = (prefix: string, now: () => number, boundMs = 2000) => {
    const options = { redis, prefix, concurrency: 1, boundMs, ttlMs: 5000, now };
    return { warm: new HostAffinity({ ...options, host: 'warm' }), cold: new HostAffinity({ ...options, host: 'cold' }) };
  };

  it('holds a job back for a live warm worker with room, never longer than the bound', async () => {
    let clock = 1_000_000;
    const { warm, cold } = pair(uniqueName('aff'), () => clock);
    await warm.start(['acme/web']);
    await cold.start();
    expect(await cold.warmElsewhere('acme/web')).toEqual([{ host: 'warm', room: 1 }]);
    expect(await warm.holdBack('acme/web', undefined)).toBeUndefined();
    expect(await cold.holdBack('acme/other', undefined)).toBeUndefined();
    const since = await cold.holdBack('acme/web', undefined);
    expect(since).toBe(clock);
    clock += 1999;
    expect(await cold.holdBack('acme/web', since)).toBe(since);
    clock += 1;
    expect(await cold.holdBack('acme/web', since)).toBeUndefined();
    await Promise.all([warm.stop(), cold.stop()]);
  });

  it('holds a job back for a busy warm worker only while this one has other jobs to take; never for one whose heartbeat expired or that stopped', async () => {
    let clock = 2_000_000;
    const prefix = uniqueName('aff');
    const { warm, cold } = pair(prefix, () => clock);
    await warm.start(['acme/web']);
    await cold.start();
    await warm.occupy(1);
    expect(await cold.warmElsewhere('acme/web')).toEqual([{ host: 'warm', room: 0 }]);
    expect(await cold.holdBack('acme/web', undefined)).toBeUndefined();
    expect(await cold.holdBack('acme/web', undefined, async () => false)).toBeUndefined();
    expect(await cold.holdBack('acme/web', undefined, async () => true)).toBe(clock);
    // Still bounded: past the bound it runs here, other work or not.
    expect(await cold.holdBack('acme/web', clock - 2000, async () => true)).toBeUndefined();
    // Not asked when no warm worker lives.
    expect(await cold.holdBack('acme/none', undefined, async () => true)).toBeUndefined();
    await warm.occupy(-1);
    expect(await cold.holdBack('acme/web', undefined)).toBe(clock);
    // Dead (no heartbeat for the ttl): the sorted set's score is past.
    clock += 5001;
    expect(await cold.warmElsewhere('acme/web')).toEqual([]);
    clock -= 5001;
    await warm.stop();
    expect(await cold.warmElsewhere('acme/web')).toEqual([]);
    // A repository that ran here becomes warm here.
    await cold.markWarm('acme/next');
    expect(cold.holds('acme/next')).toBe(true);
    expect(await redis.zscore(`${prefix}:affinity:warm:acme/next`, 'cold')).toBe(String(clock + 5000));
    await cold.stop();
  });

  it("a repository's warm set expires with the last heartbeat naming it: repositories no worker runs leave no key behind", async () => {
    const prefix = uniqueName('aff');
    const { warm } = pair(prefix, Date.now);
    await warm.start(['acme/web']);
    await warm.markWarm('acme/next');
    for (const repository of ['acme/web', 'acme/next']) {
      const ttl = await redis.pttl(`${prefix}:affinity:warm:${repository}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(5000);
    }
    await warm.stop();
  });

  it('is off with a bound of 0', async () => {
    const { warm, cold } = pair(uniqueName('aff'), Date.now, 0);
    await warm.start(['acme/web']);
    expect(await cold.holdBack('acme/web', undefined)).toBeUndefined();
    await warm.stop();
  });
});

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
    await warm.occupy('job-1');
    expect(await cold.warmElsewhere('acme/web')).toEqual([{ host: 'warm', room: 0 }]);
    expect(await cold.holdBack('acme/web', undefined)).toBeUndefined();
    expect(await cold.holdBack('acme/web', undefined, async () => false)).toBeUndefined();
    expect(await cold.holdBack('acme/web', undefined, async () => true)).toBe(clock);
    // Still bounded: past the bound it runs here, other work or not.
    expect(await cold.holdBack('acme/web', clock - 2000, async () => true)).toBeUndefined();
    // Not asked when no warm worker lives.
    expect(await cold.holdBack('acme/none', undefined, async () => true)).toBeUndefined();
    await warm.release('job-1');
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

  it('past the bound, goes on holding a job back only while the busy warm worker should free a slot within the bound by its typical job time, never past five bounds', async () => {
    let clock = 3_000_000;
    const prefix = uniqueName('aff');
    const { warm, cold } = pair(prefix, () => clock);
    await warm.start(['acme/web']);
    await cold.start();
    const other = async () => true;
    const beat = async () => {
      await warm.stop(); // a heartbeat at the moved clock
      await warm.start(['acme/web']);
    };
    // No job finished on the warm worker yet: no typical time, so the bound alone counts.
    await warm.occupy('job-1');
    expect((await cold.warmElsewhere('acme/web'))[0]).toEqual({ host: 'warm', room: 0 });
    expect(await cold.holdBack('acme/web', clock - 2000, other)).toBeUndefined();
    await warm.release('job-1');
    // Its jobs take 3 s (the median of its last ones, outliers aside).
    for (const [i, ms] of [3000, 3000, 60_000].entries()) {
      await warm.occupy(`done-${i}`);
      clock += ms;
      await warm.release(`done-${i}`);
    }
    await beat();
    await warm.occupy('job-2');
    const started = clock;
    expect(await redis.get(`${prefix}:affinity:frees:warm`)).toBe(String(started + 3000));
    expect((await cold.warmElsewhere('acme/web'))[0]).toEqual({ host: 'warm', room: 0, freesAt: started + 3000 });
    // Held since 2.5 s (past the 2 s bound); the warm worker frees in 0.5 s: held on. Without other work here: runs here.
    clock = started + 2500;
    expect(await cold.holdBack('acme/web', started, other)).toBe(started);
    expect(await cold.holdBack('acme/web', started, async () => false)).toBeUndefined();
    // Late by up to the bound: held on; later than that: runs here.
    clock = started + 3000 + 2000;
    expect(await cold.holdBack('acme/web', started, other)).toBe(started);
    clock += 1;
    expect(await cold.holdBack('acme/web', started, other)).toBeUndefined();
    // Expected to free only in 2.5 s (more than the bound away): runs here.
    await warm.release('job-2');
    await warm.occupy('job-3');
    const third = clock;
    clock = third + 500;
    expect(await cold.holdBack('acme/web', third - 2000, other)).toBeUndefined();
    // Within 2 s of freeing: held on, but never past five bounds in all.
    clock = third + 1500;
    await beat();
    expect(await cold.holdBack('acme/web', third - 2000, other)).toBe(third - 2000);
    expect(await cold.holdBack('acme/web', clock - 10_000, other)).toBeUndefined();
    // With a free slot again, the key is gone and the bound alone counts.
    await warm.release('job-3');
    expect(await redis.exists(`${prefix}:affinity:frees:warm`)).toBe(0);
    expect(await cold.holdBack('acme/web', clock - 2000, other)).toBeUndefined();
    await Promise.all([warm.stop(), cold.stop()]);
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

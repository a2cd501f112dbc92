import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisKeys } from '../../../src/redis/redis-keys.js';
import type { ThreadSession } from '../../../src/sessions/thread-session.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const DAY = 24 * 3600;
const THREADS = 50;

const session = (threadTs: string, pull: number): ThreadSession => ({
  channel: 'C1',
  threadTs,
  repo: { owner: 'acme', name: 'web' },
  requester: 'U1',
  branch: `wrench/change-${pull}`,
  pullRequest: { number: pull, url: `https://github.com/acme/web/pull/${pull}` },
  runs: [],
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
});

describe('thread sessions expire WRENCH_THREAD_RETENTION_DAYS after their last change', () => {
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

  /** Every key the store wrote, with its time to live in seconds. */
  async function ttls(prefix: string): Promise<number[]> {
    const keys = await redis.keys(`${prefix}:*`);
    return Promise.all(keys.map((key) => redis.ttl(key)));
  }

  it('gives every session, pull request and branch key (and a closed thread kept for reopening) the configured retention', async () => {
    const prefix = uniqueName('retention');
    const store = new ThreadSessionStore(redis, prefix, { retentionDays: 7 });
    for (let i = 0; i < THREADS; i++) await store.update('C1', `1700000000.${String(i).padStart(6, '0')}`, () => session(`1700000000.${i}`, i + 1));
    await store.end('C1', '1700000000.000000', { reopenable: true });
    const kept = await ttls(prefix);
    // 49 live threads with a session, a pull request key and a branch key; the ended one as its closed copy and pull request.
    expect(kept).toHaveLength(3 * (THREADS - 1) + 2);
    for (const ttl of kept) {
      expect(ttl).toBeGreaterThan(7 * DAY - 60);
      expect(ttl).toBeLessThanOrEqual(7 * DAY);
    }
    expect(await redis.exists(redisKeys(prefix).closedThreadSession('C1', '1700000000.000000'))).toBe(1);
    store.close();
  });

  it('keeps them 90 days by default', async () => {
    const prefix = uniqueName('retention-default');
    const store = new ThreadSessionStore(redis, prefix);
    await store.update('C1', '1700000000.000001', () => session('1700000000.000001', 1));
    const kept = await ttls(prefix);
    expect(kept).toHaveLength(3);
    for (const ttl of kept) expect(ttl).toBeGreaterThan(89 * DAY);
    store.close();
  });
});

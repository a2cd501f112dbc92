import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRedis } from '../../../app/cli/doctor-checks.js';
import type { Config } from '../../../src/config/load-config.js';
import { createRedis } from '../../../src/redis/redis-connection.js';
import { redisTlsOptions } from '../../../src/redis/redis-tls.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { startSecureRedis, type SecureRedis } from '../../helpers/secure-redis.js';
import { uniqueName } from '../../helpers/unique-name.js';

const ONE_TRY = { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 3000 } as const;

/** Connects once with these options and runs `use`, always disconnecting; rejects with the connection's own error. */
async function once<T>(url: string, options: object, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { ...options, ...ONE_TRY });
  let connectionError: unknown;
  redis.on('error', (error) => (connectionError ??= error));
  try {
    await redis.connect().catch((error: unknown) => {
      throw connectionError ?? error;
    });
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

describe('Redis with a password and with TLS', () => {
  let secure: SecureRedis;
  let open: RedisServer;

  beforeAll(async () => {
    [secure, open] = await Promise.all([startSecureRedis(), startRedisServer()]);
  });

  afterAll(async () => {
    await Promise.all([secure?.stop(), open?.stop()]);
  });

  it('refuses a client without the password, and takes redis://:pw@ and redis://default:pw@ URLs', async () => {
    const anonymous = `redis://127.0.0.1:${secure.port}`;
    await expect(once(anonymous, {}, (redis) => redis.set('wrench:forged', 'job'))).rejects.toThrow(/NOAUTH/);
    const redis = createRedis(secure.url);
    const named = createRedis(`redis://default:${secure.password}@127.0.0.1:${secure.port}`);
    try {
      expect(await redis.set('wrench:ok', '1')).toBe('OK');
      expect(await named.get('wrench:ok')).toBe('1');
    } finally {
      redis.disconnect();
      named.disconnect();
    }
  });

  it('speaks TLS to rediss:// trusting WRENCH_REDIS_CA_FILE, for plain connections and BullMQ queues and workers alike', async () => {
    const options = redisTlsOptions({ REDIS_URL: secure.tlsUrl, WRENCH_REDIS_CA_FILE: secure.caFile });
    const connection = createRedis(secure.tlsUrl, undefined, 'tls-test', options);
    const prefix = uniqueName('tls');
    const queue = new Queue('tls-jobs', { connection, prefix });
    const seen: unknown[] = [];
    let processed!: () => void;
    const done = new Promise<void>((resolve) => (processed = resolve));
    const worker = new Worker(
      'tls-jobs',
      async (job) => {
        seen.push(job.data);
        processed();
      },
      { connection: createRedis(secure.tlsUrl, undefined, 'tls-worker', options), prefix },
    );
    try {
      expect(await connection.set('wrench:tls', 'yes')).toBe('OK');
      await queue.add('one', { n: 1 });
      await done;
      expect(seen).toEqual([{ n: 1 }]);
    } finally {
      await worker.close();
      await queue.close();
      connection.disconnect();
    }
  });

  it('refuses a TLS server whose certificate another CA signed, and says what is wrong with a CA setting', async () => {
    const wrongCa = redisTlsOptions({ REDIS_URL: secure.tlsUrl, WRENCH_REDIS_CA_FILE: secure.otherCaFile });
    await expect(once(secure.tlsUrl, wrongCa, (redis) => redis.ping())).rejects.toThrow(/certificate|self.signed/i);
    expect(() => redisTlsOptions({ REDIS_URL: secure.url, WRENCH_REDIS_CA_FILE: secure.caFile })).toThrow(/does not start with rediss:\/\//);
    expect(() => redisTlsOptions({ REDIS_URL: secure.tlsUrl, WRENCH_REDIS_CA_FILE: '/nonexistent/ca.pem' })).toThrow(/cannot be read \(ENOENT\)/);
    expect(() => redisTlsOptions({ REDIS_URL: secure.tlsUrl, WRENCH_REDIS_CA_FILE: __filename })).toThrow(/not a PEM certificate/);
  });

  it('doctor warns about a Redis that answers without a password, and not about one that requires it', async () => {
    const config = (env: Record<string, string>) => ({ env: { WRENCH_QUEUE_PREFIX: 'wrench', ...env } }) as unknown as Config;
    const openResult = await checkRedis(config({ REDIS_URL: open.url }));
    expect(openResult).toMatchObject({ ok: true, warning: true });
    expect(openResult.detail).toContain('accepts commands from a client that gives no password');

    const guarded = await checkRedis(config({ REDIS_URL: secure.url }));
    expect(guarded).toMatchObject({ ok: true, detail: expect.stringContaining('refuses clients without its password') });
    expect(guarded.warning).toBeUndefined();
    expect(JSON.stringify(guarded)).not.toContain(secure.password);

    const tls = await checkRedis(config({ REDIS_URL: secure.tlsUrl, WRENCH_REDIS_CA_FILE: secure.caFile }));
    expect(tls).toMatchObject({ ok: true, detail: expect.stringContaining('refuses clients without its password') });

    const wrongPassword = await checkRedis(config({ REDIS_URL: `redis://:wrong-password@127.0.0.1:${secure.port}` }));
    expect(wrongPassword.ok).toBe(false);
    expect(wrongPassword.detail).toMatch(/WRONGPASS|invalid username-password/);
    expect(wrongPassword.detail).not.toContain('wrong-password');
  });
});

import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

describe('startRedisServer', () => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis.stop());

  it('answers commands from ioredis', async () => {
    const client = new Redis(redis.url);
    await client.set('greeting', 'hello');
    expect(await client.get('greeting')).toBe('hello');
    client.disconnect();
  });

  it('runs a BullMQ job under a unique prefix', async () => {
    const prefix = uniqueName('wrench-test');
    const connection = { url: redis.url, maxRetriesPerRequest: null };
    const queue = new Queue('tasks', { connection, prefix });
    const worker = new Worker('tasks', async (job) => `done ${job.data.n}`, { connection, prefix });
    try {
      const job = await queue.add('one', { n: 7 });
      const result = await new Promise((resolve) => worker.on('completed', (done, value) => done.id === job.id && resolve(value)));
      expect(result).toBe('done 7');
    } finally {
      await worker.close();
      await queue.close();
    }
  });

  it('gives distinct names', () => {
    expect(uniqueName('q')).not.toBe(uniqueName('q'));
  });
});

describe('startRedisServer lifecycle', () => {
  it('frees its port on stop', async () => {
    if (process.env.REDIS_URL) return;
    const redis = await startRedisServer();
    expect(await portOpen(redis.port)).toBe(true);
    await redis.stop();
    expect(await portOpen(redis.port)).toBe(false);
  });

  it('uses REDIS_URL when set', async () => {
    const previous = process.env.REDIS_URL;
    process.env.REDIS_URL = 'redis://127.0.0.1:6399';
    try {
      const redis = await startRedisServer();
      expect(redis).toMatchObject({ url: 'redis://127.0.0.1:6399', port: 6399 });
      await redis.stop();
    } finally {
      if (previous === undefined) delete process.env.REDIS_URL;
      else process.env.REDIS_URL = previous;
    }
  });
});

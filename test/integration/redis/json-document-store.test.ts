import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { JsonDocumentStore } from '../../../src/redis/json-document-store.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const counter = z.object({ n: z.number() });

describe('JsonDocumentStore on a real Redis', () => {
  let server: RedisServer;
  const connections: Redis[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const c of connections) c.disconnect();
    await server.stop();
  });
  const store = () => {
    const redis = new Redis(server.url);
    connections.push(redis);
    return new JsonDocumentStore(redis, counter, 60);
  };

  it('loses no update when two processes change the same document at once', async () => {
    const key = uniqueName('doc');
    const a = store();
    const b = store();
    const bump = (s: typeof a) => s.update(key, (current) => ({ n: (current?.n ?? 0) + 1 }));
    await Promise.all(Array.from({ length: 40 }, (_, i) => bump(i % 2 ? a : b)));
    expect(await a.get(key)).toEqual({ n: 40 });
    a.close();
    b.close();
  });

  it('leaves the document alone when the change returns null, and rejects invalid documents', async () => {
    const s = store();
    const key = uniqueName('doc');
    await s.update(key, () => ({ n: 1 }));
    expect(await s.update(key, () => null)).toEqual({ n: 1 });
    await expect(s.update(key, () => ({ n: 'x' }) as never)).rejects.toThrow();
    expect(await s.get(key)).toEqual({ n: 1 });
    s.close();
  });
});

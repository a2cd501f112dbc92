import type { RedisClient } from './redis-connection.js';
import type { z } from 'zod';
import { duplicateConnection, unwatch } from './redis-connection.js';

/**
 * JSON documents in Redis, validated with a zod schema and updated atomically with WATCH/MULTI
 * across processes. WATCH is per connection, so updates use their own connection, one at a time
 * in this process.
 */
export class JsonDocumentStore<S extends z.ZodType> {
  private transactions: RedisClient | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly redis: RedisClient,
    private readonly schema: S,
    private readonly ttlSeconds: number,
  ) {}

  close(): void {
    this.transactions?.disconnect();
  }

  async get(key: string): Promise<z.infer<S> | null> {
    const raw = await this.redis.get(key);
    return raw ? this.schema.parse(JSON.parse(raw)) : null;
  }

  /** Reads, changes and writes atomically, retrying when another process wrote in between; `change` returns null to leave it. */
  update(key: string, change: (current: z.infer<S> | null) => z.infer<S> | null): Promise<z.infer<S> | null> {
    const next = this.queue.then(() => this.transact(key, change));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async transact(key: string, change: (current: z.infer<S> | null) => z.infer<S> | null): Promise<z.infer<S> | null> {
    const connection = (this.transactions ??= duplicateConnection(this.redis));
    for (let attempt = 0; attempt < 50; attempt++) {
      // Another process wrote in between: back off a little, with jitter, before reading again.
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 5 * attempt)));
      await connection.watch(key);
      let current: z.infer<S> | null;
      let next: z.infer<S> | null;
      try {
        const raw = await connection.get(key);
        current = raw ? this.schema.parse(JSON.parse(raw)) : null;
        next = change(current ? structuredClone(current) : null);
      } catch (error) {
        await unwatch(connection);
        throw error;
      }
      if (!next) {
        await unwatch(connection);
        return current;
      }
      const written = await connection
        .multi()
        .set(key, JSON.stringify(this.schema.parse(next)), 'EX', this.ttlSeconds)
        .exec();
      if (written) return next;
    }
    throw new Error(`Could not update ${key}: too much contention.`);
  }
}

import type { Redis } from 'ioredis';
import { threadSessionSchema, type ThreadSession } from './thread-session.js';

const TTL_SECONDS = 90 * 24 * 3600;

/** Thread sessions in Redis: one JSON document per thread, updated atomically with WATCH/MULTI. */
export class ThreadSessionStore {
  /** WATCH is per connection: transactions get their own connection, one at a time in this process. */
  private transactions: Redis | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  close(): void {
    this.transactions?.disconnect();
  }

  key(channel: string, threadTs: string): string {
    return `${this.prefix}:thread:${channel}:${threadTs}`;
  }

  async get(channel: string, threadTs: string): Promise<ThreadSession | null> {
    const raw = await this.redis.get(this.key(channel, threadTs));
    return raw ? threadSessionSchema.parse(JSON.parse(raw)) : null;
  }

  /**
   * Reads, changes and writes a session atomically; retried when another process changed it meanwhile.
   * `change` gets null when the thread has no session yet and returns the new value (or null to leave it).
   */
  update(
    channel: string,
    threadTs: string,
    change: (current: ThreadSession | null) => ThreadSession | null,
  ): Promise<ThreadSession | null> {
    const next = this.queue.then(() => this.transact(channel, threadTs, change));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async transact(
    channel: string,
    threadTs: string,
    change: (current: ThreadSession | null) => ThreadSession | null,
  ): Promise<ThreadSession | null> {
    const key = this.key(channel, threadTs);
    const connection = (this.transactions ??= this.redis.duplicate());
    for (let attempt = 0; attempt < 20; attempt++) {
      await connection.watch(key);
      let next: ThreadSession | null;
      let current: ThreadSession | null;
      try {
        const raw = await connection.get(key);
        current = raw ? threadSessionSchema.parse(JSON.parse(raw)) : null;
        next = change(current ? structuredClone(current) : null);
      } catch (error) {
        await connection.unwatch();
        throw error;
      }
      if (!next) {
        await connection.unwatch();
        return current;
      }
      next.updatedAt = new Date().toISOString();
      const result = await connection.multi().set(key, JSON.stringify(threadSessionSchema.parse(next)), 'EX', TTL_SECONDS).exec();
      if (result) return next;
    }
    throw new Error(`Could not update the session of thread ${threadTs}: too much contention.`);
  }
}

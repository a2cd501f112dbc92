import type { Redis } from 'ioredis';
import { JsonDocumentStore } from '../redis/json-document-store.js';
import { threadSessionSchema, type ThreadSession } from './thread-session.js';

const TTL_SECONDS = 90 * 24 * 3600;

/** Thread sessions in Redis: one JSON document per thread, updated atomically across processes. */
export class ThreadSessionStore {
  private readonly documents: JsonDocumentStore<typeof threadSessionSchema>;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.documents = new JsonDocumentStore(redis, threadSessionSchema, TTL_SECONDS);
  }

  close(): void {
    this.documents.close();
  }

  key(channel: string, threadTs: string): string {
    return `${this.prefix}:thread:${channel}:${threadTs}`;
  }

  get(channel: string, threadTs: string): Promise<ThreadSession | null> {
    return this.documents.get(this.key(channel, threadTs));
  }

  /** `change` gets null when the thread has no session yet and returns the new value (or null to leave it). */
  update(channel: string, threadTs: string, change: (current: ThreadSession | null) => ThreadSession | null): Promise<ThreadSession | null> {
    return this.documents.update(this.key(channel, threadTs), (current) => {
      const next = change(current);
      if (next) next.updatedAt = new Date().toISOString();
      return next;
    });
  }
}

import type { Redis } from 'ioredis';
import { redisKeys } from '../redis/redis-keys.js';
import { runSummarySchema, type RunEntry, type RunSummary } from './run-log-types.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Run records in Redis, so the web role on another machine reads what a worker writes: a summary
 * (JSON string), the timeline (a list of JSON entries), and indexes by requester and by time. Every
 * key expires after the retention period; the indexes drop members older than it on each write.
 */
export class RunLogStore {
  private readonly retentionMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    options: { retentionDays: number },
  ) {
    this.retentionMs = options.retentionDays * DAY_MS;
  }

  get retentionSeconds(): number {
    return Math.ceil(this.retentionMs / 1000);
  }

  private key(...parts: string[]): string {
    return redisKeys(this.prefix).runLog(...parts);
  }

  /** Writes the summary and indexes it; `fresh` also empties the timeline (a job's new attempt). */
  async saveSummary(summary: RunSummary, options: { fresh?: boolean } = {}): Promise<void> {
    const ttl = this.retentionSeconds;
    const cutoff = Date.now() - this.retentionMs;
    const multi = this.redis.multi();
    if (options.fresh) multi.del(this.key(summary.id, 'entries'));
    multi.set(this.key(summary.id), JSON.stringify(summary), 'EX', ttl);
    for (const index of [this.key('by-user', summary.requester), this.key('all')]) {
      multi.zadd(index, summary.startedAt, summary.id);
      multi.zremrangebyscore(index, '-inf', cutoff);
      multi.expire(index, ttl);
    }
    await multi.exec();
  }

  async append(id: string, entries: RunEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const key = this.key(id, 'entries');
    await this.redis
      .multi()
      .rpush(key, ...entries.map((entry) => JSON.stringify(entry)))
      .expire(key, this.retentionSeconds)
      .exec();
  }

  async get(id: string): Promise<RunSummary | null> {
    const raw = await this.redis.get(this.key(id));
    if (!raw) return null;
    const parsed = runSummarySchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  }

  /** The timeline from entry `from` on (0: all of it). */
  async entries(id: string, from = 0): Promise<RunEntry[]> {
    const raw = await this.redis.lrange(this.key(id, 'entries'), from, -1);
    return raw.map((line) => JSON.parse(line) as RunEntry);
  }

  /** A person's newest runs first. */
  async recentFor(user: string, limit = 10): Promise<RunSummary[]> {
    const ids = await this.redis.zrevrange(this.key('by-user', user), 0, limit - 1);
    return this.summaries(ids);
  }

  /** Every run started since `sinceMs`, newest first. */
  async startedSince(sinceMs: number, limit = 2000): Promise<RunSummary[]> {
    const ids = await this.redis.zrevrangebyscore(this.key('all'), '+inf', sinceMs, 'LIMIT', 0, limit);
    return this.summaries(ids);
  }

  private async summaries(ids: string[]): Promise<RunSummary[]> {
    if (ids.length === 0) return [];
    const raws = await this.redis.mget(ids.map((id) => this.key(id)));
    return raws.flatMap((raw) => {
      if (!raw) return [];
      const parsed = runSummarySchema.safeParse(JSON.parse(raw));
      return parsed.success ? [parsed.data] : [];
    });
  }
}

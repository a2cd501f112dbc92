import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';
import { runSummarySchema, type RunEntry, type RunSummary } from './run-log-types.js';

const DAY_MS = 24 * 3600 * 1000;

/** Finished runs and their model spend, summed as runs finish; spend in integer micro-dollars so sums are exact. */
export interface RunTotals {
  runs: number;
  failed: number;
  costMicros: number;
  byChannel: Map<string, { runs: number; failed: number; costMicros: number }>;
  byPerson: Map<string, { runs: number; failed: number; costMicros: number }>;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Run records in Redis, so the web role on another machine reads what a worker writes: a summary
 * (JSON string), the timeline (a list of JSON entries), and indexes by requester and by time. Every
 * key expires after the retention period; the indexes drop members older than it on each write.
 */
export class RunLogStore {
  private readonly retentionMs: number;

  constructor(
    private readonly redis: RedisClient,
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
    const user = summary.requester;
    const indexes = [this.key('by-user', user), this.key('all'), this.key('by-user', user, 'repo', summary.repository), this.key('by-user', user, 'repos')];
    const active = this.key('by-user', user, 'active');
    if (summary.status === 'running' || summary.status === 'queued') indexes.push(active);
    else multi.zrem(active, summary.id);
    if (summary.outcome && summary.status !== 'running' && summary.status !== 'queued') indexes.push(this.key('by-user', user, 'outcome', summary.outcome));
    for (const index of indexes) {
      // The person's repositories are indexed by name (their newest run's start), the rest by run id.
      multi.zadd(index, summary.startedAt, index.endsWith(':repos') ? summary.repository : summary.id);
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

  /**
   * Adds a finished run to its UTC day's totals (overall, per channel, per person), once per run id:
   * App Home sums these days instead of reading the runs, so its figures stay exact however many there are.
   */
  async countFinished(summary: RunSummary): Promise<void> {
    const ttl = this.retentionSeconds;
    const first = await this.redis.set(this.key(summary.id, 'counted'), '1', 'EX', ttl, 'NX');
    if (first !== 'OK') return;
    const key = this.key('totals', utcDay(summary.startedAt));
    const micros = Math.round((summary.costUsd ?? 0) * 1e6);
    const failed = summary.outcome === 'failed' ? 1 : 0;
    const multi = this.redis.multi();
    for (const scope of ['all', `channel:${summary.channel ?? ''}`, `person:${summary.requester}`]) {
      multi.hincrby(key, `${scope}:runs`, 1);
      if (failed) multi.hincrby(key, `${scope}:failed`, 1);
      if (micros) multi.hincrby(key, `${scope}:micros`, micros);
    }
    multi.expire(key, ttl);
    await multi.exec();
  }

  /** The totals of the `days` UTC days ending with the one holding `endMs` (7: this week, today included). */
  async totals(endMs: number, days = 7): Promise<RunTotals> {
    const totals: RunTotals = { runs: 0, failed: 0, costMicros: 0, byChannel: new Map(), byPerson: new Map() };
    const multi = this.redis.multi();
    for (let day = 0; day < days; day++) multi.hgetall(this.key('totals', utcDay(endMs - day * DAY_MS)));
    for (const [, hash] of (await multi.exec()) ?? []) {
      for (const [field, raw] of Object.entries(hash as Record<string, string>)) {
        const split = field.lastIndexOf(':');
        const scope = field.slice(0, split);
        const measure = ({ runs: 'runs', failed: 'failed', micros: 'costMicros' } as const)[field.slice(split + 1)];
        if (!measure) continue;
        const value = Number(raw);
        if (scope === 'all') {
          totals[measure] += value;
          continue;
        }
        const [kind, ...rest] = scope.split(':');
        const map = kind === 'channel' ? totals.byChannel : kind === 'person' ? totals.byPerson : undefined;
        if (!map) continue;
        const name = rest.join(':');
        const row = map.get(name) ?? { runs: 0, failed: 0, costMicros: 0 };
        row[measure] += value;
        map.set(name, row);
      }
    }
    return totals;
  }

  /** A person's newest runs first. */
  async recentFor(user: string, limit = 10): Promise<RunSummary[]> {
    const ids = await this.redis.zrevrange(this.key('by-user', user), 0, limit - 1);
    return this.summaries(ids);
  }

  /**
   * One page of a person's runs, newest first, of one repository and/or one outcome when given, and how many match in
   * all. Runs recorded before these indexes existed are only in the unfiltered list.
   */
  async listFor(
    user: string,
    options: { repository?: string; outcome?: string; offset: number; limit: number },
  ): Promise<{ runs: RunSummary[]; total: number }> {
    const filters = [
      options.repository ? this.key('by-user', user, 'repo', options.repository) : undefined,
      options.outcome ? this.key('by-user', user, 'outcome', options.outcome) : undefined,
    ].filter((key): key is string => key !== undefined);
    const [first, second] = filters;
    let index = first ?? this.key('by-user', user);
    if (first && second) {
      index = this.key('by-user', user, 'filtered', randomUUID());
      await this.redis.multi().zinterstore(index, 2, first, second, 'AGGREGATE', 'MAX').expire(index, 60).exec();
    }
    const [total, ids] = await Promise.all([this.redis.zcard(index), this.redis.zrevrange(index, options.offset, options.offset + options.limit - 1)]);
    if (first && second) await this.redis.del(index);
    return { runs: await this.summaries(ids), total };
  }

  /** A person's runs queued or working now, newest first. */
  async activeFor(user: string, limit = 10): Promise<RunSummary[]> {
    const runs = await this.summaries(await this.redis.zrevrange(this.key('by-user', user, 'active'), 0, limit - 1));
    return runs.filter((run) => run.status === 'running' || run.status === 'queued');
  }

  /** The repositories a person has runs in, the most recently used first. */
  async repositoriesOf(user: string, limit = 50): Promise<string[]> {
    return this.redis.zrevrange(this.key('by-user', user, 'repos'), 0, limit - 1);
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

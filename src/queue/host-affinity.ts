import type { ChainableCommander } from 'ioredis';
import type { RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';

export interface HostAffinityOptions {
  redis: RedisClient;
  prefix: string;
  /** This worker's name (WRENCH_HOST_ID, default hostname and process id). */
  host: string;
  /** Task jobs this worker runs at once (limits.concurrency): its room is this minus those running. */
  concurrency: number;
  /**
   * How long a job may wait for a warm worker: counted from when it was first held back, and, past that, how soon a busy
   * warm worker must be expected to free a slot (and how late it may be) for the job to go on waiting; never 5× in all.
   */
  boundMs: number;
  /** How long a held-back job is delayed before it is offered again. @default 250 ms */
  retryMs?: number;
  /** How long a heartbeat holds: a worker that died stops counting as warm after this. @default 5000 ms */
  ttlMs?: number;
  /** @default Date.now */
  now?: () => number;
}

/** The jobs a worker's typical job time is taken from (the median of its last ones). */
const RECENT_JOBS = 5;
/** A held-back job never waits longer than this many bounds in all. */
const MAX_BOUNDS = 5;

/**
 * Jobs of a repository go where its mirror and pooled trees are warm. Each worker advertises in Redis the repositories
 * it holds (a sorted set per repository, scored by heartbeat expiry) as soon as a job's mirror and tree are ready
 * there (`markWarm`), its free task slots (a key expiring with the heartbeat) and, while it has none, when it expects
 * to free one (its running jobs' starts plus its typical job time: the median of its last five). A worker that picks a
 * job of a repository it does not hold gives it back (delayed `retryMs`) while another live worker holds it warm and
 * either has a free slot or is busy while this worker has other jobs waiting to take instead (in a burst a warm worker
 * is always busy), for at most `boundMs` from the first time it gave it back. Past that, it goes on giving back the job
 * only while a busy warm worker should free a slot within `boundMs` from now and is not late by more than `boundMs`
 * (so a job does not run cold a moment before its warm worker frees up), and never past `MAX_BOUNDS` bounds in all.
 * Otherwise (no warm worker alive, the warm ones busy and nothing else waiting here) it runs the job itself.
 * Reads and writes are plain commands on keys under the prefix (one slot with a hash-tagged prefix); the heartbeat is
 * advisory, so a stale one costs at most the bound.
 */
export class HostAffinity {
  readonly host: string;
  readonly boundMs: number;
  readonly retryMs: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly warm = new Set<string>();
  /** Running jobs here, by id: when each started. */
  private readonly running = new Map<string, number>();
  private readonly recentJobMs: number[] = [];
  private timer?: NodeJS.Timeout;

  constructor(private readonly options: HostAffinityOptions) {
    this.host = options.host;
    this.boundMs = options.boundMs;
    this.retryMs = options.retryMs ?? 250;
    this.ttlMs = options.ttlMs ?? 5000;
    this.now = options.now ?? Date.now;
  }

  private get keys() {
    return redisKeys(this.options.prefix).affinity;
  }

  /** Advertises `repositories` (those warm at start) and renews the heartbeat every fifth of its lifetime. */
  async start(repositories: Iterable<string> = []): Promise<void> {
    for (const repository of repositories) this.warm.add(repository);
    await this.heartbeat().catch(() => undefined);
    this.timer = setInterval(() => void this.heartbeat().catch(() => undefined), Math.max(100, this.ttlMs / 5));
    this.timer.unref();
  }

  /** Withdraws this worker: other workers stop holding jobs back for it at once. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    const pipeline = this.options.redis.pipeline();
    for (const repository of this.warm) pipeline.zrem(this.keys.warm(repository), this.host);
    pipeline.del(this.keys.room(this.host), this.keys.frees(this.host));
    await pipeline.exec().catch(() => undefined);
  }

  holds(repository: string): boolean {
    return this.warm.has(repository);
  }

  /** A job of `repository` has its mirror and tree ready here: warm from now on (advertised at once, renewed by the heartbeat). */
  async markWarm(repository: string): Promise<void> {
    if (this.warm.has(repository)) return;
    this.warm.add(repository);
    const warm = this.keys.warm(repository);
    await this.options.redis
      .multi()
      .zadd(warm, this.now() + this.ttlMs, this.host)
      .pexpire(warm, this.ttlMs)
      .exec()
      .catch(() => undefined);
  }

  /** Job `jobId` took one of this worker's slots; the room is said at once. */
  async occupy(jobId: string): Promise<void> {
    this.running.set(jobId, this.now());
    await this.sayRoom(this.options.redis.pipeline())
      .exec()
      .catch(() => undefined);
  }

  /** Job `jobId` gave its slot back; its time counts towards this worker's typical job time. */
  async release(jobId: string): Promise<void> {
    const started = this.running.get(jobId);
    if (started === undefined) return;
    this.running.delete(jobId);
    this.recentJobMs.push(this.now() - started);
    if (this.recentJobMs.length > RECENT_JOBS) this.recentJobMs.shift();
    await this.sayRoom(this.options.redis.pipeline())
      .exec()
      .catch(() => undefined);
  }

  private room(): number {
    return Math.max(0, this.options.concurrency - this.running.size);
  }

  /** When a slot should free here, while none is free: the earliest running job's start plus the typical job time. */
  private freesAt(): number | undefined {
    const sorted = [...this.recentJobMs].sort((a, b) => a - b);
    const typical = sorted[Math.floor(sorted.length / 2)];
    if (this.room() > 0 || typical === undefined) return undefined;
    return Math.min(...this.running.values()) + typical;
  }

  private sayRoom(pipeline: ChainableCommander): ChainableCommander {
    pipeline.set(this.keys.room(this.host), this.room(), 'PX', this.ttlMs);
    const frees = this.freesAt();
    if (frees === undefined) pipeline.del(this.keys.frees(this.host));
    else pipeline.set(this.keys.frees(this.host), frees, 'PX', this.ttlMs);
    return pipeline;
  }

  private async heartbeat(): Promise<void> {
    const expires = this.now() + this.ttlMs;
    const pipeline = this.options.redis.pipeline();
    // The set lives as long as some worker says it holds the repository: a repository no one runs any more goes.
    for (const repository of this.warm) pipeline.zadd(this.keys.warm(repository), expires, this.host).pexpire(this.keys.warm(repository), this.ttlMs);
    await this.sayRoom(pipeline).exec();
  }

  /** The other live workers that hold `repository` warm, each with its free task slots and, when it has none and knows, when it expects to free one. */
  async warmElsewhere(repository: string): Promise<Array<{ host: string; room: number; freesAt?: number }>> {
    const now = this.now();
    const redis = this.options.redis;
    const hosts = (await redis.zrangebyscore(this.keys.warm(repository), now, '+inf')).filter((host) => host !== this.host);
    if (hosts.length === 0) return [];
    const pipeline = redis.pipeline();
    for (const host of hosts) pipeline.get(this.keys.room(host)).get(this.keys.frees(host));
    const replies = (await pipeline.exec()) ?? [];
    // Expired members are dropped now and then, so the set does not grow with every worker that ever ran.
    if (Math.random() < 0.1) await redis.zremrangebyscore(this.keys.warm(repository), '-inf', now).catch(() => undefined);
    return hosts.map((host, i) => {
      const frees = replies[2 * i + 1]?.[1];
      return { host, room: Number(replies[2 * i]?.[1] ?? 0), ...(typeof frees === 'string' ? { freesAt: Number(frees) } : {}) };
    });
  }

  /**
   * Whether a job of `repository` should wait for another worker: `since` is when it was first held back (undefined:
   * never); `otherWorkWaiting` tells whether this worker has other jobs to take meanwhile (asked only when every warm
   * worker is busy). Answers the time to record as `since` when it should, undefined when this worker should run it.
   */
  async holdBack(repository: string, since: number | undefined, otherWorkWaiting: () => Promise<boolean> = async () => false): Promise<number | undefined> {
    if (this.boundMs <= 0 || this.holds(repository)) return undefined;
    const now = this.now();
    const start = since ?? now;
    const held = now - start;
    if (held >= this.boundMs * MAX_BOUNDS) return undefined;
    const hosts = await this.warmElsewhere(repository).catch(() => []);
    if (hosts.length === 0) return undefined;
    if (hosts.some((h) => h.room > 0)) return held < this.boundMs ? start : undefined;
    if (!(await otherWorkWaiting().catch(() => false))) return undefined;
    if (held < this.boundMs) return start;
    const soonest = Math.min(...hosts.map((h) => h.freesAt ?? Number.POSITIVE_INFINITY));
    return soonest - now <= this.boundMs && now - soonest <= this.boundMs ? start : undefined;
  }
}

import type { Result } from 'ioredis';
import type { RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    acquireRunSlots(threadKey: string, globalKey: string, repositoryKey: string, userKey: string, ...args: (string | number)[]): Result<SlotAnswer, Context>;
  }
}

/**
 * Admission for runs across every worker process, atomically in Redis:
 * - one run at a time per thread (its branch): a follow-up waits behind the run going on;
 * - at most `global`, `perRepository` and `perUser` runs at once.
 * Slots are leases (sorted-set scores are expiry times) renewed while the run lives, so a worker that
 * dies frees its slots within `leaseMs`.
 */
const ACQUIRE = `
local now = tonumber(ARGV[2])
local expires = now + tonumber(ARGV[3])
for i = 1, #KEYS do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now) end
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  for i = 1, #KEYS do redis.call('ZADD', KEYS[i], expires, ARGV[1]) end
  return 'ok'
end
if redis.call('ZCARD', KEYS[1]) >= 1 then return 'thread' end
local names = {'thread', 'global', 'repository', 'user'}
for i = 2, #KEYS do
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[2 + i]) then return names[i] end
end
for i = 1, #KEYS do redis.call('ZADD', KEYS[i], expires, ARGV[1]) end
return 'ok'
`;

export interface SlotLimits {
  global: number;
  perRepository: number;
  perUser: number;
}

export interface SlotRequest {
  jobId: string;
  thread: string;
  repository: string;
  user: string;
}

export type SlotAnswer = 'ok' | 'thread' | 'global' | 'repository' | 'user';

export class RunSlots {
  /** `leaseMs` (default 2 min): how long slots outlive a worker that stopped renewing them. `now`: the clock (tests). */
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly limits: SlotLimits,
    private readonly leaseMs = 120_000,
    private readonly now: () => number = Date.now,
  ) {
    // Registered once per connection: later calls send EVALSHA, not the script.
    redis.defineCommand('acquireRunSlots', { numberOfKeys: 4, lua: ACQUIRE });
  }

  private keys(request: SlotRequest): [thread: string, global: string, repository: string, user: string] {
    const slots = redisKeys(this.prefix).runSlots;
    return [slots.thread(request.thread), slots.global, slots.repository(request.repository), slots.user(request.user)];
  }

  /** Takes (or renews) the slots of a run; otherwise says which limit is full. */
  async acquire(request: SlotRequest): Promise<SlotAnswer> {
    const [thread, global, repository, user] = this.keys(request);
    return this.redis.acquireRunSlots(
      thread,
      global,
      repository,
      user,
      request.jobId,
      this.now(),
      this.leaseMs,
      this.limits.global,
      this.limits.perRepository,
      this.limits.perUser,
    );
  }

  async release(request: SlotRequest): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const key of this.keys(request)) pipeline.zrem(key, request.jobId);
    await pipeline.exec();
  }

  /** Renews the lease every third of it until the returned function is called. */
  keepAlive(request: SlotRequest): () => void {
    const timer = setInterval(() => void this.acquire(request).catch(() => undefined), Math.max(1000, this.leaseMs / 3));
    timer.unref();
    return () => clearInterval(timer);
  }
}

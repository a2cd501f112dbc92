import type { Result } from 'ioredis';
import type { RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    takeUpdateSlot(key: string, now: number, perMinute: number, member: string): Result<number, Context>;
  }
}

/**
 * Slack allows about 50 chat.update calls a minute per workspace. Every process asks this shared
 * sliding window in Redis before editing a status message, so many concurrent runs never reach 429.
 */
const TAKE = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 60000)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]) + 60000 - now
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], 61000)
return 0
`;

export class UpdateRateLimiter {
  private counter = 0;

  /** `perMinute` (default 45, under Slack's ~50 chat.update a minute per workspace). `now`: the clock (tests). */
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly perMinute = 45,
    private readonly now: () => number = Date.now,
  ) {
    redis.defineCommand('takeUpdateSlot', { numberOfKeys: 1, lua: TAKE });
  }

  /** Takes a slot now when one is free: returns 0, or how many ms until one frees up. */
  async tryTake(team: string): Promise<number> {
    const now = this.now();
    const member = `${process.pid}:${now}:${this.counter++}`;
    return Number(await this.redis.takeUpdateSlot(redisKeys(this.prefix).slackUpdates(team), now, this.perMinute, member));
  }

  /** Waits for a slot (for final states, which must always be shown). */
  async take(team: string, maxWaitMs = 120_000): Promise<void> {
    const deadline = this.now() + maxWaitMs;
    for (;;) {
      const wait = await this.tryTake(team);
      if (wait <= 0 || this.now() + wait > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait + 10, 5000)));
    }
  }
}

import type { RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';

const DAY = 24 * 3600;

/**
 * Once-only claims in Redis (SET NX) for PagerDuty deliveries: the X-Webhook-Id of a delivery (the
 * same on every retry), the event id, and "this incident is being triaged". Each returns false when
 * another delivery or process got there first.
 */
export class WebhookClaims {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private key(kind: 'delivery' | 'event' | 'incident', id: string): string {
    return redisKeys(this.prefix).pagerDutyClaim(kind, id);
  }

  async claim(kind: 'delivery' | 'event' | 'incident', id: string, ttlSeconds = kind === 'incident' ? 30 * DAY : 7 * DAY): Promise<boolean> {
    return (await this.redis.set(this.key(kind, id), '1', 'EX', ttlSeconds, 'NX')) === 'OK';
  }

  /** Gives claims back when the work could not be queued, so PagerDuty's retry is not mistaken for a duplicate. */
  async release(claims: Array<['delivery' | 'event' | 'incident', string]>): Promise<void> {
    if (claims.length > 0) await this.redis.del(...claims.map(([kind, id]) => this.key(kind, id)));
  }

  async isClaimed(kind: 'delivery' | 'event' | 'incident', id: string): Promise<boolean> {
    return (await this.redis.exists(this.key(kind, id))) === 1;
  }
}

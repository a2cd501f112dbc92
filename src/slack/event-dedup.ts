import type { RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';

/**
 * Claims a Slack event id once across all web processes: Slack redelivers an event when it does not
 * see our acknowledgement in time, and each retry must not start work or reply again.
 */
export async function claimEvent(redis: RedisClient, prefix: string, eventId: string, ttlSeconds = 24 * 3600): Promise<boolean> {
  const result = await redis.set(redisKeys(prefix).slackEvent(eventId), '1', 'EX', ttlSeconds, 'NX');
  return result === 'OK';
}

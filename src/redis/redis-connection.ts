import { Redis } from 'ioredis';

/** A connection fit for BullMQ workers (blocking commands need maxRetriesPerRequest: null). */
export function createRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
}

import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../logging/logger.js';

/**
 * A connection fit for BullMQ workers (blocking commands need maxRetriesPerRequest: null). ioredis
 * reconnects by itself; an outage is logged once when it starts and once when the connection is
 * back, instead of an error for every reconnection attempt (ioredis prints "Unhandled error event"
 * many times a second when nobody listens). `options` adds to what the URL says (TLS options from redis-tls.ts).
 */
export function createRedis(url: string, logger?: Logger, name = 'main', options: RedisOptions = {}): Redis {
  const redis = new Redis(url, { ...options, maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false, connectionName: `wrench-${name}` });
  watchOutages(redis, logger?.child({ component: 'redis', connection: name }));
  return redis;
}

/** Logs the start and the end of each outage of a connection (also for BullMQ's duplicates of it). */
export function watchOutages(redis: Redis, log?: Logger): void {
  let downSince: number | undefined;
  let lastError: string | undefined;
  // Without an 'error' listener ioredis prints every failed attempt; the message is kept for the log line.
  redis.on('error', (error: Error) => {
    lastError = error.message;
  });
  redis.on('reconnecting', (delayMs: number) => {
    log?.debug({ delayMs, error: lastError }, 'Redis reconnection attempt');
    if (downSince !== undefined) return;
    downSince = Date.now();
    log?.warn({ error: lastError }, 'Redis connection lost; reconnecting in the background');
  });
  redis.on('ready', () => {
    if (downSince === undefined) return;
    log?.info({ downForMs: Date.now() - downSince }, 'Redis connection restored');
    downSince = undefined;
    lastError = undefined;
  });
}

/** A second connection to the same Redis (transactions, subscriptions) that reconnects as quietly as its original. */
export function duplicateConnection(redis: Redis): Redis {
  const copy = redis.duplicate();
  watchOutages(copy);
  return copy;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * Whether an error only says that Redis cannot be reached (already logged once per outage by
 * watchOutages), as opposed to a real failure worth its own log line.
 */
export function isConnectionError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  return (
    typeof message === 'string' &&
    /Connection is closed|connect ECONNREFUSED|Stream isn't writeable|ECONNRESET|max retries per request|All sentinels are unreachable/i.test(message)
  );
}

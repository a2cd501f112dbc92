import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { Logger } from '../logging/logger.js';
import type { RedisConnectionOptions } from './redis-options.js';

/** A connection to Wrench's Redis: one server (or the primary Sentinel names), or a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/**
 * A connection to `url` with `options` (redisConnectionOptions): with `clusterNodes` an ioredis Cluster starting from
 * those nodes, whose every node connection takes the URL's user, password and `rediss://` (TLS with the options' CA),
 * else a Redis. Not connected yet when `lazyConnect` is set.
 */
export function openRedis(url: string, options: RedisConnectionOptions): RedisClient {
  const { clusterNodes, clusterOptions: clusterOverrides, ...redisOptions } = options;
  if (!clusterNodes?.length) return new Redis(url, redisOptions);
  const { retryStrategy, enableOfflineQueue, lazyConnect, enableReadyCheck, ...nodeOptions } = redisOptions;
  const parsed = new URL(url);
  const clusterOptions: ClusterOptions = {
    ...(lazyConnect === undefined ? {} : { lazyConnect }),
    ...(enableReadyCheck === undefined ? {} : { enableReadyCheck }),
    ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
    ...(retryStrategy === undefined ? {} : { clusterRetryStrategy: retryStrategy }),
    // Node names as the cluster gives them: a TLS certificate is checked against the name, not an address it resolves to.
    dnsLookup: (address, callback) => callback(null, address),
    // While a master is down and until the cluster promotes its replica (cluster-node-timeout, 15 s by default, and
    // the vote), its slots answer CLUSTERDOWN or point at the dead node: a command waits and tries again for about
    // 30 s (100 tries, 300 ms apart) instead of failing after ioredis's 16 tries 100 ms apart.
    maxRedirections: 100,
    retryDelayOnFailover: 300,
    retryDelayOnClusterDown: 300,
    retryDelayOnTryAgain: 300,
    ...clusterOverrides,
    redisOptions: {
      ...nodeOptions,
      ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
      ...(parsed.protocol === 'rediss:' ? { tls: nodeOptions.tls ?? {} } : {}),
    },
  };
  return new Cluster(clusterNodes, clusterOptions);
}

/**
 * A connection fit for BullMQ workers (blocking commands need maxRetriesPerRequest: null). ioredis
 * reconnects by itself; an outage is logged once when it starts and once when the connection is
 * back, instead of an error for every reconnection attempt (ioredis prints "Unhandled error event"
 * many times a second when nobody listens). `options` adds to what the URL says (TLS options from redis-tls.ts).
 */
export function createRedis(url: string, logger?: Logger, name = 'main', options: RedisConnectionOptions = {}): RedisClient {
  const redis = openRedis(url, { ...options, maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false, connectionName: `wrench-${name}` });
  watchOutages(redis, logger?.child({ component: 'redis', connection: name }));
  return redis;
}

/** Logs the start and the end of each outage of a connection (also for BullMQ's duplicates of it). */
export function watchOutages(redis: RedisClient, log?: Logger): void {
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
  if (redis instanceof Cluster) watchClusterNodes(redis, log);
  redis.on('ready', () => {
    if (downSince === undefined) return;
    log?.info({ downForMs: Date.now() - downSince }, 'Redis connection restored');
    downSince = undefined;
    lastError = undefined;
  });
}

/**
 * A cluster connection's nodes: one warning when a node stops answering (ioredis tries it again every few hundred
 * milliseconds until the cluster promotes its replica), and one line when it is no longer a master (its slots moved)
 * or answers again.
 */
function watchClusterNodes(cluster: Cluster, log?: Logger): void {
  const down = new Map<string, number>();
  const nodeKey = (node: Redis) => `${node.options.host}:${node.options.port}`;
  cluster.on('node error', (error: Error, key: string) => {
    if (down.has(key)) return;
    down.set(key, Date.now());
    log?.warn(
      { node: key, error: error.message },
      'Redis Cluster node not answering; commands for its slots wait for it or for the replica the cluster promotes',
    );
  });
  cluster.on('+node', (node: Redis) => {
    const key = nodeKey(node);
    node.once('ready', () => {
      const since = down.get(key);
      if (since === undefined) return;
      down.delete(key);
      log?.info({ node: key, downForMs: Date.now() - since }, 'Redis Cluster node answers again');
    });
  });
  cluster.on('refresh', () => {
    const masters = new Set(cluster.nodes('master').map(nodeKey));
    for (const [key, since] of down) {
      if (masters.has(key)) continue;
      down.delete(key);
      log?.info({ node: key, downForMs: Date.now() - since }, 'Redis Cluster node no longer serves slots: the cluster moved them (a replica promoted)');
    }
  });
}

/** A second connection to the same Redis (transactions, subscriptions) that reconnects as quietly as its original. */
export function duplicateConnection(redis: RedisClient, override: Pick<RedisOptions, 'maxRetriesPerRequest'> = {}): RedisClient {
  // A Cluster's copy starts from the same nodes; its node connections take the original's options and the override.
  const copy =
    redis instanceof Cluster ? redis.duplicate(undefined, { redisOptions: { ...redis.options.redisOptions, ...override } }) : redis.duplicate(override);
  watchOutages(copy);
  return copy;
}

/**
 * Forgets the keys this connection WATCHes. A cluster sends a keyless UNWATCH to any one node, which may not be the
 * one holding the WATCH (a later EXEC there would fail for a key no longer of interest): it goes to every master.
 */
export async function unwatch(redis: RedisClient): Promise<void> {
  if (redis instanceof Cluster) await Promise.all(redis.nodes('master').map((node) => node.unwatch()));
  else await redis.unwatch();
}

/**
 * The keys matching `pattern`, up to about `limit`: SCAN on the one server, or on each master of a cluster (a
 * cluster's SCAN only walks the node it is sent to).
 */
export async function scanKeys(redis: RedisClient, pattern: string, limit = Number.POSITIVE_INFINITY): Promise<string[]> {
  const found: string[] = [];
  for (const node of redis instanceof Cluster ? redis.nodes('master') : [redis]) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 100);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0' && found.length < limit);
    if (found.length >= limit) break;
  }
  return found;
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
    /Connection is closed|connect ECONNREFUSED|Stream isn't writeable|ECONNRESET|max retries per request|All sentinels are unreachable|None of startup nodes is available|Failed to refresh slots cache|Cluster isn't ready|CLUSTERDOWN/i.test(
      message,
    )
  );
}

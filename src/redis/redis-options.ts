import type { ClusterOptions, RedisOptions } from 'ioredis';
import { WrenchError } from '../errors.js';
import { redisTlsOptions, type RedisTlsEnv } from './redis-tls.js';
import { ClosingSentinelConnector } from './sentinel-connector.js';

export interface RedisEnv extends RedisTlsEnv {
  REDIS_SENTINELS?: { host: string; port: number }[];
  REDIS_SENTINEL_PASSWORD?: string;
  REDIS_CLUSTER_NODES?: { host: string; port: number }[];
}

/** ioredis's options, and for a Redis Cluster the nodes to start from: connections made with them are ioredis Clusters. */
export interface RedisConnectionOptions extends RedisOptions {
  clusterNodes?: { host: string; port: number }[];
  /** ioredis Cluster options over Wrench's (src/redis/redis-connection.ts openRedis), e.g. fewer retries for a check. */
  clusterOptions?: Partial<ClusterOptions>;
}

/**
 * The ioredis options every Wrench connection adds to REDIS_URL (createRedis, and through it BullMQ's queues, its
 * workers' blocking connections and every duplicate). With REDIS_SENTINELS, the sentinels name the primary and
 * REDIS_URL's host is the master group's name (`redis://:PASSWORD@mymaster`): its user, password, database and
 * `rediss://` apply to the data nodes, REDIS_SENTINEL_PASSWORD to the sentinels.
 */
export function redisConnectionOptions(env: RedisEnv): RedisConnectionOptions {
  const tls = redisTlsOptions(env);
  if (env.REDIS_CLUSTER_NODES?.length) {
    if (env.REDIS_SENTINELS?.length || env.REDIS_SENTINEL_PASSWORD) {
      throw new WrenchError(
        'redis_cluster_config',
        'REDIS_CLUSTER_NODES and REDIS_SENTINELS are both set; a Redis Cluster fails over by itself: set one of them.',
      );
    }
    return { ...tls, clusterNodes: clusterSeeds(env.REDIS_URL, env.REDIS_CLUSTER_NODES) };
  }
  const sentinels = env.REDIS_SENTINELS;
  if (!sentinels?.length) {
    if (env.REDIS_SENTINEL_PASSWORD) {
      throw new WrenchError(
        'redis_sentinel_config',
        'REDIS_SENTINEL_PASSWORD is set, but REDIS_SENTINELS is not; set REDIS_SENTINELS=host:port,host:port or unset REDIS_SENTINEL_PASSWORD.',
      );
    }
    return tls;
  }
  return { ...tls, ...sentinelOptions(env.REDIS_URL, sentinels, env.REDIS_SENTINEL_PASSWORD) };
}

/**
 * The nodes a Redis Cluster connection starts from: REDIS_URL's (a node of the cluster; its user, password and
 * `rediss://` apply to every node) and REDIS_CLUSTER_NODES's, each once. The cluster names the rest (CLUSTER SLOTS).
 */
function clusterSeeds(url: string | undefined, nodes: { host: string; port: number }[]): { host: string; port: number }[] {
  const example = 'REDIS_URL=redis://:PASSWORD@10.0.0.1:6379';
  if (!url) {
    throw new WrenchError('redis_cluster_config', `REDIS_CLUSTER_NODES is set, so REDIS_URL must be one node of the cluster, with its password (${example}).`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WrenchError('redis_cluster_config', `REDIS_URL is not a URL; with REDIS_CLUSTER_NODES it is one node of the cluster (${example}).`);
  }
  if (parsed.pathname.replace(/^\//, '') !== '' && parsed.pathname !== '/0') {
    throw new WrenchError(
      'redis_cluster_config',
      `REDIS_URL names database ${parsed.pathname.slice(1)}, but a Redis Cluster has only database 0; remove "${parsed.pathname}" from REDIS_URL.`,
    );
  }
  const first = { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || 6379) };
  const seeds = [first, ...nodes];
  return seeds.filter((node, i) => seeds.findIndex((other) => other.host === node.host && other.port === node.port) === i);
}

/** The master group's name from REDIS_URL (its host), checked: a URL with a port names a server, not a group. */
export function sentinelMasterName(url: string | undefined): string {
  const example = 'REDIS_URL=redis://:PASSWORD@mymaster';
  if (!url) {
    throw new WrenchError('redis_sentinel_config', `REDIS_SENTINELS is set, so REDIS_URL must name the master group the sentinels watch (${example}).`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WrenchError('redis_sentinel_config', `REDIS_URL is not a URL; with REDIS_SENTINELS it names the master group (${example}).`);
  }
  if (parsed.port || !/^[A-Za-z0-9_.-]+$/.test(parsed.hostname)) {
    throw new WrenchError(
      'redis_sentinel_config',
      `REDIS_SENTINELS is set, so REDIS_URL's host is the name of the master group the sentinels watch, without a port (${example}); "${parsed.host}" is not a group name.`,
    );
  }
  return parsed.hostname;
}

function sentinelOptions(url: string | undefined, sentinels: { host: string; port: number }[], sentinelPassword: string | undefined): RedisOptions {
  return {
    sentinels,
    name: sentinelMasterName(url),
    ...(sentinelPassword ? { sentinelPassword } : {}),
    // rediss:// in REDIS_URL: TLS to the primary the sentinels name (the sentinels themselves are spoken to in plain TCP).
    ...(url?.startsWith('rediss://') ? { enableTLSForSentinelMode: true } : {}),
    // A sentinel announcing a new primary (+switch-master) makes the connection ask again at once, rather than keep
    // writing to the old primary until it is demoted (what it took then is lost when it resyncs as a replica).
    failoverDetector: true,
    Connector: ClosingSentinelConnector,
    // A primary demoted without dropping its clients answers writes with READONLY: ask the sentinels again, resend.
    reconnectOnError: (error) => (error.message.startsWith('READONLY') ? 2 : false),
  };
}

/** Where Wrench's Redis is, as shown to people (no password). */
export function describeRedis(env: RedisEnv): string {
  const clusterNodes = env.REDIS_CLUSTER_NODES;
  if (clusterNodes?.length && env.REDIS_URL) {
    return `the Redis Cluster of ${withoutPassword(env.REDIS_URL)}, ${clusterNodes.map((s) => `${s.host}:${s.port}`).join(', ')}`;
  }
  const sentinels = env.REDIS_SENTINELS;
  if (sentinels?.length && env.REDIS_URL) {
    let name: string;
    try {
      name = new URL(env.REDIS_URL).hostname;
    } catch {
      name = withoutPassword(env.REDIS_URL);
    }
    return `the primary of "${name}" named by sentinels ${sentinels.map((s) => `${s.host}:${s.port}`).join(', ')}`;
  }
  return env.REDIS_URL ? withoutPassword(env.REDIS_URL) : 'the embedded redis-server';
}

/** A Redis URL as shown to people: the password replaced by ***. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

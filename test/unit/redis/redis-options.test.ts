import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../../src/config/env-options.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { describeRedis, redisConnectionOptions } from '../../../src/redis/redis-options.js';

const parseEnv = (env: Record<string, string>) => envSchema.safeParse(env);

describe('Redis Sentinel settings', () => {
  it('reads REDIS_SENTINELS as host:port entries and refuses anything else, naming the variable and the entry', () => {
    const good = parseEnv({ REDIS_SENTINELS: ' 10.0.0.1:26379, sentinel-b.internal:26380,[::1]:26381 ' });
    expect(good.success && good.data.REDIS_SENTINELS).toEqual([
      { host: '10.0.0.1', port: 26379 },
      { host: 'sentinel-b.internal', port: 26380 },
      { host: '::1', port: 26381 },
    ]);
    for (const bad of ['10.0.0.1', '10.0.0.1:26379,host', 'host:0', 'host:70000', 'redis://host:26379']) {
      const result = parseEnv({ REDIS_SENTINELS: bad });
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/^REDIS_SENTINELS must be host:port entries/);
    }
    expect(parseEnv({ REDIS_SENTINELS: '' }).data?.REDIS_SENTINELS).toBeUndefined();
  });

  it('takes the master group from REDIS_URL and its password for the data nodes, the sentinel password for the sentinels', () => {
    const sentinels = [{ host: '10.0.0.1', port: 26379 }];
    const options = redisConnectionOptions({ REDIS_URL: 'redis://:data-pw@mymaster/2', REDIS_SENTINELS: sentinels, REDIS_SENTINEL_PASSWORD: 'sentinel-pw' });
    expect(options).toMatchObject({ sentinels, name: 'mymaster', sentinelPassword: 'sentinel-pw' });
    expect(options.enableTLSForSentinelMode).toBeUndefined();
    // A demoted primary's READONLY answer: reconnect through the sentinels and send the command again (2); nothing else.
    expect(options.reconnectOnError?.(new Error("READONLY You can't write against a read only replica."))).toBe(2);
    expect(options.reconnectOnError?.(new Error('WRONGTYPE Operation against a key holding the wrong kind of value'))).toBe(false);
    expect(describeRedis({ REDIS_URL: 'redis://:pa ss@bad host', REDIS_SENTINELS: sentinels })).not.toContain('pa ss');
    expect(redisConnectionOptions({ REDIS_URL: 'rediss://:pw@mymaster', REDIS_SENTINELS: sentinels }).enableTLSForSentinelMode).toBe(true);
    expect(redisConnectionOptions({ REDIS_URL: 'redis://:pw@10.0.0.9:6379' })).toEqual({});
    expect(describeRedis({ REDIS_URL: 'redis://:data-pw@mymaster', REDIS_SENTINELS: sentinels })).toBe(
      'the primary of "mymaster" named by sentinels 10.0.0.1:26379',
    );
  });

  it('refuses a Sentinel setup it cannot use, naming the variable to fix', () => {
    const sentinels = [{ host: '10.0.0.1', port: 26379 }];
    expect(() => redisConnectionOptions({ REDIS_SENTINELS: sentinels })).toThrow(/REDIS_SENTINELS is set, so REDIS_URL must name the master group/);
    expect(() => redisConnectionOptions({ REDIS_URL: 'redis://:pw@10.0.0.9:6379', REDIS_SENTINELS: sentinels })).toThrow(
      /REDIS_URL's host is the name of the master group the sentinels watch, without a port .*"10\.0\.0\.9:6379" is not a group name/,
    );
    expect(() => redisConnectionOptions({ REDIS_URL: 'redis://:pw@host:6379', REDIS_SENTINEL_PASSWORD: 'x' })).toThrow(
      /REDIS_SENTINEL_PASSWORD is set, but REDIS_SENTINELS is not/,
    );
  });
});

describe('Redis Cluster settings', () => {
  const others = [
    { host: '10.0.0.2', port: 6379 },
    { host: '10.0.0.3', port: 6380 },
  ];

  it('reads REDIS_CLUSTER_NODES as host:port entries and refuses anything else, naming the variable and the entry', () => {
    expect(parseEnv({ REDIS_CLUSTER_NODES: '10.0.0.2:6379, 10.0.0.3:6380' }).data?.REDIS_CLUSTER_NODES).toEqual(others);
    for (const bad of ['10.0.0.2', 'redis://10.0.0.2:6379', '10.0.0.2:6379,node']) {
      expect(parseEnv({ REDIS_CLUSTER_NODES: bad }).error?.issues[0]?.message, bad).toMatch(
        new RegExp(`^REDIS_CLUSTER_NODES must be host:port entries separated by commas .*"${bad.split(',').at(-1)}" is not`),
      );
    }
  });

  it("starts a cluster connection from REDIS_URL's node and the others, each once; the URL's password is shown as ***", () => {
    const options = redisConnectionOptions({
      REDIS_URL: 'rediss://wrench:pw@10.0.0.1:6379',
      REDIS_CLUSTER_NODES: [...others, { host: '10.0.0.1', port: 6379 }],
    });
    expect(options.clusterNodes).toEqual([{ host: '10.0.0.1', port: 6379 }, ...others]);
    expect(redisConnectionOptions({ REDIS_URL: 'redis://:pw@[::1]/0', REDIS_CLUSTER_NODES: others }).clusterNodes?.[0]).toEqual({ host: '::1', port: 6379 });
    expect(redisConnectionOptions({ REDIS_URL: 'redis://:pw@10.0.0.1:6379' }).clusterNodes).toBeUndefined();
    expect(describeRedis({ REDIS_URL: 'rediss://wrench:pw@10.0.0.1:6379', REDIS_CLUSTER_NODES: others })).toBe(
      'the Redis Cluster of rediss://wrench:***@10.0.0.1:6379, 10.0.0.2:6379, 10.0.0.3:6380',
    );
  });

  it('refuses a cluster setup it cannot use, naming the variable to fix', () => {
    expect(() => redisConnectionOptions({ REDIS_CLUSTER_NODES: others })).toThrow(/REDIS_CLUSTER_NODES is set, so REDIS_URL must be one node of the cluster/);
    expect(() => redisConnectionOptions({ REDIS_URL: 'redis://:pw@10.0.0.1:6379/2', REDIS_CLUSTER_NODES: others })).toThrow(
      /REDIS_URL names database 2, but a Redis Cluster has only database 0/,
    );
    expect(() => redisConnectionOptions({ REDIS_URL: 'redis://:pw@10.0.0.1:6379', REDIS_CLUSTER_NODES: others, REDIS_SENTINELS: others })).toThrow(
      /REDIS_CLUSTER_NODES and REDIS_SENTINELS are both set/,
    );
  });

  it('refuses at config load a cluster without a hash-tagged WRENCH_QUEUE_PREFIX, or without REDIS_URL', () => {
    const env = { REDIS_URL: 'redis://:pw@10.0.0.1:6379', REDIS_CLUSTER_NODES: '10.0.0.2:6379' };
    expect(() => loadConfig(env, tmpdir())).toThrow(
      /^REDIS_CLUSTER_NODES is set, so WRENCH_QUEUE_PREFIX must be a hash tag in braces \(e\.g\. WRENCH_QUEUE_PREFIX=\{wrench\}\), not "wrench"/,
    );
    expect(() => loadConfig({ ...env, WRENCH_QUEUE_PREFIX: 'wrench-prod' }, tmpdir())).toThrow(/not "wrench-prod"/);
    expect(loadConfig({ ...env, WRENCH_QUEUE_PREFIX: '{wrench}' }, tmpdir()).env.REDIS_CLUSTER_NODES).toEqual([{ host: '10.0.0.2', port: 6379 }]);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.2:6379', WRENCH_QUEUE_PREFIX: '{wrench}' }, tmpdir())).toThrow(
      /REDIS_CLUSTER_NODES is set, so REDIS_URL must be one node of the cluster/,
    );
  });
});

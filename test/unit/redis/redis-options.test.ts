import { describe, expect, it } from 'vitest';
import { envSchema } from '../../../src/config/env-options.js';
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

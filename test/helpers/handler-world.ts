import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { WebClient } from '@slack/web-api';
import { Redis } from 'ioredis';
import { createHandlerDeps, type HandlerDeps } from '../../handlers/handler-deps.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createLogger } from '../../src/logging/logger.js';
import { createQueues } from '../../src/queue/queues.js';
import type { RedisClient } from '../../src/redis/redis-connection.js';
import { createRedactor } from '../../src/security/redact.js';
import { ThreadSessionStore } from '../../src/sessions/thread-session-store.js';
import { SlackNameDirectory } from '../../src/slack/slack-name-directory.js';
import { startSlackFake, type SlackFake } from '../fakes/slack-fake.js';
import { fastOutbox } from './fast-outbox.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { makeTempDir, type TempDir } from './temp-dir.js';
import { uniqueName } from './unique-name.js';

export interface HandlerWorld {
  redisServer: RedisServer;
  redis: Redis;
  slack: SlackFake;
  dir: TempDir;
  /** The handlers' dependencies, channel C0DEV linked to acme/web, the outbox on shrunken timers. */
  deps: HandlerDeps;
  client: WebClient;
  stop(): Promise<void>;
}

/**
 * Handlers as plain functions of (input, deps) against a real Redis and the Slack fake. `connect`: the Redis to use
 * instead of a private redis-server (a Sentinel or Cluster set-up, connected by Wrench's own factory); `prefix` then
 * names the key prefix (a hash-tagged one on a Cluster).
 */
export async function startHandlerWorld(label: string): Promise<HandlerWorld>;
export async function startHandlerWorld(
  label: string,
  options: { connect: () => RedisClient; prefix?: string },
): Promise<Omit<HandlerWorld, 'redis'> & { redis: RedisClient }>;
export async function startHandlerWorld(
  label: string,
  options: { connect?: () => RedisClient; prefix?: string } = {},
): Promise<Omit<HandlerWorld, 'redis'> & { redis: RedisClient }> {
  const [redisServer, slack, dir] = await Promise.all([
    options.connect ? Promise.resolve({ url: '', port: 0, signal: () => false, stop: async () => {} }) : startRedisServer(),
    startSlackFake(),
    makeTempDir(`${label}-`),
  ]);
  const redis = options.connect ? options.connect() : new Redis(redisServer.url, { maxRetriesPerRequest: null });
  const configPath = path.join(dir.path, 'wrench.config.yml');
  writeFileSync(configPath, 'channels:\n  C0DEV: { repo: acme/web }\n');
  const config = loadConfig({ WRENCH_CONFIG: configPath, WRENCH_QUEUE_PREFIX: options.prefix ?? uniqueName(label), WRENCH_DATA_DIR: dir.path }, dir.path);
  const redact = createRedactor([]);
  const client = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  const deps = createHandlerDeps({
    config,
    queues: createQueues(redis, config.env.WRENCH_QUEUE_PREFIX),
    redis,
    sessions: new ThreadSessionStore(redis, config.env.WRENCH_QUEUE_PREFIX),
    redact,
    logger: createLogger({ level: 'silent' }),
    outbox: fastOutbox(redis, config.env.WRENCH_QUEUE_PREFIX, slack.apiUrl, redact, createLogger({ level: 'silent' })),
    names: new SlackNameDirectory(client),
  });
  return {
    redisServer,
    redis,
    slack,
    dir,
    deps,
    client,
    async stop() {
      await deps.outbox?.stop();
      await deps.queues.close();
      redis.disconnect();
      await Promise.all([redisServer.stop(), slack.stop()]);
      await dir.remove();
    },
  };
}

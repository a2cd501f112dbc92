import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startAnthropicFake, type AnthropicFake } from '../fakes/anthropic-fake.js';
import { startGitHubFake, type GitHubFake, type GitHubFakeOptions } from '../fakes/github-fake.js';
import { startSlackFake, type SlackFake } from '../fakes/slack-fake.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { uniqueName } from '../helpers/unique-name.js';
import { startWrench, type WrenchProcess } from '../helpers/wrench-process.js';

export const SIGNING_SECRET = 'e2e-signing-secret-0123456789';
export const BOT_TOKEN = 'xoxb-e2e-0000000000-abcdefghijklmnop';
export const GITHUB_TOKEN = 'ghp_e2eE2Ee2eE2Ee2eE2Ee2eE2Ee2eE2Ee2eE2';
export const ANTHROPIC_KEY = 'sk-ant-e2e-key-abcdefghijklmnopqrstuvwxyz';

/** Everything an end-to-end test needs: the fakes, a Redis, a config file, and Wrench started on them. */
export interface E2eWorld {
  slack: SlackFake;
  anthropic: AnthropicFake;
  github: GitHubFake;
  redis: RedisServer;
  dir: TempDir;
  env: Record<string, string>;
  wrench?: WrenchProcess;
  /** `bin`: another build's `dist/bin/wrench.js` (a benchmark's baseline); default this checkout's. */
  start(extraEnv?: Record<string, string>, bin?: string): Promise<WrenchProcess>;
  eventsUrl(): string;
  stop(): Promise<void>;
}

export async function createE2eWorld(configYaml: string, options: { github?: GitHubFakeOptions } = {}): Promise<E2eWorld> {
  const [slack, anthropic, github, redis, dir] = await Promise.all([
    startSlackFake(),
    startAnthropicFake(),
    startGitHubFake(options.github),
    startRedisServer(),
    makeTempDir('wrench-e2e-'),
  ]);
  const configPath = path.join(dir.path, 'wrench.config.yml');
  await writeFile(configPath, configYaml);
  const env: Record<string, string> = {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: anthropic.url,
    WRENCH_MODEL: 'claude-sonnet-5-5',
    // The model reader is off unless a test scripts it: the fake plays one script for every request.
    WRENCH_READER_MODEL: 'none',
    GITHUB_TOKEN,
    GITHUB_API_URL: github.url,
    GIT_BASE_URL: github.gitBaseUrl,
    REDIS_URL: redis.url,
    WRENCH_CONFIG: configPath,
    WRENCH_DATA_DIR: path.join(dir.path, 'data'),
    WRENCH_QUEUE_PREFIX: uniqueName('e2e'),
  };
  const world: E2eWorld = {
    slack,
    anthropic,
    github,
    redis,
    dir,
    env,
    async start(extraEnv = {}, bin) {
      world.wrench = await startWrench({ ...env, ...extraEnv }, ['start'], undefined, undefined, bin);
      return world.wrench;
    },
    eventsUrl: () => `${world.wrench!.url}/slack/events`,
    async stop() {
      await world.wrench?.stop();
      await Promise.all([slack.stop(), anthropic.stop(), github.stop(), redis.stop()]);
      await dir.remove();
    },
  };
  return world;
}

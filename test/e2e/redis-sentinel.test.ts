import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicFake, type AnthropicFake } from '../fakes/anthropic-fake.js';
import { startGitHubFake, type GitHubFake } from '../fakes/github-fake.js';
import { appMentionEnvelope, startSlackFake, type SlackFake } from '../fakes/slack-fake.js';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bashStep, createFileStep, finishStep } from './scripted-runs.js';
import { freePort } from '../helpers/free-port.js';
import { startSentinelSetup, type SentinelSetup } from '../helpers/redis-sentinel.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { runWrench, startWrench } from '../helpers/wrench-process.js';
import { waitForTaskQueue } from '../helpers/thread-settled.js';

/** Asks `find` every 100 ms until it gives a value. */
async function until<T>(find: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find().catch(() => undefined);
    if (found !== undefined) return found;
    if (Date.now() >= deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const CONNECTIONS = ['wrench-main', 'wrench-task-worker', 'wrench-triage-worker', 'wrench-github-worker'];

describe('wrench with Redis Sentinel', () => {
  let dir: TempDir;
  let anthropic: AnthropicFake;
  let slack: SlackFake;
  let github: GitHubFake;
  let setup: SentinelSetup;

  beforeAll(async () => {
    [dir, anthropic, slack, github, setup] = await Promise.all([
      makeTempDir('wrench-sentinel-e2e-'),
      startAnthropicFake(),
      startSlackFake({ tokens: ['xoxb-good-token-0000'] }),
      startGitHubFake(),
      startSentinelSetup(),
    ]);
  }, 40_000);

  afterAll(async () => {
    await Promise.all([anthropic?.stop(), slack?.stop(), github?.stop(), setup?.stop()]);
    await dir?.remove();
  });

  const baseEnv = () => ({
    SLACK_BOT_TOKEN: 'xoxb-good-token-0000',
    SLACK_SIGNING_SECRET: 'secret',
    SLACK_API_URL: slack.apiUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-key-000000000000',
    ANTHROPIC_BASE_URL: anthropic.url,
    GITHUB_TOKEN: 'ghp_testtesttesttesttesttesttesttest0000',
    GITHUB_API_URL: github.url,
    WRENCH_DATA_DIR: dir.path,
    REDIS_URL: `redis://:${setup.password}@${setup.group}`,
    REDIS_SENTINELS: setup.sentinels.map((s) => `${s.host}:${s.port}`).join(','),
    REDIS_SENTINEL_PASSWORD: setup.sentinelPassword,
  });

  it('start and doctor name the sentinel setting at fault', async () => {
    const badEntry = await runWrench(['start'], { ...baseEnv(), REDIS_SENTINELS: '127.0.0.1' });
    expect(badEntry.code).toBe(1);
    expect(badEntry.stderr).toContain('REDIS_SENTINELS must be host:port entries separated by commas');

    const serverUrl = await runWrench(['start'], { ...baseEnv(), REDIS_URL: `redis://:${setup.password}@127.0.0.1:${setup.primaryPort}` });
    expect(serverUrl.code).toBe(1);
    expect(serverUrl.stderr).toContain("REDIS_SENTINELS is set, so REDIS_URL's host is the name of the master group the sentinels watch");
    expect(serverUrl.stderr).not.toContain(setup.password);

    const closed = await freePort();
    const doctor = await runWrench(['doctor'], { ...baseEnv(), REDIS_SENTINELS: `127.0.0.1:${closed}` });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`FAIL  Redis: none of the sentinels in REDIS_SENTINELS answers: 127.0.0.1:${closed} (connection refused)`);
    expect(doctor.stdout).toMatch(/fix: Start the sentinels, or fix REDIS_SENTINELS/);
    expect(doctor.stdout + doctor.stderr).not.toMatch(/\n\s+at |Unhandled error event|\[ioredis\]/);
  });

  it('start connects every client to the primary the sentinels name and follows the replica they promote; a run going on when the primary dies answers its thread once', async () => {
    const config = path.join(dir.path, 'wrench.config.yml');
    await writeFile(config, 'channels:\n  C0DEV: { repo: acme/web }\nsandbox: { mode: bwrap }\n');
    await github.createRepo('acme', 'web', { 'README.md': '# web\n' });
    // The agent's first model call is answered 5 s late: the primary is killed while it is under way.
    anthropic.setScript([bashStep('true', 5000), createFileStep('src/after-failover.js', 'export const ok = true;\n'), finishStep('Added a module.')]);
    const wrench = await startWrench({ ...baseEnv(), WRENCH_CONFIG: config, GIT_BASE_URL: github.gitBaseUrl });
    try {
      expect(((await (await fetch(`${wrench.url}/healthz`)).json()) as { status: string }).status).toBe('ok');
      const primary = setup.node(setup.primaryPort);
      expect((await primary.keys('wrench:*')).length).toBeGreaterThan(0);
      const names = async (port: number) => {
        const node = setup.node(port);
        try {
          return String(await node.client('LIST'));
        } finally {
          node.disconnect();
        }
      };
      for (const name of CONNECTIONS) expect(await names(setup.primaryPort)).toContain(`name=${name} `);

      const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> add src/after-failover.js exporting ok = true' });
      await slack.deliverEvent(`${wrench.url}/slack/events`, 'secret', envelope);
      const thread = (envelope.event as { ts: string }).ts;
      await until(async () => (anthropic.requests.length > 0 ? true : undefined), 30_000, "the agent's first model request");

      setup.killPrimary();
      await setup.waitForPrimary(setup.replicaPort, 20_000);
      await until(
        async () => {
          const list = await names(setup.replicaPort);
          return CONNECTIONS.every((name) => list.includes(`name=${name} `)) ? list : undefined;
        },
        15_000,
        'every Wrench connection on the promoted replica',
      );
      const health = await until(
        async () => {
          const answer = (await (await fetch(`${wrench.url}/healthz`)).json()) as { status: string };
          return answer.status === 'ok' ? answer : undefined;
        },
        10_000,
        'healthz ok after the failover',
      );
      expect(health.status).toBe('ok');
      // The run goes on through the failover: its thread gets one reply naming one pull request, and nothing more.
      // By default that reply is the run's streamed message: the thread's bot messages naming a pull request.
      const replies = () => slack.messages('C0DEV', thread).filter((m) => m.bot_id && /pull\/\d+/.test(m.text));
      await slack.waitFor(() => replies().length > 0 && slack.streamsIn('C0DEV', thread).every((s) => s.state === 'stopped'), 60_000);
      // Nothing more can come: the run's job is done and none waits or runs, and the thread's outbox is empty.
      const node = setup.node(setup.replicaPort);
      await waitForTaskQueue(node, 'wrench', { channel: 'C0DEV', threadTs: thread }, (s) => s.active + s.waiting === 0 && s.completed === 1 && s.outbox === 0);
      expect(replies()).toHaveLength(1);
      expect(slack.streamsIn('C0DEV', thread)).toHaveLength(1);
      expect(github.pulls('acme', 'web')).toHaveLength(1);
      expect(anthropic.requests).toHaveLength(3);
      expect(wrench.output()).toContain('Redis connection lost; reconnecting in the background');
      expect(wrench.output()).toContain('Redis connection restored');
      expect(wrench.output()).not.toContain(setup.password);
      expect(wrench.output()).not.toContain(setup.sentinelPassword);
    } finally {
      expect(await wrench.stop()).toBe(0);
    }
  }, 120_000);
});

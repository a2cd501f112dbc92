import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handleGitHubEvent, type GitHubEventDeps } from '../../../runners/github-event-runner.js';
import type { RunnerDeps } from '../../../runners/runner-deps.js';
import { loadConfig, parseConfigFile } from '../../../src/config/load-config.js';
import { createOctokit } from '../../../src/github/create-octokit.js';
import { createLogger } from '../../../src/logging/logger.js';
import type { GitHubJob } from '../../../src/queue/github-job.js';
import { createQueues, type Queues } from '../../../src/queue/queues.js';
import { createRedis } from '../../../src/redis/redis-connection.js';
import { createRedactor } from '../../../src/security/redact.js';
import { Cancellation } from '../../../src/sessions/cancellation.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import { outboxSlackClient, ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { startGitHubFake, type GitHubFake } from '../../fakes/github-fake.js';
import { startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { uniqueName } from '../../helpers/unique-name.js';

const THREAD = { channel: 'C0DEV', threadTs: '1700000000.000100' };

describe('GitHub events on a Wrench pull request (real Redis, GitHub and Slack fakes)', () => {
  let redis: RedisServer;
  let dir: TempDir;
  let github: GitHubFake;
  let slack: SlackFake;
  let connection: Redis;
  let queues: Queues;
  let deps: GitHubEventDeps;
  let pull: number;
  let head: string;
  let delivery = 0;
  const job = (event: Record<string, unknown>): GitHubJob => ({
    kind: 'github-event',
    deliveryId: `d-${++delivery}`,
    thread: THREAD,
    event: { repo: { owner: 'acme', name: 'app' }, pull, url: 'https://example.test/pr', ...event } as GitHubJob['event'],
  });
  const setFile = (yaml: string) => (deps.runner.config.file = parseConfigFile(yaml ? JSON.parse(yaml) : {}));

  beforeAll(async () => {
    [redis, dir, github, slack] = await Promise.all([
      startRedisServer(),
      makeTempDir('wrench-ghev-'),
      startGitHubFake({ users: { ghp_wrench: 'wrench-bot', ghp_alice: 'alice' } }),
      startSlackFake(),
    ]);
    await github.createRepo('acme', 'app', { 'src/a.js': 'export const a = 1;\n' });
    head = await github.commit('acme', 'app', 'wrench/one', { message: 'one', files: { 'src/a.js': 'export const a = 2;\n' } });
    pull = Number((await github.createPull('acme', 'app', { title: 'One', head: 'wrench/one', user: 'wrench-bot' })).number);
    github.setRole('acme', 'app', 'alice', 'maintain');
    const config = loadConfig({ WRENCH_QUEUE_PREFIX: uniqueName('ghev'), WRENCH_DATA_DIR: dir.path }, dir.path);
    connection = createRedis(redis.url);
    queues = createQueues(connection, config.env.WRENCH_QUEUE_PREFIX);
    const redact = createRedactor([]);
    const logger = createLogger({ level: 'silent', redact });
    const runner = {
      config,
      logger,
      redact,
      secrets: [],
      github: createOctokit({ token: 'ghp_wrench', baseUrl: github.url, logger }),
    } as unknown as RunnerDeps;
    const sessions = new ThreadSessionStore(connection, config.env.WRENCH_QUEUE_PREFIX);
    const outbox = new ThreadOutbox(connection, config.env.WRENCH_QUEUE_PREFIX, outboxSlackClient('xoxb-test', slack.apiUrl), redact, logger, { pollMs: 50 });
    outbox.start();
    deps = { runner, redis: connection, queues, sessions, outbox, prefix: config.env.WRENCH_QUEUE_PREFIX };
  });
  beforeEach(async () => {
    const now = new Date().toISOString();
    await deps.sessions.update(THREAD.channel, THREAD.threadTs, () => ({
      ...THREAD,
      repo: { owner: 'acme', name: 'app' },
      requester: 'U0ALICE',
      branch: 'wrench/one',
      pullRequest: { number: pull, url: 'u' },
      runs: [{ jobId: 'run-first', instruction: 'add a', requester: 'U0ALICE', status: 'done', category: 'refactoring', at: now }],
      createdAt: now,
      updatedAt: now,
    }));
  });
  afterAll(async () => {
    await deps?.outbox.stop();
    await queues?.close();
    deps?.sessions.close();
    connection?.disconnect();
    await Promise.all([redis?.stop(), github?.stop(), slack?.stop(), dir?.remove()]);
  });

  it('a review requesting changes by a maintainer queues a run on the thread, in its category, mirrored in Slack', async () => {
    const outcome = await handleGitHubEvent(job({ kind: 'review', author: 'alice', body: 'Split parse() in two. <!channel>', reviewId: 5 }), deps);
    expect(outcome).toBe('follow-up-queued');
    const queued = await queues.tasks.getJob(`run-gh-d-${delivery}-${pull}`);
    expect(queued?.data).toMatchObject({
      category: 'refactoring',
      origin: { type: 'slack', ...THREAD },
      github: { kind: 'review', pull, author: 'alice' },
      requester: { slackUserId: 'U0ALICE', name: '@alice on GitHub' },
    });
    expect(queued?.data.instruction).toMatch(/^Address the changes @alice requested in a review of pull request #\d+:\n\nSplit parse\(\) in two\./);
    const session = await deps.sessions.get(THREAD.channel, THREAD.threadTs);
    expect(session?.runs.at(-1)).toMatchObject({ jobId: queued?.id, status: 'queued', requester: 'github:alice' });
    const mirror = await slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === THREAD.threadTs && /@alice requested changes/.test(String(c.args.text)),
    );
    // What people write on GitHub cannot ping the channel or forge links in Slack.
    expect(String(mirror?.args.text)).toContain('> Split parse() in two. &lt;!channel&gt;');
  });

  it('a failing check is left alone when fixFailingChecks is off, or when the pull request has moved on to another head', async () => {
    const count = await queues.tasks.count();
    const run = github.addCheckRun('acme', 'app', { name: 'test', headSha: head, conclusion: 'failure', log: 'x' });
    setFile('{"github":{"fixFailingChecks":false}}');
    expect(await handleGitHubEvent(job({ kind: 'check-failed', headSha: head, checkName: 'test', jobIds: [run.id] }), deps)).toBe('fixes-off');
    setFile('');
    expect(await handleGitHubEvent(job({ kind: 'check-failed', headSha: 'f'.repeat(40), checkName: 'test', jobIds: [run.id] }), deps)).toBe('stale-head');
    expect(await queues.tasks.count()).toBe(count);
  });

  it('closing the pull request says so, cancels runs still waiting, and ends the session', async () => {
    await deps.sessions.update(
      THREAD.channel,
      THREAD.threadTs,
      (s) =>
        s && { ...s, runs: [...s.runs, { jobId: 'run-waiting', instruction: 'more', requester: 'U0ALICE', status: 'queued', at: new Date().toISOString() }] },
    );
    expect(await handleGitHubEvent(job({ kind: 'closed', merged: false, by: 'alice' }), deps)).toBe('ended');
    expect(await new Cancellation(connection, deps.prefix).isRequested('run-waiting')).toBe(true);
    expect(await new Cancellation(connection, deps.prefix).isRequested('run-first')).toBe(false);
    expect(await deps.sessions.get(THREAD.channel, THREAD.threadTs)).toBeNull();
    expect(await deps.sessions.threadOfPullRequest('acme', 'app', pull)).toBeNull();
    await slack.waitFor((c) => c.method === 'chat.postMessage' && /was closed without merging by @alice/.test(String(c.args.text)));
    expect(await handleGitHubEvent(job({ kind: 'comment', author: 'alice', body: '@wrench-bot more', commentId: 1 }), deps)).toBe('thread-ended');
  });
});

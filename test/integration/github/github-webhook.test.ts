import type { GitHubJob } from '../../../src/queue/github-job.js';
import { createServer, type Server } from 'node:http';
import { withoutSlack } from '../../helpers/without-slack.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitHubWebhookHandler } from '../../../handlers/github-webhook.js';
import { createHandlerDeps, type HandlerDeps } from '../../../handlers/handler-deps.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createQueues, type Queues } from '../../../src/queue/queues.js';
import { createRedis, type RedisClient } from '../../../src/redis/redis-connection.js';
import { redisKeys } from '../../../src/redis/redis-keys.js';
import { createRedactor } from '../../../src/security/redact.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import { startGitHubFake, type GitHubFake } from '../../fakes/github-fake.js';
import { deliverGitHubWebhook } from '../../fakes/github-webhook-sender.js';
import { freePort } from '../../helpers/free-port.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { createRequire } from 'node:module';

const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as Array<{ name: string; examples: Array<Record<string, unknown>> }>;
import { uniqueName } from '../../helpers/unique-name.js';

const SECRET = 'github-webhook-secret-0123';

describe('POST /github/webhook with real Redis and BullMQ', () => {
  let redis: RedisServer;
  let dir: TempDir;
  let github: GitHubFake;
  let connection: RedisClient;
  let queues: Queues;
  let server: Server;
  let url: string;
  let deps: HandlerDeps;
  let ours: number;
  let theirs: number;
  const deliver = (event: string, payload: unknown, options: { deliveryId?: string; badSignature?: boolean; unsigned?: boolean } = {}) =>
    deliverGitHubWebhook(url, event, payload, { secret: SECRET, ...options });

  beforeAll(async () => {
    [redis, dir, github] = await Promise.all([startRedisServer(), makeTempDir('wrench-ghwh-'), startGitHubFake({ users: { ghp_alice: 'alice' } })]);
    await github.createRepo('acme', 'app', { 'src/a.js': 'export const a = 1;\n' });
    await github.commit('acme', 'app', 'wrench/one', { message: 'one', files: { 'src/a.js': 'export const a = 2;\n' } });
    await github.commit('acme', 'app', 'other', { message: 'other', files: { 'src/b.js': 'export const b = 1;\n' } });
    ours = Number((await github.createPull('acme', 'app', { title: 'One', head: 'wrench/one', user: 'wrench-bot' })).number);
    theirs = Number((await github.createPull('acme', 'app', { title: 'Other', head: 'other', user: 'octocat' })).number);
    const config = loadConfig({ GITHUB_WEBHOOK_SECRET: SECRET, WRENCH_QUEUE_PREFIX: uniqueName('ghwh'), WRENCH_DATA_DIR: dir.path }, dir.path);
    connection = createRedis(redis.url);
    queues = createQueues(connection, config.env.WRENCH_QUEUE_PREFIX);
    const redact = createRedactor([SECRET]);
    deps = createHandlerDeps({
      config,
      queues,
      redis: connection,
      sessions: new ThreadSessionStore(connection, config.env.WRENCH_QUEUE_PREFIX),
      redact,
      logger: createLogger({ level: 'silent', redact }),
      ...withoutSlack(connection, config.env.WRENCH_QUEUE_PREFIX, redact),
    });
    const now = new Date().toISOString();
    await deps.sessions.update('C0DEV', '1700000000.000100', () => ({
      channel: 'C0DEV',
      threadTs: '1700000000.000100',
      repo: { owner: 'acme', name: 'app' },
      requester: 'U0ALICE',
      branch: 'wrench/one',
      pullRequest: { number: ours, url: `${github.url}/acme/app/pull/${ours}` },
      runs: [],
      createdAt: now,
      updatedAt: now,
    }));
    const port = await freePort();
    server = createServer(gitHubWebhookHandler(deps, SECRET));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${port}/github/webhook`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await queues?.close();
    deps?.sessions.close();
    connection?.disconnect();
    await Promise.all([redis?.stop(), github?.stop(), dir?.remove()]);
  });

  const comment = async (pull: number, body: string) => {
    const octokit = new (await import('@octokit/rest')).Octokit({ auth: 'ghp_alice', baseUrl: github.url });
    return (await octokit.issues.createComment({ owner: 'acme', repo: 'app', issue_number: pull, body })).data.id;
  };

  it('queues one job however many times (and however concurrently) a delivery arrives, with the delivery id in the job id', async () => {
    const payload = github.payloads.issueComment(await comment(ours, '@wrench-bot please rename a to alpha'));
    const answers = await Promise.all(Array.from({ length: 8 }, () => deliver('issue_comment', payload, { deliveryId: 'd-concurrent' })));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200 && JSON.parse(a.body).status === 'duplicate')).toHaveLength(7);
    const job = await queues.github.getJob(`gh-d-concurrent-${ours}`);
    expect(job?.data).toMatchObject({
      kind: 'github-event',
      deliveryId: 'd-concurrent',
      thread: { channel: 'C0DEV', threadTs: '1700000000.000100' },
      event: { kind: 'comment', author: 'alice', pull: ours },
    });
    expect(await queues.github.count()).toBe(1);
  });

  it('401 for a wrong or missing signature, 400 for a body that is not JSON, 200 pong for a ping', async () => {
    const payload = github.payloads.issueComment(await comment(ours, '@wrench-bot hello'));
    expect((await deliver('issue_comment', payload, { badSignature: true })).status).toBe(401);
    expect((await deliver('issue_comment', payload, { unsigned: true })).status).toBe(401);
    const notJson = await fetch(url, {
      method: 'POST',
      headers: {
        'x-github-event': 'push',
        'x-github-delivery': 'd-x',
        'x-hub-signature-256': `sha256=${(await import('node:crypto')).createHmac('sha256', SECRET).update('not json').digest('hex')}`,
      },
      body: 'not json',
    });
    expect(notJson.status).toBe(400);
    const ping = await deliver('ping', { zen: 'Keep it logically awesome.', hook_id: 1 });
    expect(ping.status).toBe(200);
    expect(await queues.github.count()).toBe(1);
  });

  it('leaves alone (200) unknown events, comments without the mention, comments by bots, and pull requests Wrench did not open', async () => {
    const reasons = async (event: string, payload: unknown) => {
      const answer = await deliver(event, payload);
      expect(answer.status).toBe(200);
      return JSON.parse(answer.body).reason as string;
    };
    expect(await reasons('star', { action: 'created', repository: { name: 'app', owner: { login: 'acme' } } })).toMatch(/event star is not used/);
    expect(await reasons('issue_comment', github.payloads.issueComment(await comment(ours, 'looks good')))).toMatch(/does not mention @wrench-bot/);
    const bot = github.payloads.issueComment(await comment(ours, '@wrench-bot do it')) as { sender: Record<string, unknown> };
    expect(await reasons('issue_comment', { ...bot, sender: { ...bot.sender, login: 'ci[bot]', type: 'Bot' } })).toMatch(/bot/);
    expect(await reasons('issue_comment', github.payloads.issueComment(await comment(theirs, '@octocat fix it')))).toMatch(/not a pull request Wrench opened/);
    expect(await queues.github.count()).toBe(1);
  });

  it('reads a failed commit status into a job for the pull request of the branch it is on; other states and branches are left alone', async () => {
    const head = (await github.branchSha('acme', 'app', 'wrench/one'))!;
    const failed = { state: 'failure' as const, context: 'ci/jenkins', description: 'Build #12 failed', target_url: 'https://jenkins.example.com/job/12' };
    const answer = await deliver('status', await github.payloads.status('acme', 'app', head, failed), { deliveryId: 'd-status' });
    expect(answer.status).toBe(202);
    expect(((await queues.github.getJob(`gh-d-status-${ours}`))?.data as GitHubJob | undefined)?.event).toEqual({
      kind: 'status-failed',
      repo: { owner: 'acme', name: 'app' },
      pull: ours,
      url: 'https://jenkins.example.com/job/12',
      headSha: head,
      context: 'ci/jenkins',
      description: 'Build #12 failed',
      targetUrl: 'https://jenkins.example.com/job/12',
    });
    const pending = await deliver('status', await github.payloads.status('acme', 'app', head, { ...failed, state: 'pending' }));
    expect(JSON.parse(pending.body)).toMatchObject({ status: 'ignored', reason: 'status pending' });
    const main = (await github.branchSha('acme', 'app', 'main'))!;
    const elsewhere = await deliver('status', await github.payloads.status('acme', 'app', main, failed));
    expect(JSON.parse(elsewhere.body)).toMatchObject({ status: 'ignored', reason: 'a commit status on no branch of a pull request Wrench opened' });
  });

  it('reads a failing check run into a check-failed job for the Wrench pull request only', async () => {
    const head = (await github.branchSha('acme', 'app', 'wrench/one'))!;
    const run = github.addCheckRun('acme', 'app', { name: 'test', headSha: head, conclusion: 'failure', log: 'boom\n' });
    const answer = await deliver('check_run', github.payloads.checkRun(run.id), { deliveryId: 'd-check' });
    expect(answer.status).toBe(202);
    expect(((await queues.github.getJob(`gh-d-check-${ours}`))?.data as GitHubJob | undefined)?.event).toEqual({
      kind: 'check-failed',
      repo: { owner: 'acme', name: 'app' },
      pull: ours,
      url: expect.any(String),
      headSha: head,
      checkName: 'test',
      jobIds: [run.id],
    });
    const passed = github.addCheckRun('acme', 'app', { name: 'lint', headSha: head, conclusion: 'success' });
    expect(JSON.parse((await deliver('check_run', github.payloads.checkRun(passed.id))).body)).toMatchObject({
      status: 'ignored',
      reason: 'a passing check on no pull request waiting for a fix round',
    });
    // While a fix round waits for its re-run, a pass on that pull request is queued for the thread.
    await connection.set(redisKeys(deps.config.env.WRENCH_QUEUE_PREFIX).fixWatch('acme', 'app', ours), '{}');
    expect((await deliver('check_run', github.payloads.checkRun(passed.id), { deliveryId: 'd-pass' })).status).toBe(202);
    expect(((await queues.github.getJob(`gh-d-pass-${ours}`))?.data as GitHubJob | undefined)?.event).toMatchObject({
      kind: 'check-passed',
      pull: ours,
      checkName: 'lint',
      headSha: head,
    });
  });

  it("a reopened pull request (GitHub's own example payload) is queued for the thread it was closed in; others are left alone", async () => {
    const example = examples.find((e) => e.name === 'pull_request')?.examples.find((e) => e.action === 'reopened') as Record<string, any>;
    const reopened = (number: number) => ({
      ...example,
      number,
      pull_request: { ...example.pull_request, number },
      repository: { ...example.repository, name: 'app', full_name: 'acme/app', owner: { ...example.repository.owner, login: 'acme' } },
    });
    // Open, not closed: nothing to resume.
    expect(JSON.parse((await deliver('pull_request', reopened(ours), { deliveryId: 'd-reopen-open' })).body)).toMatchObject({ status: 'ignored' });
    await deps.sessions.end('C0DEV', '1700000000.000100', { reopenable: true });
    const answer = await deliver('pull_request', reopened(ours), { deliveryId: 'd-reopen' });
    expect(answer.status).toBe(202);
    expect((await queues.github.getJob(`gh-d-reopen-${ours}`))?.data).toMatchObject({
      thread: { channel: 'C0DEV', threadTs: '1700000000.000100' },
      event: { kind: 'reopened', pull: ours, by: example.sender.login },
    });
    // A pull request Wrench never opened is not resumed anywhere.
    expect(JSON.parse((await deliver('pull_request', reopened(theirs), { deliveryId: 'd-reopen-theirs' })).body)).toMatchObject({ status: 'ignored' });
  });

  it("an issue labelled `wrench` (GitHub's own example payload) in a linked repository queues one issue job for its channel; other labels, repositories and duplicates do not", async () => {
    const withChannel = {
      ...deps,
      config: {
        ...deps.config,
        file: {
          ...deps.config.file,
          channels: { C0ISSUES: { repo: 'acme/app', baseBranch: 'main' } },
          github: { ...deps.config.file.github, issueAssignee: 'wrench-bot' },
        },
      },
    };
    const port = await freePort();
    const issueServer = createServer(gitHubWebhookHandler(withChannel, SECRET));
    await new Promise<void>((resolve) => issueServer.listen(port, '127.0.0.1', resolve));
    const send = (payload: unknown, deliveryId: string) =>
      deliverGitHubWebhook(`http://127.0.0.1:${port}/github/webhook`, 'issues', payload, { secret: SECRET, deliveryId });
    try {
      const issuesExamples = examples.find((e) => e.name === 'issues')?.examples ?? [];
      const labeled = issuesExamples.find((e) => e.action === 'labeled') as Record<string, any>;
      const assigned = issuesExamples.find((e) => e.action === 'assigned') as Record<string, any>;
      const retarget = (example: Record<string, any>, extra: Record<string, unknown>, repoName = 'app') => ({
        ...example,
        ...extra,
        issue: { ...example.issue, number: 7, state: 'open', title: 'Coupons make the total negative', body: 'Steps: add a coupon.' },
        repository: { ...example.repository, name: repoName, full_name: `acme/${repoName}`, owner: { ...example.repository.owner, login: 'acme' } },
        sender: { ...example.sender, login: 'alice', type: 'User' },
      });
      expect(JSON.parse((await send(retarget(labeled, { label: { ...labeled.label, name: 'bug' } }), 'd-label-bug')).body)).toMatchObject({
        status: 'ignored',
        reason: 'a label or assignee that does not ask for Wrench',
      });
      expect(JSON.parse((await send(retarget(labeled, { label: { ...labeled.label, name: 'Wrench' } }, 'elsewhere'), 'd-label-elsewhere')).body)).toMatchObject(
        { status: 'ignored', reason: 'not a repository linked to a channel' },
      );
      const answer = await send(retarget(labeled, { label: { ...labeled.label, name: 'Wrench' } }), 'd-label-wrench');
      expect(answer.status).toBe(202);
      expect((await queues.github.getJob('gh-issue-acme_app-7'))?.data).toEqual({
        kind: 'github-issue',
        deliveryId: 'd-label-wrench',
        issue: {
          repo: { owner: 'acme', name: 'app' },
          number: 7,
          url: labeled.issue.html_url,
          title: 'Coupons make the total negative',
          body: 'Steps: add a coupon.',
          author: 'alice',
          via: 'labelled `Wrench`',
        },
        channel: 'C0ISSUES',
        baseBranch: 'main',
      });
      expect(JSON.parse((await send(retarget(labeled, { label: { ...labeled.label, name: 'wrench' } }), 'd-label-wrench')).body)).toMatchObject({
        status: 'duplicate',
      });
      // Assigned to Wrench's account as well: the same job id, so still one job for the issue.
      expect((await send(retarget(assigned, { assignee: { ...assigned.assignee, login: 'wrench-bot' } }), 'd-assign')).status).toBe(202);
      expect((await queues.github.getJobs(['waiting', 'delayed', 'active', 'completed'])).filter((j) => j?.data.kind === 'github-issue')).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => issueServer.close(() => resolve()));
    }
  });

  it('with github.mention set, a mention on a pull request Wrench did not open in a linked repository queues a guest-pull job; without the mention, or unlinked, nothing', async () => {
    const withMention = {
      ...deps,
      config: {
        ...deps.config,
        file: { ...deps.config.file, channels: { C0GUEST: { repo: 'acme/app' } }, github: { ...deps.config.file.github, mention: 'wrench' } },
      },
    };
    const port = await freePort();
    const guestServer = createServer(gitHubWebhookHandler(withMention, SECRET));
    await new Promise<void>((resolve) => guestServer.listen(port, '127.0.0.1', resolve));
    const send = (payload: unknown, deliveryId: string) =>
      deliverGitHubWebhook(`http://127.0.0.1:${port}/github/webhook`, 'issue_comment', payload, { secret: SECRET, deliveryId });
    try {
      const quiet = github.payloads.issueComment(await comment(theirs, 'looks good to me'));
      expect(JSON.parse((await send(quiet, 'd-guest-quiet')).body)).toMatchObject({ status: 'ignored' });
      const asked = github.payloads.issueComment(await comment(theirs, '@wrench please add a test for b'));
      expect((await send(asked, 'd-guest')).status).toBe(202);
      expect((await queues.github.getJob(`gh-d-guest-${theirs}`))?.data).toMatchObject({
        kind: 'github-guest-pull',
        channel: 'C0GUEST',
        event: { kind: 'comment', pull: theirs, author: 'alice', body: '@wrench please add a test for b' },
      });
      // Someone mentioning a longer name, or an email address, does not ask Wrench.
      const other = github.payloads.issueComment(await comment(theirs, 'cc @wrench-team and ops@wrench.example'));
      expect(JSON.parse((await send(other, 'd-guest-other')).body)).toMatchObject({ status: 'ignored' });
    } finally {
      await new Promise<void>((resolve) => guestServer.close(() => resolve()));
    }
    // Without github.mention (the service's own config), the same comment is left alone.
    const asked = github.payloads.issueComment(await comment(theirs, '@wrench please add a test for c'));
    expect(JSON.parse((await deliver('issue_comment', asked, { deliveryId: 'd-guest-off' })).body)).toMatchObject({ status: 'ignored' });
  });
});

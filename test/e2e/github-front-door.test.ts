import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverGitHubWebhook } from '../fakes/github-webhook-sender.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { streamText } from '../fakes/slack/streams.js';
import { threadReply } from './thread-replies.js';
import { createRequire } from 'node:module';

const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as Array<{ name: string; examples: Array<Record<string, unknown>> }>;
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/app }
sandbox: { mode: bwrap }
limits: { concurrency: 2, perRepository: 2, perUser: 2 }
github: { fixFailingChecks: true, maxFixRounds: 1, mention: wrench-test }
`;
const WEBHOOK_SECRET = 'e2e-github-webhook-secret';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('GitHub as a second front door (App credentials only)', () => {
  let world: E2eWorld;
  let threadTs: string;
  let pullNumber: number;
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const person = (token: string) => new Octokit({ auth: token, baseUrl: world.github.url, log: quiet });
  const deliver = (event: string, payload: unknown, options: { deliveryId?: string; badSignature?: boolean } = {}) =>
    deliverGitHubWebhook(`${world.wrench!.url}/github/webhook`, event, payload, { secret: WEBHOOK_SECRET, ...options });
  const threadTexts = () =>
    world.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.args.thread_ts === threadTs)
      .map((c) => String(c.args.text));
  const branchLog = () =>
    execFileSync('git', ['--git-dir', world.github.gitDir('acme', 'app'), 'log', '--format=%s', world.github.pulls('acme', 'app')[0]!.headRef], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n');
  const headSha = async () => (await world.github.branchSha('acme', 'app', world.github.pulls('acme', 'app')[0]!.headRef))!;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG, {
      github: {
        users: { ghp_alice: 'alice', ghp_mallory: 'mallory' },
        strictTokens: true,
        app: { id: 4242, slug: 'wrench-test', publicKey: keys.publicKey, installations: { acme: 77 } },
      },
    });
    await world.github.createRepo('acme', 'app', { 'README.md': '# app\n', 'src/index.js': 'export const a = 1;\n' });
    world.github.setRole('acme', 'app', 'alice', 'write');
    const keyPath = path.join(world.dir.path, 'app.pem');
    await writeFile(keyPath, keys.privateKey);
    delete world.env.GITHUB_TOKEN;
    await world.start({ GITHUB_APP_ID: '4242', GITHUB_APP_PRIVATE_KEY_PATH: keyPath, GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET });
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('a mention opens the pull request with installation tokens only', async () => {
    world.anthropic.setScript(
      scriptByRun({
        'greeting module': [createFileStep('src/greeting.js', "export const greet = () => 'hi';\n"), finishStep('Added the greeting module.')],
      }).items,
    );
    const envelope = appMentionEnvelope({
      channel: 'C0DEV',
      user: 'U0ALICE',
      text: '<@U0BOT> add a greeting module in src/greeting.js exporting `greet`. Follow src/index.js style.',
    });
    threadTs = (envelope.event as { ts: string }).ts;
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    await threadReply(world, threadTs, /Opened PR #/, 150_000);
    const [pull] = world.github.pulls('acme', 'app');
    pullNumber = pull!.number;
    expect(pull!.user).toBe('wrench-test[bot]');
    const apiCalls = world.github.requests.filter((r) => r.path.startsWith('/repos/acme/app') && !r.path.endsWith('/installation'));
    expect(apiCalls.length).toBeGreaterThan(0);
    expect(apiCalls.every((r) => r.token?.startsWith('ghs_'))).toBe(true);
    expect(world.github.app!.tokens.length).toBeGreaterThan(0);
  });

  it('refuses a bad signature with 401 and leaves unknown events alone with 200', async () => {
    const bad = await deliver('issue_comment', { action: 'created' }, { badSignature: true });
    expect(bad.status).toBe(401);
    const unknown = await deliver('star', { action: 'created', repository: { name: 'app', owner: { login: 'acme' } } });
    expect(unknown.status).toBe(200);
    expect(JSON.parse(unknown.body)).toMatchObject({ status: 'ignored' });
  });

  it('a review comment by someone with write access: a second commit on the same branch, a reply on its thread, the Slack thread updated; a redelivery does nothing new', async () => {
    world.anthropic.setScript(
      scriptByRun({
        'say hello instead': [createFileStep('src/greeting.js', "export const greet = () => 'hello';\n"), finishStep('Greeting now says hello.')],
      }).items,
    );
    const review = await person('ghp_alice').pulls.createReview({
      owner: 'acme',
      repo: 'app',
      pull_number: pullNumber,
      event: 'COMMENT',
      comments: [{ path: 'src/greeting.js', line: 1, body: 'Please say hello instead of hi here.' }],
    });
    const comment = world.github.reviewComments.find((c) => c.reviewId === review.data.id)!;
    const commitsBefore = branchLog().length;

    // The review itself (state commented) is left alone; its comment is the instruction.
    const reviewDelivery = await deliver('pull_request_review', world.github.payloads.review(review.data.id));
    expect(JSON.parse(reviewDelivery.body)).toMatchObject({ status: 'ignored' });
    const first = await deliver('pull_request_review_comment', world.github.payloads.reviewComment(comment.id));
    expect(first.status).toBe(202);
    const again = await deliver('pull_request_review_comment', world.github.payloads.reviewComment(comment.id), { deliveryId: first.deliveryId });
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toMatchObject({ status: 'duplicate' });

    await threadReply(world, threadTs, /Updated PR #/, 150_000);
    const reply = await waitUntil(
      () => world.github.reviewComments.find((c) => c.in_reply_to_id === comment.id && c.body.includes("The agent's account")),
      30_000,
    );
    expect(reply.user).toBe('wrench-test[bot]');
    expect(reply.body).toContain('@alice');
    // The agent's words are marked as its account.
    expect(reply.body).toContain("The agent's account (not checked by Wrench): Greeting now says hello.");
    // Acknowledged on GitHub at pickup: 👀 on the comment and a "working on it" reply, which became the answer; the 👀
    // made way for 🚀.
    await waitUntil(() => (world.github.reactions.some((r) => r.comment === comment.id && r.content === 'rocket') ? true : undefined), 10_000);
    const reactions = world.github.requests.filter((r) => r.path === `/repos/acme/app/pulls/comments/${comment.id}/reactions` && r.method === 'POST');
    expect(reactions.map((r) => (r.body as { content: string }).content)).toEqual(['eyes', 'rocket']);
    expect(world.github.reactions.filter((r) => r.comment === comment.id).map((r) => [r.user, r.content])).toEqual([['wrench-test[bot]', 'rocket']]);
    expect(world.github.reviewComments.filter((c) => c.in_reply_to_id === comment.id)).toEqual([reply]);
    const working = world.github.requests.find((r) => r.method === 'POST' && r.path.endsWith(`/comments/${comment.id}/replies`))!;
    expect((working.body as { body: string }).body).toMatch(/^@alice I'm working on it/);
    expect(world.github.requests.some((r) => r.method === 'PATCH' && r.path === `/repos/acme/app/pulls/comments/${reply.id}`)).toBe(true);
    expect(branchLog().length).toBe(commitsBefore + 1);
    expect(branchLog()[0]).toMatch(/^Address @alice's review comment on src\/greeting\.js line 1:$/);
    expect(world.github.pulls('acme', 'app')).toHaveLength(1);
    expect(threadTexts().some((t) => t.includes('@alice commented') && t.includes('say hello instead of hi'))).toBe(true);
    // The follow-up's agent saw the code the comment is attached to.
    const request = world.anthropic.requests.find((r) => JSON.stringify(r.body).includes('say hello instead'))!;
    expect(JSON.stringify(request.body)).toContain('src/greeting.js');
    expect(JSON.stringify(request.body)).toContain("greet = () => 'hi'");
  });

  it('after the App is reinstalled (new installation id, old tokens revoked) the next review comment is still answered', async () => {
    world.anthropic.setScript(
      scriptByRun({
        'say welcome instead': [createFileStep('src/greeting.js', "export const greet = () => 'welcome';\n"), finishStep('Greeting now says welcome.')],
      }).items,
    );
    world.github.app!.reinstall('acme', 78);
    const review = await person('ghp_alice').pulls.createReview({
      owner: 'acme',
      repo: 'app',
      pull_number: pullNumber,
      event: 'COMMENT',
      comments: [{ path: 'src/greeting.js', line: 1, body: 'Please say welcome instead of hello here.' }],
    });
    const comment = world.github.reviewComments.find((c) => c.reviewId === review.data.id)!;
    expect((await deliver('pull_request_review_comment', world.github.payloads.reviewComment(comment.id))).status).toBe(202);
    const reply = await waitUntil(
      () => world.github.reviewComments.find((c) => c.in_reply_to_id === comment.id && c.body.includes("The agent's account")),
      150_000,
    );
    expect(reply.user).toBe('wrench-test[bot]');
    expect(reply.body).toContain("The agent's account (not checked by Wrench): Greeting now says welcome.");
    // Tokens of the new installation were minted; none of the old one is left.
    expect(world.github.app!.tokens.some((t) => t.installationId === 78)).toBe(true);
    expect(world.github.app!.tokens.some((t) => t.installationId === 77)).toBe(false);
    expect(branchLog()[0]).toMatch(/^Address @alice's review comment on src\/greeting\.js line 1:$/);
  });

  it('while the App is uninstalled a review comment fails where it came from, and its redelivery after a reinstall is answered', async () => {
    world.anthropic.setScript(
      scriptByRun({
        'say howdy instead': [createFileStep('src/greeting.js', "export const greet = () => 'howdy';\n"), finishStep('Greeting now says howdy.')],
      }).items,
    );
    world.github.app!.uninstall('acme');
    const review = await person('ghp_alice').pulls.createReview({
      owner: 'acme',
      repo: 'app',
      pull_number: pullNumber,
      event: 'COMMENT',
      comments: [{ path: 'src/greeting.js', line: 1, body: 'Please say howdy instead of welcome here.' }],
    });
    const comment = world.github.reviewComments.find((c) => c.reviewId === review.data.id)!;
    const first = await deliver('pull_request_review_comment', world.github.payloads.reviewComment(comment.id));
    expect(first.status).toBe(202);
    // The thread the pull request came from is told, with what went wrong and how to go on.
    const told = await waitUntil(() => threadTexts().find((t) => t.includes('could not act on the review comment by @alice')), 60_000);
    expect(told).toMatch(/redeliver it from the GitHub App's settings/);
    expect(world.github.reviewComments.some((c) => c.in_reply_to_id === comment.id)).toBe(false);

    // Installed again: the same delivery, redelivered, is taken (not a duplicate) and answered.
    world.github.app!.reinstall('acme', 79);
    const again = await deliver('pull_request_review_comment', world.github.payloads.reviewComment(comment.id), { deliveryId: first.deliveryId });
    expect(again.status).toBe(202);
    const reply = await waitUntil(
      () => world.github.reviewComments.find((c) => c.in_reply_to_id === comment.id && c.body.includes("The agent's account")),
      150_000,
    );
    expect(reply.body).toContain("The agent's account (not checked by Wrench): Greeting now says howdy.");
  });

  it('a mention by someone without write access is answered politely on GitHub and not acted on', async () => {
    const runsBefore = world.anthropic.requests.length;
    const posted = await person('ghp_mallory').issues.createComment({
      owner: 'acme',
      repo: 'app',
      issue_number: pullNumber,
      body: '@wrench-test please delete the README',
    });
    const delivery = await deliver('issue_comment', world.github.payloads.issueComment(posted.data.id));
    expect(delivery.status).toBe(202);
    const answer = await waitUntil(() => world.github.issueComments.find((c) => c.user === 'wrench-test[bot]' && c.body.includes('@mallory')), 30_000);
    expect(answer.body).toMatch(/only take instructions from people who can push/);
    expect(world.anthropic.requests.length).toBe(runsBefore);
  });

  it('a failing check gets one fix round with its log; a second failure after the limit gets a message and no further round', async () => {
    world.anthropic.setScript(
      scriptByRun({
        'failing CI check `test`': [createFileStep('src/greeting.test.js', '// fixed\n'), finishStep('Fixed the failing greeting test.')],
      }).items,
    );
    const failing = world.github.addCheckRun('acme', 'app', {
      name: 'test',
      headSha: await headSha(),
      conclusion: 'failure',
      log: '2026-11-22T10:00:00.0000000Z Run npm test\n2026-11-22T10:00:01.0000000Z FAIL src/greeting.test.js: expected "hello" to equal "hi there"\n',
    });
    const commitsBefore = branchLog().length;
    const updates = () => threadTexts().filter((t) => /Updated PR #/.test(t)).length;
    const updatesBefore = updates();
    expect((await deliver('check_run', world.github.payloads.checkRun(failing.id))).status).toBe(202);
    // The same failure reported again as its workflow run is the same decision, not a second round.
    expect((await deliver('workflow_run', world.github.payloads.workflowRun(failing.runId))).status).toBe(202);
    await world.slack.waitFor(() => updates() === updatesBefore + 1, 150_000);
    expect(branchLog().length).toBe(commitsBefore + 1);
    expect(branchLog()[0]).toMatch(/^Fix the failing CI check test on pull request #\d+/);
    const fixRequest = world.anthropic.requests.find((r) => JSON.stringify(r.body).includes('failing CI check `test`'))!;
    expect(JSON.stringify(fixRequest.body)).toContain('expected \\"hello\\" to equal \\"hi there\\"');
    expect(threadTexts().some((t) => /`test` failed on .*Fix round 1 of 1/.test(t))).toBe(true);
    await waitUntil(() => world.github.issueComments.find((c) => c.user === 'wrench-test[bot]' && c.body.startsWith('Fix round 1 of 1')), 30_000);

    const agentCalls = world.anthropic.requests.length;
    const again = world.github.addCheckRun('acme', 'app', { name: 'test', headSha: await headSha(), conclusion: 'failure', log: 'FAIL again\n' });
    expect((await deliver('check_run', world.github.payloads.checkRun(again.id))).status).toBe(202);
    await threadReply(world, threadTs, /after 1 fix round/, 30_000);
    await waitUntil(() => world.github.issueComments.find((c) => c.user === 'wrench-test[bot]' && /after 1 fix round/.test(c.body)), 30_000);
    expect(world.anthropic.requests.length).toBe(agentCalls);
    expect(branchLog().length).toBe(commitsBefore + 1);
  });

  it('a check that fails on the base branch too gets no fix round, and a pull request Wrench did not open is ignored', async () => {
    const agentCalls = world.anthropic.requests.length;
    const baseSha = (await world.github.branchSha('acme', 'app', 'main'))!;
    world.github.addCheckRun('acme', 'app', { name: 'lint', headSha: baseSha, conclusion: 'failure', log: 'lint broke on main\n' });
    const lint = world.github.addCheckRun('acme', 'app', { name: 'lint', headSha: await headSha(), conclusion: 'failure', log: 'lint broke\n' });
    expect((await deliver('check_run', world.github.payloads.checkRun(lint.id))).status).toBe(202);
    await threadReply(world, threadTs, /`lint` failed on .*fails on `main`/, 30_000);

    await world.github.commit('acme', 'app', 'someone-else', { message: 'Other work', files: { 'src/other.js': 'export const o = 1;\n' } });
    const foreign = await world.github.createPull('acme', 'app', { title: 'Other work', head: 'someone-else', user: 'octocat' });
    const review = await person('ghp_alice').pulls.createReview({
      owner: 'acme',
      repo: 'app',
      pull_number: Number(foreign.number),
      event: 'COMMENT',
      comments: [{ path: 'src/other.js', line: 1, body: 'rename o' }],
    });
    const comment = world.github.reviewComments.find((c) => c.reviewId === review.data.id)!;
    const delivery = await deliver('pull_request_review_comment', world.github.payloads.reviewComment(comment.id));
    expect(delivery.status).toBe(200);
    expect(JSON.parse(delivery.body)).toMatchObject({ status: 'ignored', reason: expect.stringMatching(/not a pull request Wrench opened/) });
    expect(world.anthropic.requests.length).toBe(agentCalls);
  });

  it('merging the pull request closes the thread: it says so, and GitHub events on it are no longer acted on', async () => {
    await world.github.mergePull('acme', 'app', pullNumber, { login: 'alice' });
    expect((await deliver('pull_request', world.github.payloads.pullClosed('acme', 'app', pullNumber, 'alice'))).status).toBe(202);
    await threadReply(world, threadTs, /was merged by @alice/, 30_000);
    const posted = await person('ghp_alice').issues.createComment({
      owner: 'acme',
      repo: 'app',
      issue_number: pullNumber,
      body: '@wrench-test one more thing',
    });
    const late = await deliver('issue_comment', world.github.payloads.issueComment(posted.data.id));
    expect(late.status).toBe(200);
    expect(JSON.parse(late.body)).toMatchObject({ status: 'ignored' });

    // A later mention in the thread is new work: a new branch and pull request.
    world.anthropic.setScript(
      scriptByRun({ 'farewell module': [createFileStep('src/farewell.js', "export const bye = () => 'bye';\n"), finishStep('Added farewell.')] }).items,
    );
    await world.slack.deliverEvent(
      world.eventsUrl(),
      SIGNING_SECRET,
      appMentionEnvelope({
        channel: 'C0DEV',
        user: 'U0ALICE',
        text: '<@U0BOT> add a farewell module in src/farewell.js exporting `bye`.',
        thread_ts: threadTs,
      }),
    );
    // Both runs asked in Slack answered in their own streamed message (the default), each opening a pull request.
    const opened = () => world.slack.streamsIn('C0DEV', threadTs).filter((s) => s.state === 'stopped' && /Opened \[PR #/.test(streamText(s)));
    await world.slack.waitFor(() => opened().length === 2, 150_000);
    const wrenchPulls = world.github.pulls('acme', 'app').filter((p) => p.user === 'wrench-test[bot]');
    expect(wrenchPulls).toHaveLength(2);
    expect(wrenchPulls[1]!.headRef).not.toBe(wrenchPulls[0]!.headRef);
  });

  it("an issue labelled `wrench` (GitHub's own example payload) gets a Slack thread, a run, and a pull request that closes it, answered on the issue", async () => {
    const issue = world.github.createIssue('acme', 'app', {
      title: 'issue-marker: export a greeting',
      body: 'We need src/greet.js exporting `greet`.',
      user: 'alice',
    });
    world.anthropic.setScript(
      scriptByRun({ 'issue-marker': [createFileStep('src/greet.js', "export const greet = () => 'hi';\n"), finishStep('Added greet.')] }).items,
    );
    const example = examples.find((e) => e.name === 'issues')?.examples.find((e) => e.action === 'labeled') as Record<string, any>;
    const payload = {
      ...example,
      label: { ...example.label, name: 'wrench' },
      issue: {
        ...example.issue,
        number: issue.number,
        state: 'open',
        title: issue.title,
        body: issue.body,
        html_url: `https://github.com/acme/app/issues/${issue.number}`,
      },
      repository: { ...example.repository, name: 'app', full_name: 'acme/app', owner: { ...example.repository.owner, login: 'acme' } },
      sender: { ...example.sender, login: 'alice', type: 'User' },
    };
    expect((await deliver('issues', payload, { deliveryId: 'issue-labelled' })).status).toBe(202);
    const root = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.channel === 'C0DEV' && /asked me to work on/.test(String(c.args.text)),
      60_000,
    );
    const issueThread = world.slack.messages('C0DEV').find((m) => m.text === root.args.text)?.ts ?? '';
    const reply = await threadReply(world, issueThread, /Opened PR #/, 150_000);
    const pull = world.github.pulls('acme', 'app').find((p) => p.headRef !== undefined && p.body?.includes(`Closes #${issue.number}`));
    expect(pull, reply.text).toBeDefined();
    expect(pull?.user).toBe('wrench-test[bot]');
    // On the issue: the "working on it" note became the answer, naming what changed.
    const answer = await waitUntil(() => world.github.issueComments.find((c) => c.issue === issue.number && c.body.includes('src/greet.js')), 30_000);
    expect(answer.body).toMatch(/^@alice /);
    expect(world.github.issueComments.filter((c) => c.issue === issue.number)).toHaveLength(1);
  });

  it('a fix round on the pull request made for an issue refreshes its body and keeps `Closes #N`, so merging it still closes the issue', async () => {
    const pull = world.github.pulls('acme', 'app').find((p) => p.state === 'open' && p.user === 'wrench-test[bot]' && /Closes #\d+/.test(p.body ?? ''))!;
    const closes = /Closes #\d+/.exec(pull.body ?? '')![0];
    world.anthropic.setScript(
      scriptByRun({ 'failing CI check `issue-unit`': [createFileStep('src/greet.test.js', '// covers greet\n'), finishStep('Fixed the issue-unit check.')] })
        .items,
    );
    const failing = world.github.addCheckRun('acme', 'app', {
      name: 'issue-unit',
      headSha: (await world.github.branchSha('acme', 'app', pull.headRef))!,
      conclusion: 'failure',
      log: 'FAIL src/greet.test.js: greet is not a function\n',
    });
    expect((await deliver('check_run', world.github.payloads.checkRun(failing.id), { deliveryId: 'issue-fix-round' })).status).toBe(202);
    const body = await waitUntil(() => {
      const now = world.github.pulls('acme', 'app').find((p) => p.number === pull.number)?.body ?? '';
      return now.includes('issue-unit') || now.includes('src/greet.test.js') ? now : undefined;
    }, 150_000);
    expect(body).toContain(closes);
  });

  it("@wrench-test on someone else's pull request: a Slack thread follows it and the change is pushed to that pull request's own branch", async () => {
    await world.github.commit('acme', 'app', 'alice-feature', { message: 'Alice starts a feature', files: { 'src/feature.js': 'export const f = 1;\n' } });
    const description = 'Alice describes her feature here.';
    const theirs = await world.github.createPull('acme', 'app', { title: 'Alice feature', head: 'alice-feature', user: 'alice', body: description });
    const number = Number(theirs.number);
    world.anthropic.setScript(scriptByRun({ 'guest-marker': [createFileStep('src/feature.test.js', '// tests for f\n'), finishStep('Added tests.')] }).items);
    const asked = await person('ghp_alice').issues.createComment({
      owner: 'acme',
      repo: 'app',
      issue_number: number,
      body: '@wrench-test guest-marker: add src/feature.test.js',
    });
    expect((await deliver('issue_comment', world.github.payloads.issueComment(asked.data.id), { deliveryId: 'guest-pull' })).status).toBe(202);
    const root = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.channel === 'C0DEV' && /asked me on/.test(String(c.args.text)),
      60_000,
    );
    expect(String(root.args.text)).toContain('branch `alice-feature`');
    // Answered on her pull request once done; pushed to her branch, no new pull request.
    const answer = await waitUntil(
      () => world.github.issueComments.find((c) => c.issue === number && c.user !== 'alice' && c.body.includes('src/feature.test.js')),
      150_000,
    );
    expect(answer.body).toMatch(/^@alice /);
    expect(world.github.pulls('acme', 'app').filter((p) => p.headRef === 'alice-feature')).toHaveLength(1);
    // Her description is hers: never rewritten (Wrench's answer is the comment above).
    expect(world.github.pulls('acme', 'app').find((p) => p.number === number)?.body).toBe(description);
    expect(world.github.requests.filter((r) => r.method === 'PATCH' && r.path === `/repos/acme/app/pulls/${number}`)).toEqual([]);
    const files = execFileSync('git', ['--git-dir', world.github.gitDir('acme', 'app'), 'ls-tree', '-r', '--name-only', 'alice-feature'], { encoding: 'utf8' });
    expect(files).toContain('src/feature.test.js');
    expect(files).toContain('src/feature.js');
  });

  it("@wrench-test on a pull request from a fork: a copy of its branch here, and a pull request against main with the fork's commits and Wrench's", async () => {
    await world.github.commit('acme', 'app', 'octo-fork-work', { message: 'Fork work', files: { 'src/fork.js': 'export const k = 1;\n' } });
    const forked = await world.github.createPull('acme', 'app', { title: 'From a fork', head: 'octo-fork-work', user: 'octocat', headRepo: 'octocat/app' });
    const number = Number(forked.number);
    world.anthropic.setScript(scriptByRun({ 'fork-marker': [createFileStep('src/fork.test.js', '// tests for k\n'), finishStep('Added fork tests.')] }).items);
    const asked = await person('ghp_alice').issues.createComment({
      owner: 'acme',
      repo: 'app',
      issue_number: number,
      body: '@wrench-test fork-marker: add src/fork.test.js',
    });
    expect((await deliver('issue_comment', world.github.payloads.issueComment(asked.data.id), { deliveryId: 'fork-pull' })).status).toBe(202);
    const answer = await waitUntil(
      () => world.github.issueComments.find((c) => c.issue === number && c.user !== 'alice' && c.body.includes('src/fork.test.js')),
      150_000,
    );
    const opened = world.github.pulls('acme', 'app').find((p) => p.headRef.startsWith(`wrench/pr-${number}-`));
    expect(opened?.baseRef).toBe('main');
    expect(answer.body).toContain(`I opened pull request #${opened?.number}`);
    const files = execFileSync('git', ['--git-dir', world.github.gitDir('acme', 'app'), 'ls-tree', '-r', '--name-only', opened?.headRef ?? ''], {
      encoding: 'utf8',
    });
    expect(files).toContain('src/fork.js');
    expect(files).toContain('src/fork.test.js');
    // The fork's own branch is untouched.
    const forkFiles = execFileSync('git', ['--git-dir', world.github.gitDir('acme', 'app'), 'ls-tree', '-r', '--name-only', 'octo-fork-work'], {
      encoding: 'utf8',
    });
    expect(forkFiles).not.toContain('src/fork.test.js');
  });
});

async function waitUntil<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

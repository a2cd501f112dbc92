import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForTaskQueue } from '../helpers/thread-settled.js';
import { deliverGitHubWebhook } from '../fakes/github-webhook-sender.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { bashStep, createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/app }
sandbox: { mode: bwrap }
# The card surface: cancelling from the status card (its Cancel button, its progress line, its Cancelled edit).
slack: { streamRuns: false }
`;
const WEBHOOK_SECRET = 'e2e-github-webhook-secret';

/** What a cancel and a merge do to a thread's open pull request, and what the thread is told. */
describe('a cancel or a merge while a follow-up runs on an open pull request', () => {
  let world: E2eWorld;
  let threadTs: string;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'app', { 'README.md': '# app\n', 'src/index.js': 'export const a = 1;\n' });
    await world.start({ GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET });
    world.anthropic.setScript(
      scriptByRun({
        'greeting module': [createFileStep('src/greeting.js', "export const greet = () => 'hi';\n"), finishStep('Added the greeting module.')],
        'half-done follow-up': [createFileStep('src/half.js', 'export const half = 1;\n'), bashStep('sleep 60'), finishStep('never')],
        'merged meanwhile': [createFileStep('src/late.js', 'export const late = 1;\n'), bashStep('sleep 60'), finishStep('never')],
      }).items,
    );
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> greeting module: add src/greeting.js exporting `greet`.' });
    threadTs = (envelope.event as { ts: string }).ts;
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && /Opened PR #/.test(String(c.args.text)), 150_000);
  });

  afterAll(async () => {
    await world?.stop();
  });

  const threadTexts = () =>
    world.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.args.thread_ts === threadTs)
      .map((c) => String(c.args.text));
  const mention = (text: string) =>
    world.slack.deliverEvent(
      world.eventsUrl(),
      SIGNING_SECRET,
      appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> ${text}`, thread_ts: threadTs }),
    );
  const sleeping = () => world.slack.calls.filter((c) => c.method === 'chat.update' && String(c.args.text).includes('sleep 60')).length;
  /** Waits until the run's agent is in its `sleep 60` step (a new status update says so). */
  const working = async (seen: number) => world.slack.waitFor(() => sleeping() > seen, 60_000);

  it('cancelling a follow-up leaves the ready pull request untouched, pushes nothing and says exactly that', async () => {
    const pull = world.github.pulls('acme', 'app')[0];
    const headBefore = await world.github.branchSha('acme', 'app', pull!.headRef);
    const seen = sleeping();
    await mention('half-done follow-up: also add src/half.js');
    await working(seen);
    await mention('stop');
    const reply = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && /Cancelled by/.test(String(c.args.text)),
      30_000,
    );
    const text = String(reply.args.text);
    expect(text).toContain(`Nothing was pushed: \`${pull!.headRef}\` and its pull request are as they were before this run`);
    expect(text).not.toMatch(/draft/i);
    // No commit holds the discarded file: the reply lists no changes.
    expect(text).not.toContain('src/half.js');
    expect(text).not.toContain('Changes (from the committed diff)');
    expect(await world.github.branchSha('acme', 'app', pull!.headRef)).toBe(headBefore);
    expect(world.github.pulls('acme', 'app')[0]!.draft).toBe(false);
    expect(world.github.pulls('acme', 'app')).toHaveLength(1);
  });

  it('a merge while a follow-up runs cancels it without pushing, and the thread gets one message', async () => {
    const pull = world.github.pulls('acme', 'app')[0];
    const headBefore = await world.github.branchSha('acme', 'app', pull!.headRef);
    const seen = sleeping();
    await mention('merged meanwhile: also add src/late.js');
    await working(seen);
    const before = threadTexts().length;
    await world.github.mergePull('acme', 'app', pull!.number, { login: 'alice' });
    const delivery = await deliverGitHubWebhook(
      `${world.wrench!.url}/github/webhook`,
      'pull_request',
      world.github.payloads.pullClosed('acme', 'app', pull!.number, 'alice'),
      {
        secret: WEBHOOK_SECRET,
      },
    );
    expect(delivery.status).toBe(202);
    const cancelledBefore = world.slack.calls.filter((c) => c.method === 'chat.update' && /Cancelled/.test(String(c.args.text))).length;
    await world.slack.waitFor(
      () => world.slack.calls.filter((c) => c.method === 'chat.update' && /Cancelled/.test(String(c.args.text))).length > cancelledBefore,
      30_000,
    );
    // Nothing more can come: no job runs or waits, and the thread's outbox is empty.
    const redis = new Redis(world.redis.url);
    try {
      await waitForTaskQueue(redis, world.env.WRENCH_QUEUE_PREFIX!, { channel: 'C0DEV', threadTs }, (s) => s.active + s.waiting === 0 && s.outbox === 0);
    } finally {
      redis.disconnect();
    }
    const after = threadTexts().slice(before);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatch(/was merged by @alice/);
    expect(await world.github.branchSha('acme', 'app', pull!.headRef)).toBe(headBefore);
    expect(world.github.pulls('acme', 'app')).toHaveLength(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { RecordedRequest } from '../fakes/anthropic-fake.js';
import { appHomeOpenedEnvelope, appMentionEnvelope, homeActionPayload } from '../fakes/slack-fake.js';
import { freePort } from '../helpers/free-port.js';
import { RunLogStore } from '../../src/run-log/run-log-store.js';
import { ThreadSessionStore } from '../../src/sessions/thread-session-store.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { bashStep, createFileStep, finishStep } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/web }
sandbox: { mode: none }
# The card surface: the status card's run page link and its edits after actions taken on the run page.
slack: { streamRuns: false }
`;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const asText = (request: RecordedRequest) => JSON.stringify((request.body as { messages: unknown[] }).messages);

describe('stopping and steering a running run from its page', () => {
  let world: E2eWorld;
  let browser: Browser;
  let publicUrl: string;
  const contexts: BrowserContext[] = [];
  const gates: Array<() => void> = [];

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'web', { 'README.md': '# web\n', 'src/index.js': 'export const a = 1;\n' });
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    [browser] = await Promise.all([
      chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }),
      world.start({ PORT: String(port), WRENCH_PUBLIC_URL: publicUrl, SLACK_CLIENT_ID: '1234.5678', SLACK_CLIENT_SECRET: 'slack-client-secret-0123456789' }),
    ]);
    world.slack.addChannel({ id: 'C0DEV', is_private: true, members: ['U0ALICE', world.slack.botUserId] });
  }, 90_000);

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    for (const open of gates) open();
    for (const context of contexts) await context.close();
    await browser?.close();
    await world?.stop();
  });

  /** A model call that waits until the test opens its gate, so the run is still working meanwhile. */
  const gated = <T>(reply: T) => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    gates.push(open);
    return { open, step: async () => (await opened, reply) };
  };

  /** Mentions Wrench; resolves with the thread and the run's id once its status message links the page. */
  const startRun = async (text: string) => {
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> ${text}` });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const threadTs = (envelope.event as { ts: string }).ts;
    const status = await world.slack.waitFor(
      (c) =>
        c.method === 'chat.update' &&
        /Working/.test(String(c.args.text)) &&
        JSON.stringify(c.args).includes(threadTs) &&
        JSON.stringify(c.args).includes('/runs/'),
      60_000,
    );
    const runId = /\/runs\/([A-Za-z0-9_.-]+)\?expires=/.exec(JSON.stringify(status.args))![1]!;
    return { threadTs, runId };
  };

  /** A browser signed in with Slack as `user`, on the run's page (no signed link). */
  const openAs = async (user: string, runId: string): Promise<{ context: BrowserContext; page: Page; status: number | undefined }> => {
    world.slack.signInAs(user);
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const response = await page.goto(`${publicUrl}/runs/${runId}`);
    return { context, page, status: response?.status() };
  };

  const threadSays = (threadTs: string, pattern: RegExp) =>
    world.slack
      .callsTo('chat.postMessage')
      .concat(world.slack.callsTo('chat.update'))
      .filter((c) => JSON.stringify(c.args).includes(threadTs) && pattern.test(String(c.args.text)));

  it('the requester steers the run from the page: the agent reads it at its next model call and the thread shows who sent what', async () => {
    const first = gated(createFileStep('src/a.js', 'export const a = 2;\n'));
    world.anthropic.setScript([first.step, createFileStep('docs/b.md', '# b\n'), finishStep('Changed a and added docs/b.md.')]);
    const { threadTs, runId } = await startRun('page steer: set a to 2 in src/index.js');

    const { page, status } = await openAs('U0ALICE', runId);
    expect(status).toBe(200);
    expect(await page.locator('#status').textContent()).toBe('Running');
    expect(await page.locator('#stop-run').count()).toBe(1);
    await page.locator('#steer-text').fill('also add docs/b.md <script>alert(1)</script> @channel');
    await Promise.all([page.waitForURL(/\?done=steer$/), page.locator('#steer-run').click()]);
    expect(await page.locator('#action-done').textContent()).toContain('reads it before its next model call');

    const told = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && /from the run page/.test(String(c.args.text)),
      15_000,
    );
    const toldText = String(told.args.text);
    expect(toldText).toContain('<@U0ALICE> wrote to the running agent from the run page');
    expect(toldText).toContain('> also add docs/b.md &lt;script&gt;alert(1)&lt;/script&gt; @channel');
    expect(toldText).toContain('reads this before its next model call');

    first.open();
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && /Opened PR #/.test(String(c.args.text)), 90_000);
    const requests = world.anthropic.requests.filter((r) => asText(r).includes('page steer'));
    expect(asText(requests[0]!)).not.toContain('also add docs/b.md');
    expect(asText(requests[1]!)).toContain('also add docs/b.md');
    expect(asText(requests[1]!)).toContain('From the requester');
    // Once the run is over the page follows it there and offers nothing more.
    await page.locator('#status', { hasText: 'pull request' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('#actions').count()).toBe(0);
  });

  it('once the agent made its last model call the page offers Stop but no longer the message form', async () => {
    const last = gated(finishStep('Nothing to change.'));
    world.anthropic.setScript([last.step]);
    const { threadTs, runId } = await startRun('page done: check README.md');
    const redis = new Redis(world.redis.url);
    const sessions = new ThreadSessionStore(redis, world.env.WRENCH_QUEUE_PREFIX!);
    try {
      const { page } = await openAs('U0ALICE', runId);
      expect(await page.locator('#steer-run').count()).toBe(1);
      // The state the worker records after the agent's last model call, while the run checks and publishes.
      await sessions.update('C0DEV', threadTs, (current) =>
        current ? { ...current, runs: current.runs.map((r) => (r.jobId === runId ? { ...r, agentDone: true as const } : r)) } : null,
      );
      await page.reload();
      expect(await page.locator('#status').textContent()).toBe('Running');
      expect(await page.locator('#stop-run').count()).toBe(1);
      expect(await page.locator('#steer-run').count()).toBe(0);
    } finally {
      last.open();
      sessions.close();
      redis.disconnect();
    }
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && /Nothing to change/.test(String(c.args.text)), 90_000);
  });

  it('a non-member gets 403 and cannot stop it, forged forms are refused, and the requester stops it from the page; the thread says who', async () => {
    const waiting = gated(bashStep('echo never-runs'));
    world.anthropic.setScript([waiting.step, finishStep('not reached')]);
    const { threadTs, runId } = await startRun('page stop: add a comment above the constant in src/index.js saying what it is for');
    const stopUrl = `${publicUrl}/runs/${runId}/stop`;

    const alice = await openAs('U0ALICE', runId);
    const token = await alice.page.locator('form.stop input[name=token]').getAttribute('value');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Bob, of the workspace but not of the conversation: neither the page nor the form, even with Alice's token.
    const bob = await openAs('U0BOB', runId);
    expect(bob.status).toBe(403);
    const bobPost = await bob.context.request.post(stopUrl, { form: { token: token! }, headers: { origin: publicUrl }, maxRedirects: 0 });
    expect(bobPost.status()).toBe(403);
    expect(await bobPost.text()).toContain('not a member');
    // Alice's session, but a form from elsewhere or without her token for this run: refused.
    const elsewhere = await alice.context.request.post(stopUrl, { form: { token: token! }, headers: { origin: 'https://evil.example' }, maxRedirects: 0 });
    expect(elsewhere.status()).toBe(403);
    const forged = await alice.context.request.post(stopUrl, { form: { token: 'x'.repeat(43) }, headers: { origin: publicUrl }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain('Reload the page');
    // No session at all.
    const anonymous = await fetch(stopUrl, {
      method: 'POST',
      headers: { origin: publicUrl, 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${token}`,
      redirect: 'manual',
    });
    expect(anonymous.status).toBe(403);
    expect(threadSays(threadTs, /Cancelled/)).toHaveLength(0);
    expect(await alice.page.reload().then(() => alice.page.locator('#status').textContent())).toBe('Running');

    await Promise.all([alice.page.waitForURL(/\?done=stop$/), alice.page.locator('#stop-run').click()]);
    expect(await alice.page.locator('#action-done').textContent()).toContain('You asked to stop this run');
    await world.slack.waitFor((c) => JSON.stringify(c.args).includes(threadTs) && /Cancelled by <@U0ALICE> on the run page/.test(String(c.args.text)), 30_000);
    await alice.page.locator('#status', { hasText: 'Cancelled' }).waitFor({ timeout: 30_000 });
    expect(world.anthropic.requests.filter((r) => asText(r).includes('page stop'))).toHaveLength(1);
  });

  it('App Home: a running run has a Cancel button that stops that run (the thread says who, from where); a filter by outcome finds it cancelled', async () => {
    const waiting = gated(bashStep('echo never-runs'));
    world.anthropic.setScript([waiting.step, finishStep('not reached')]);
    const { threadTs, runId } = await startRun('home cancel: add a comment above the constant in src/index.js saying what it is for');
    type Block = { type: string; text?: { text: string }; elements?: Array<{ action_id?: string; value?: string }> };
    const published = async (pattern: RegExp) => {
      const call = await world.slack.waitFor(
        (c) => c.method === 'views.publish' && c.args.user_id === 'U0ALICE' && pattern.test(JSON.stringify(c.args.view)),
        20_000,
      );
      const view = (typeof call.args.view === 'string' ? JSON.parse(call.args.view) : call.args.view) as { private_metadata: string; blocks: Block[] };
      return { view, text: JSON.stringify(view.blocks) };
    };

    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, appHomeOpenedEnvelope({ user: 'U0ALICE' }));
    const home = await published(/Running now/);
    expect(home.text).toContain('home cancel');
    const cancel = home.view.blocks.flatMap((b) => b.elements ?? []).find((e) => e.action_id === 'wrench_home_cancel' && e.value?.includes(runId));
    expect(cancel, home.text).toBeDefined();

    const press = (payload: Parameters<typeof homeActionPayload>[0]) =>
      world.slack.deliverInteraction(world.eventsUrl(), SIGNING_SECRET, homeActionPayload(payload));
    await press({ user: 'U0ALICE', action_id: 'wrench_home_cancel', value: cancel!.value, private_metadata: home.view.private_metadata });
    await world.slack.waitFor((c) => JSON.stringify(c.args).includes(threadTs) && /Cancelled by <@U0ALICE> from App Home/.test(String(c.args.text)), 30_000);
    const after = await published(/Cancel requested/);
    expect(after.text).toContain('the run stops before its next step');
    expect(world.anthropic.requests.filter((r) => asText(r).includes('home cancel'))).toHaveLength(1);

    // Filtered by outcome, the run is among the cancelled ones, and the filter is kept in the view.
    const redis = new Redis(world.redis.url);
    const runLog = new RunLogStore(redis, world.env.WRENCH_QUEUE_PREFIX!, { retentionDays: 30 });
    for (let tries = 0; (await runLog.get(runId))?.status !== 'cancelled' && tries < 200; tries++) await new Promise((r) => setTimeout(r, 100));
    redis.disconnect();
    await press({ user: 'U0ALICE', action_id: 'wrench_home_outcome', selected: 'cancelled', private_metadata: after.view.private_metadata });
    const cancelled = await published(/Matching runs/);
    expect(cancelled.text).toContain('home cancel');
    expect(cancelled.text).not.toContain('page steer');
    expect(JSON.parse(cancelled.view.private_metadata)).toMatchObject({ o: 'cancelled', p: 0 });
  });
});

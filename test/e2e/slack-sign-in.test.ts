import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import pino from 'pino';
import { chromium, type Browser } from 'playwright-core';
import { freePort } from '../helpers/free-port.js';
import { RunLogStore } from '../../src/run-log/run-log-store.js';
import { RunRecorder } from '../../src/run-log/run-recorder.js';
import { createRedactor } from '../../src/security/redact.js';
import { createE2eWorld, type E2eWorld } from './e2e-world.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/web }
sandbox: { mode: none }
`;
const CLIENT_SECRET = 'slack-client-secret-0123456789';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

describe('Sign in with Slack for run pages', () => {
  let world: E2eWorld;
  let browser: Browser;
  let publicUrl: string;
  let runId: string;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    [browser] = await Promise.all([
      chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }),
      world.start({ PORT: String(port), WRENCH_PUBLIC_URL: publicUrl, SLACK_CLIENT_ID: '1234.5678', SLACK_CLIENT_SECRET: CLIENT_SECRET }),
    ]);
    world.slack.addChannel({ id: 'C0DEV', is_private: true, members: ['U0ALICE', world.slack.botUserId] });
    // A finished run, written as a worker writes it.
    const redis = new Redis(world.redis.url);
    const recorder = await RunRecorder.start(
      new RunLogStore(redis, world.env.WRENCH_QUEUE_PREFIX!, { retentionDays: 30 }),
      createRedactor(),
      { id: 'wrench-EvSIGNIN', repository: 'acme/web', instruction: 'add a changelog entry', category: 'feature', requester: 'U0ALICE', channel: 'C0DEV' },
      { maxBytes: 1 << 20 },
      pino({ level: 'silent' }),
    );
    recorder.agentEvent({
      type: 'tool_result',
      step: 1,
      detail: 'cat',
      call: { id: 't', name: 'bash', input: { command: 'cat CHANGELOG.md' }, output: '# Changes', isError: false },
    });
    recorder.finish({ status: 'answered', repository: 'acme/web', instruction: 'x', filesChanged: [], durationMs: 1, answer: 'Nothing to change.' });
    await recorder.flush();
    redis.disconnect();
    runId = recorder.id;
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await world?.stop();
  });

  /** A fresh browser, signed in at Slack as `user`, opening the run's page without a signed link. */
  const openRunAs = async (user: string, team?: string) => {
    world.slack.signInAs(user, team);
    const context = await browser.newContext();
    const page = await context.newPage();
    return { context, page, response: await page.goto(`${publicUrl}/runs/${runId}`) };
  };

  it('a person of the workspace without a signed link signs in with Slack and sees the run', async () => {
    const { context, page, response } = await openRunAs('U0ALICE');
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`${publicUrl}/runs/${runId}`);
    expect(await page.locator('.tool-entry pre.command').textContent()).toBe('cat CHANGELOG.md');
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'wrench_run_session', httpOnly: true, sameSite: 'Lax' });
    const token = world.slack.callsTo('openid.connect.token')[0]!;
    expect(token.args).toMatchObject({ client_id: '1234.5678', redirect_uri: `${publicUrl}/auth/slack/callback` });
    // The session opens other runs' pages too, without going back to Slack.
    const calls = world.slack.callsTo('openid.connect.token').length;
    expect((await page.goto(`${publicUrl}/runs/${runId}`))?.status()).toBe(200);
    expect(world.slack.callsTo('openid.connect.token').length).toBe(calls);
    await context.close();
  });

  it('a signed-in reader of a live run sees each step once, and a new step once more when it comes', async () => {
    const redis = new Redis(world.redis.url);
    const recorder = await RunRecorder.start(
      new RunLogStore(redis, world.env.WRENCH_QUEUE_PREFIX!, { retentionDays: 30 }),
      createRedactor(),
      { id: 'wrench-EvLIVE', repository: 'acme/web', instruction: 'add a changelog entry', category: 'feature', requester: 'U0ALICE', channel: 'C0DEV' },
      { maxBytes: 1 << 20 },
      pino({ level: 'silent' }),
    );
    const step = (n: number, command: string) =>
      recorder.agentEvent({
        type: 'tool_result',
        step: n,
        detail: 'cmd',
        call: { id: `t${n}`, name: 'bash', input: { command }, output: 'ok', isError: false },
      });
    step(1, 'echo one-live');
    step(2, 'echo two-live');
    await recorder.flush();
    try {
      world.slack.signInAs('U0ALICE');
      const context = await browser.newContext();
      const page = await context.newPage();
      expect((await page.goto(`${publicUrl}/runs/${recorder.id}`))?.status()).toBe(200);
      const commands = () => page.locator('.tool-entry pre.command').allTextContents();
      // Long enough for the live stream to have answered more than once.
      await page.waitForTimeout(3000);
      expect(await commands()).toEqual(['echo one-live', 'echo two-live']);
      step(3, 'echo three-live');
      await recorder.flush();
      await page.locator('.tool-entry pre.command', { hasText: 'echo three-live' }).first().waitFor({ timeout: 15_000 });
      await page.waitForTimeout(1500);
      expect(await commands()).toEqual(['echo one-live', 'echo two-live', 'echo three-live']);
      await context.close();
    } finally {
      redis.disconnect();
    }
  }, 60_000);

  it('a person of the workspace who is not in the channel the run was asked in gets 403 and none of the run', async () => {
    const { context, page, response } = await openRunAs('U0BOB');
    expect(response?.status()).toBe(403);
    expect(await page.locator('body').textContent()).toContain('not a member');
    expect(await page.content()).not.toContain('CHANGELOG');
    expect(world.slack.callsTo('conversations.members').at(-1)?.args).toMatchObject({ channel: 'C0DEV' });
    await context.close();
  });

  it('someone from another workspace, a refusal at Slack and a forged state get 403 and no content', async () => {
    const { context, page, response } = await openRunAs('U0EVE', 'T0OTHER');
    expect(response?.status()).toBe(403);
    expect(await page.locator('body').textContent()).toContain('not signed in to the Slack workspace');
    expect(await context.cookies()).toHaveLength(0);

    world.slack.signInAs(undefined);
    expect((await page.goto(`${publicUrl}/runs/${runId}`))?.status()).toBe(403);
    expect(await page.locator('body').textContent()).toContain('access_denied');

    const forged = await fetch(`${publicUrl}/auth/slack/callback?code=abc&state=eyJyIjoiL3J1bnMveCJ9.forged`, { redirect: 'manual' });
    expect(forged.status).toBe(403);
    expect(await forged.text()).not.toContain('CHANGELOG');
    await context.close();
  });
});

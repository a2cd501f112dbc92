import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { chromium, type Browser } from 'playwright-core';
import { appHomeOpenedEnvelope, appMentionEnvelope } from '../fakes/slack-fake.js';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { freePort } from '../helpers/free-port.js';
import { startPrometheusScraper, type PrometheusServer } from '../helpers/prometheus-server.js';
import { RunLinks } from '../../src/run-log/run-links.js';
import { ANTHROPIC_KEY, BOT_TOKEN, createE2eWorld, GITHUB_TOKEN, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { hostileCommands } from './hostile-commands.js';
import { bashStep, createFileStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/web, baseBranch: main }
repos: [acme/*]
access: { admins: [U0ADMIN] }
sandbox: { mode: bwrap }
# The card surface: the status card's link to the run page and its Working/Done edits.
slack: { streamRuns: false }
`;

const LINK_SECRET = 'run-link-secret-for-e2e-0123456789';
const METRICS_TOKEN = 'metrics-token-e2e-abcdefghijklmnop';
const SECRETS = [BOT_TOKEN, GITHUB_TOKEN, ANTHROPIC_KEY, SIGNING_SECRET, LINK_SECRET, METRICS_TOKEN];
const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-artifacts');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const finish = (summary: string, verification = 'node --test passed') =>
  toolUseResponse([{ name: 'finish_task', input: { summary, verification, filesChanged: [], openQuestions: [] } }]);

describe('run pages, App Home and metrics', () => {
  let world: E2eWorld;
  let browser: Browser;
  let prometheus: PrometheusServer;
  let redis: Redis;
  let publicUrl: string;
  let finishedLink: string;
  let finishedId: string;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'web', {
      'package.json': JSON.stringify({ name: 'web', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }, null, 2),
      'src/format.js': 'export function formatBytes(n) {\n  return `${n} B`;\n}\n',
    });
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    [browser, prometheus] = await Promise.all([
      chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }),
      startPrometheusScraper({ host: `127.0.0.1:${port}`, path: '/metrics', bearerToken: METRICS_TOKEN }),
    ]);
    await world.start({ PORT: String(port), WRENCH_PUBLIC_URL: publicUrl, WRENCH_RUN_LINK_SECRET: LINK_SECRET, WRENCH_METRICS_TOKEN: METRICS_TOKEN });
    redis = new Redis(world.redis.url);
  }, 90_000);

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    redis?.disconnect();
    await Promise.all([browser?.close(), prometheus?.stop()]);
    await world?.stop();
  });

  it('a finished run: the thread links to its page, which shows the commands, a coloured diff and the verification, with no secret anywhere', async () => {
    const probes = hostileCommands(world.slack.apiUrl).slice(0, 5);
    world.anthropic.setScript(
      scriptByRun({
        'formatBytes zero': [
          toolUseResponse([{ name: 'bash', input: { command: 'cat src/format.js' } }], 'Let me read the formatter first.'),
          ...probes.map((p) => bashStep(p)),
          createFileStep(
            'src/format.test.js',
            "import test from 'node:test';\nimport assert from 'node:assert';\nimport { formatBytes } from './format.js';\n\ntest('formats zero bytes', () => assert.equal(formatBytes(0), '0 B'));\n",
          ),
          bashStep('node --test 2>&1 | tail -5'),
          finish(`Added a test for formatBytes. Also found ${GITHUB_TOKEN} and ${BOT_TOKEN}`, `token=${ANTHROPIC_KEY}`),
        ],
      }).items,
    );
    const envelope = appMentionEnvelope({
      channel: 'C0DEV',
      user: 'U0ALICE',
      text: '<@U0BOT> formatBytes zero: add a test for `formatBytes` in src/format.js covering 0 bytes. `npm test` must pass.',
    });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const reply = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Opened PR/.test(String(c.args.text)),
      150_000,
    );

    // The final reply and the status message both link to the run page.
    const replyJson = JSON.stringify(reply.args);
    const match = /(http:\/\/127\.0\.0\.1:\d+\/runs\/([A-Za-z0-9_.-]+)\?expires=\d+&(?:amp;)?sig=[A-Za-z0-9_-]+)/.exec(replyJson);
    expect(match, replyJson).not.toBeNull();
    finishedLink = match![1]!.replace('&amp;', '&');
    finishedId = match![2]!;
    // Reviewers on GitHub reach the run page from the pull request's body.
    const pull = world.github.pulls('acme', 'web').at(-1)!;
    const bodyLink = /\[Every step Wrench took in this run\]\((http:\/\/127\.0\.0\.1:\d+\/runs\/([A-Za-z0-9_.-]+)\?expires=\d+&sig=[A-Za-z0-9_-]+)\)/.exec(
      pull.body ?? '',
    );
    expect(bodyLink?.[2], pull.body ?? '').toBe(finishedId);
    expect((await fetch(bodyLink![1]!)).status).toBe(200);
    const status = await world.slack.waitFor((c) => c.method === 'chat.update' && String(c.args.text).includes('Done'), 20_000);
    expect(JSON.stringify(status.args)).toContain(`/runs/${finishedId}?expires=`);

    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const response = await page.goto(finishedLink);
    expect(response?.status()).toBe(200);
    await expect(page.locator('#status').textContent()).resolves.toContain('pull request opened');
    const commands = await page.locator('.tool-entry pre.command').allTextContents();
    expect(commands).toContain('cat src/format.js');
    expect(commands).toContain('node --test 2>&1 | tail -5');
    expect(await page.locator('.text-entry').first().textContent()).toContain('Let me read the formatter first.');
    // Diffs: the edit and the committed change, added lines coloured.
    expect(await page.locator('.edit-entry code').first().textContent()).toBe('src/format.test.js');
    const added = page.locator('.changes-entry pre.diff span.add', { hasText: "formatBytes(0), '0 B'" });
    expect(await added.count()).toBeGreaterThan(0);
    expect(await added.first().evaluate('(el) => getComputedStyle(el).backgroundColor')).not.toBe('rgba(0, 0, 0, 0)');
    // The verification, the phases with timings, the links to the thread and the PR, tokens and cost.
    expect(await page.locator('.verification-entry').first().textContent()).toMatch(/verification · passed/);
    // Its Markdown is rendered: the verdict in bold, the commands as a list with code.
    expect(await page.locator('.verification-entry .markdown strong').first().textContent()).toMatch(/^(passed|same as before|improved)$/);
    expect(await page.locator('.verification-entry .markdown li code').count()).toBeGreaterThan(0);
    // Each model call is a step with its latency and its own tokens.
    const turns = page.locator('.turn-entry');
    expect(await turns.count()).toBeGreaterThanOrEqual(probes.length + 4);
    expect(await turns.first().locator('.latency').textContent()).toMatch(/^\d+(\.\d)? m?s$/);
    expect(await turns.first().locator('.tokens').textContent()).toMatch(/^\d+ in( \(\d+ from cache\))? · \d+ out$/);
    expect(await page.locator('.phases').textContent()).toMatch(/working/);
    expect(await page.locator('.links a', { hasText: 'Pull request #' }).getAttribute('href')).toMatch(/\/pull\/\d+$/);
    expect(await page.locator('.facts').textContent()).toMatch(/Cost\$\d+\.\d\d/);
    // A command step carries how long it took, its exit code and an anchor to link to.
    const firstTool = page.locator('.tool-entry').first();
    expect(await firstTool.locator('.exit').textContent()).toMatch(/^exit \d+$/);
    expect(await firstTool.locator('.duration').textContent()).toMatch(/^\d+(\.\d)? m?s$/);
    const anchor = await firstTool.getAttribute('id');
    expect(anchor).toMatch(/^step-\d+-\d+$/);
    expect(await firstTool.locator('a.anchor').getAttribute('href')).toBe(`#${anchor}`);
    // The raw record, as JSON, by the page's own link; not without a signature.
    const rawHref = await page.locator('#raw-record').getAttribute('href');
    const raw = (await (await fetch(new URL(rawHref!, publicUrl))).json()) as {
      summary: { id: string; usage: { outputTokens: number } };
      entries: Array<{ kind: string; latencyMs?: number; usage?: { outputTokens: number } }>;
    };
    expect(raw.summary.id).toBe(finishedId);
    expect(raw.entries.some((e) => e.kind === 'tool')).toBe(true);
    // The record has every model call's own figures: they add up to the run's total, not to a running sum.
    const rawTurns = raw.entries.filter((e) => e.kind === 'turn');
    expect(rawTurns.length).toBe(await turns.count());
    expect(rawTurns.every((t) => typeof t.latencyMs === 'number' && t.latencyMs >= 0)).toBe(true);
    expect(rawTurns.reduce((sum, t) => sum + t.usage!.outputTokens, 0)).toBe(raw.summary.usage.outputTokens);
    expect((await fetch(`${publicUrl}/runs/${finishedId}/record.json`)).status).toBe(403);
    // Long outputs are folded.
    expect(await page.locator('.tool-entry details').count()).toBeGreaterThan(0);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'run-page.png'), fullPage: true });

    const html = await page.content();
    const keys = await redis.keys(`${world.env.WRENCH_QUEUE_PREFIX}:runlog:${finishedId}*`);
    const runKey = `${world.env.WRENCH_QUEUE_PREFIX}:runlog:${finishedId}`;
    expect(keys.sort()).toEqual([runKey, `${runKey}:counted`, `${runKey}:entries`]);
    expect(await redis.get(`${runKey}:counted`)).toBe('1');
    const stored = JSON.stringify([
      await redis.get(`${world.env.WRENCH_QUEUE_PREFIX}:runlog:${finishedId}`),
      await redis.lrange(`${world.env.WRENCH_QUEUE_PREFIX}:runlog:${finishedId}:entries`, 0, -1),
    ]);
    expect(stored).toContain('[redacted]');
    for (const secret of SECRETS) {
      expect(html).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
    expect(await redis.ttl(`${world.env.WRENCH_QUEUE_PREFIX}:runlog:${finishedId}`)).toBeGreaterThan(29 * 24 * 3600);
    await page.close();
  });

  it('a tampered or expired link gets 403 and none of the run', async () => {
    const tampered = finishedLink.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    const otherRun = finishedLink.replace(`/runs/${finishedId}`, `/runs/${finishedId}x`);
    const expired = `${publicUrl}${new RunLinks(LINK_SECRET, publicUrl, 0).pathFor(finishedId, Math.floor(Date.now() / 1000) - 60)}`;
    const unsigned = `${publicUrl}/runs/${finishedId}`;
    const page = await browser.newPage();
    for (const link of [tampered, otherRun, unsigned, expired]) {
      const response = await page.goto(link);
      expect(response?.status(), link).toBe(403);
      const text = await page.locator('body').textContent();
      expect(text).toMatch(/not valid|expired/);
      expect(text).not.toContain('formatBytes');
      const eventsUrl = new URL(link);
      eventsUrl.pathname += '/events';
      const events = await fetch(eventsUrl);
      expect(events.status).toBe(403);
    }
    expect(await page.locator('body').textContent()).toContain('expired');
    await page.close();
  });

  it('a running run’s page shows new steps without a reload', async () => {
    // The second step waits until the page is open, so the page can only show it by following the run.
    let pageOpened!: () => void;
    const opened = new Promise<void>((resolve) => (pageOpened = resolve));
    world.anthropic.setScript([
      bashStep('echo first-live-step'),
      async () => {
        await opened;
        return bashStep('echo second-live-step');
      },
      createFileStep('src/live.js', 'export const live = true;\n'),
      finish('Added src/live.js.'),
    ]);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> live steps: add src/live.js exporting `live = true`' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    // The status message carries the link while the run is going.
    const status = await world.slack.waitFor(
      (c) =>
        c.method === 'chat.update' && /Working/.test(String(c.args.text)) && JSON.stringify(c.args).includes(ts) && JSON.stringify(c.args).includes('/runs/'),
      60_000,
    );
    const link = /(http:\/\/127\.0\.0\.1:\d+\/runs\/[A-Za-z0-9_.-]+\?expires=\d+&(?:amp;)?sig=[A-Za-z0-9_-]+)/
      .exec(JSON.stringify(status.args))![1]!
      .replace('&amp;', '&');

    const page = await browser.newPage();
    let loads = 0;
    page.on('load', () => loads++);
    const response = await page.goto(link);
    expect(await page.locator('#status').textContent()).toBe('Running');
    // The page's script runs by a nonce fresh per response; no other inline script may run.
    const csp = response!.headers()['content-security-policy']!;
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/]{22}=='$/);
    const again = (await fetch(link)).headers.get('content-security-policy')!;
    expect(again.match(/nonce-(\S+)'/)![1]).not.toBe(csp.match(/nonce-(\S+)'/)![1]);
    const injectedRan = await page.evaluate(`(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.injected = "ran"';
      document.body.append(script);
      return document.body.dataset.injected === 'ran';
    })()`);
    expect(injectedRan).toBe(false);
    expect(await page.locator('#timeline').textContent()).not.toContain('second-live-step');
    pageOpened();
    await page.locator('.tool-entry pre.command', { hasText: 'echo second-live-step' }).waitFor({ timeout: 60_000 });
    await page.locator('#status', { hasText: 'pull request opened' }).waitFor({ timeout: 90_000 });
    expect(await page.locator('.edit-entry code', { hasText: 'src/live.js' }).count()).toBe(1);
    expect(loads).toBe(1);
    await page.close();
  });

  it('a triage is recorded too: its final status links to a page with its commands and verdict', async () => {
    world.anthropic.setScript([
      toolUseResponse([{ name: 'bash', input: { command: 'git log --oneline -5' } }], 'Looking at the recent history.'),
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            whatIsGoingOn: 'Sizes print as 0 B for large files.',
            verdict: 'No good lead yet',
            likelyCause: null,
            suspectCommits: [],
            ruledOut: [],
            nextSteps: ['Add a test for large sizes'],
          },
        },
      ]),
    ]);
    const envelope = appMentionEnvelope({
      channel: 'C0DEV',
      user: 'U0ALICE',
      text: '<@U0BOT> triage: file sizes show as 0 B on the downloads page since this morning',
    });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const done = await world.slack.waitFor(
      (c) =>
        (c.method === 'chat.update' || c.method === 'chat.postMessage') &&
        String(c.args.text).includes('Triage finished') &&
        JSON.stringify(c.args).includes('/runs/'),
      90_000,
    );
    const link = /(http:\/\/127\.0\.0\.1:\d+\/runs\/[A-Za-z0-9_.-]+\?expires=\d+&(?:amp;)?sig=[A-Za-z0-9_-]+)/
      .exec(JSON.stringify(done.args))![1]!
      .replace('&amp;', '&');
    expect(world.slack.messages('C0DEV', ts).length).toBeGreaterThan(0);
    const page = await browser.newPage();
    expect((await page.goto(link))?.status()).toBe(200);
    expect(await page.locator('.tool-entry pre.command').first().textContent()).toBe('git log --oneline -5');
    expect(await page.locator('.result').textContent()).toContain('No good lead yet');
    expect(await page.locator('.facts').textContent()).toContain('incident-triage');
    await page.close();
  });

  it('App Home: views.publish with the person’s runs after app_home_opened; admins also see the week per channel', async () => {
    const before = world.slack.callsTo('views.publish').length;
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, appHomeOpenedEnvelope({ user: 'U0ALICE' }));
    const home = await world.slack.waitFor((c) => c.method === 'views.publish' && c.args.user_id === 'U0ALICE', 20_000);
    const view = JSON.stringify(home.args.view);
    expect(view).toContain('"type":"home"');
    expect(view).toContain('formatBytes zero');
    expect(view).toContain('live steps');
    expect(view).toMatch(/\/runs\/[A-Za-z0-9_.-]+\?expires=/);
    expect(view).toMatch(/PR #\d+/);
    expect(view).not.toContain('This week');

    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, appHomeOpenedEnvelope({ user: 'U0ADMIN' }));
    const admin = await world.slack.waitFor((c) => c.method === 'views.publish' && c.args.user_id === 'U0ADMIN', 20_000);
    const adminView = JSON.stringify(admin.args.view);
    expect(adminView).toContain('This week');
    expect(adminView).toMatch(/<#C0DEV>: 3 runs · \$\d+\.\d\d/);
    expect(adminView).toContain('No runs yet');
    expect(world.slack.callsTo('views.publish').length).toBe(before + 2);
    for (const secret of SECRETS) expect(view + adminView).not.toContain(secret);
  });

  it('/metrics, scraped by a real Prometheus with its bearer token, counts the runs by outcome; without the token it is refused', async () => {
    expect((await fetch(`${publicUrl}/metrics`)).status).toBe(401);
    expect((await fetch(`${publicUrl}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    const deadline = Date.now() + 30_000;
    let runs: number | undefined;
    let triages: number | undefined;
    // Until a scrape has seen every run, the triage's included (it is counted when its report is out).
    while (Date.now() < deadline) {
      runs = await prometheus.query(
        'sum(wrench_runs_total{category="testing",outcome="pr_opened"}) + sum(wrench_runs_total{category="feature",outcome="pr_opened"})',
      );
      triages = await prometheus.query('wrench_runs_total{category="incident-triage",outcome="reported"}');
      if (runs === 2 && triages === 1) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(runs).toBe(2);
    expect(triages).toBe(1);
    expect(await prometheus.query('sum(wrench_run_phase_duration_seconds_count{phase="working"})')).toBeGreaterThanOrEqual(2);
    expect(await prometheus.query('sum(wrench_model_tokens_total)')).toBeGreaterThan(0);
    expect(await prometheus.query('wrench_queue_depth{queue="tasks",state="waiting"}')).toBe(0);
    expect(await prometheus.query('up{job="wrench"}')).toBe(1);
    expect(await prometheus.query('sum(wrench_model_call_duration_seconds_count{outcome="ok"})')).toBeGreaterThanOrEqual(2);
    expect(await prometheus.query('sum(wrench_time_to_acknowledge_seconds_count)')).toBeGreaterThanOrEqual(2);
    expect(await prometheus.query('sum(wrench_run_tokens_count)')).toBeGreaterThanOrEqual(2);
  });

  it('/metrics after that activity passes `promtool check metrics` with nothing to say', async () => {
    const exposition = await (await fetch(`${publicUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(exposition).toContain('wrench_model_call_duration_seconds_bucket');
    const check = spawnSync('promtool', ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
    expect({ status: check.status, stdout: check.stdout, stderr: check.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
  });
});

/**
 * `npm run docs:picture`: docs/images/thread.png, a picture of a real Slack thread. It starts Wrench as the e2e tests
 * do (the built dist/bin/wrench.js on a real Redis, with the Slack, Anthropic and GitHub fakes), mentions it with a
 * task the scripted model carries out, waits for the run's streamed message to end, then draws the thread Slack
 * keeps (the mention, and Wrench's one message: its plan of task cards and its reply) with test/docs/thread-html.ts
 * in headless Chromium. Needs `npm run build`, redis-server, bubblewrap and /usr/bin/chromium (what .ci/run installs).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createE2eWorld, SIGNING_SECRET } from '../e2e/e2e-world.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { DEMO_SOURCE, demoScript } from './demo-run.js';
import { type ThreadMessage, threadHtml } from './thread-html.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(ROOT, 'docs/images/thread.png');

const world = await createE2eWorld(`
channels:
  C0DEV: { repo: acme/web, baseBranch: main }
sandbox: { mode: bwrap }
`);
try {
  await world.github.createRepo('acme', 'web', {
    'package.json': JSON.stringify({ name: 'web', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2),
    'src/format.js': DEMO_SOURCE,
  });
  await world.start({ WRENCH_PUBLIC_URL: 'https://wrench.example.com' });
  world.anthropic.setScript(demoScript());
  const envelope = appMentionEnvelope({
    channel: 'C0DEV',
    user: 'U0ALICE',
    text: '<@U0BOT> add a test for `formatBytes` in src/format.js covering 0 bytes. `npm test` must pass.',
  });
  const delivered = await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
  if (delivered.status !== 200) throw new Error(`Wrench answered the mention with HTTP ${delivered.status}`);
  const threadTs = (envelope.event as { ts: string }).ts;
  await pollFor(
    () => world.slack.streamsIn('C0DEV', threadTs).find((stream) => stream.state === 'stopped'),
    120_000,
    () => 'the run did not end within two minutes',
  );
  await world.slack.waitFor((call) => call.method === 'reactions.add' && call.args.name === 'white_check_mark', 10_000);
  const messages = world.slack.messages('C0DEV', threadTs) as ThreadMessage[];

  const html = threadHtml(messages, { channel: 'dev', names: { U0BOT: 'wrench', U0ALICE: 'Alice' } });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1.5 });
    await page.setContent(html);
    mkdirSync(path.dirname(OUT), { recursive: true });
    await page.locator('.pane').screenshot({ path: OUT });
  } finally {
    await browser.close();
  }
  console.log(`${path.relative(ROOT, OUT)} written: a thread of ${messages.length} messages`);
} finally {
  await world.stop();
}

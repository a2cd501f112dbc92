import { pollFor } from '../fakes/shared/wait-for.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { appMentionEnvelope, blockActionsPayload, reactionAddedEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { bashStep, createFileStep, finishStep, runsNeverInterleaved, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/app }
sandbox: { mode: bwrap }
limits: { concurrency: 4, perRepository: 4, perUser: 4 }
# The card surface: the status card's Cancel button, "Queued behind" and progress lines, and the replies beside it.
slack: { streamRuns: false }
`;

describe('threads as sessions', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'app', { 'README.md': '# app\n', 'src/index.js': 'export const a = 1;\n' });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  const mention = async (text: string, threadTs?: string, options: { retryNum?: number; envelope?: Record<string, unknown> } = {}) => {
    const envelope = options.envelope ?? appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> ${text}`, thread_ts: threadTs });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope, { retryNum: options.retryNum });
    return { ts: (envelope.event as { ts: string }).ts, envelope };
  };
  const resultReplies = (threadTs: string) =>
    world.slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === threadTs && /PR #\d+/.test(String(c.args.text)));

  it("a mention and a follow-up (after a restart) make one PR with both runs' commits and two replies", async () => {
    const script = scriptByRun({
      'greeting module': [createFileStep('src/greeting.js', "export const greet = () => 'hi';\n"), finishStep('Added greeting module.')],
      'farewell too': [createFileStep('src/farewell.js', "export const bye = () => 'bye';\n"), finishStep('Added farewell next to greeting.')],
    });
    world.anthropic.setScript(script.items);
    const first = await mention('add a greeting module in src/greeting.js exporting `greet`. Follow src/index.js style.');
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === first.ts && /Opened PR #/.test(String(c.args.text)), 150_000);

    // The worker that ran the first run goes away; the session lives in Redis.
    await world.wrench!.stop();
    await world.start();

    // Read alone, this would be a testing task; in the thread it is more of the same feature.
    await mention('farewell too: also add src/farewell.js exporting `bye`; npm test passes', first.ts);
    const followUpCard = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === first.ts && /farewell/.test(JSON.stringify(c.args.blocks ?? '')),
      30_000,
    );
    expect(String(followUpCard.args.text)).toMatch(/^Feature task on acme\/app/);
    const update = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === first.ts && /Updated PR #/.test(String(c.args.text)),
      150_000,
    );

    const pulls = world.github.pulls('acme', 'app');
    expect(pulls).toHaveLength(1);
    expect(String(update.args.text)).toContain(`Updated PR #${pulls[0]!.number}`);
    expect(resultReplies(first.ts)).toHaveLength(2);
    const log = execFileSync('git', ['--git-dir', world.github.gitDir('acme', 'app'), 'log', '--format=%s', '--name-only', pulls[0]!.headRef], {
      encoding: 'utf8',
    });
    expect(log).toContain('src/greeting.js');
    expect(log).toContain('src/farewell.js');
    // Noted on the pull request right after the reply.
    await vi.waitFor(() => expect(world.github.issueComments.some((c) => c.body.includes('Follow-up from Slack') && c.body.includes('farewell'))).toBe(true), {
      timeout: 10_000,
    });
    // The follow-up's agent saw the earlier run.
    const followUpRequest = world.anthropic.requests.find((r) => JSON.stringify(r.body).includes('farewell too'))!;
    expect(JSON.stringify(followUpRequest.body)).toContain('Added greeting module.');
  });

  it('two quick follow-ups run in order, never overlapping, and the waiting one says it is queued', async () => {
    const script = scriptByRun({
      'base work': [bashStep('sleep 3', 300), createFileStep('src/one.js', 'export const one = 1;\n'), finishStep('one')],
      'second thing': [bashStep('sleep 1', 300), createFileStep('src/two.js', 'export const two = 2;\n'), finishStep('two')],
      'third thing': [bashStep('sleep 1', 300), createFileStep('src/three.js', 'export const three = 3;\n'), finishStep('three')],
    });
    world.anthropic.setScript(script.items);
    const first = await mention('base work: add src/one.js exporting `one = 1`.');
    await waitUntil(() => script.trace.length >= 1, 30_000);
    await mention('second thing: add src/two.js exporting `two`', first.ts);
    await mention('third thing: add src/three.js exporting `three`', first.ts);
    await world.slack.waitFor(() => resultReplies(first.ts).length === 3, 90_000);
    expect(runsNeverInterleaved(script.trace)).toBe(true);
    expect(script.trace.map((t) => t.run).filter((r, i, a) => a[i - 1] !== r)).toEqual(['base work', 'second thing', 'third thing']);
    const queuedTexts = world.slack.calls.filter(
      (c) => (c.method === 'chat.postMessage' || c.method === 'chat.update') && /Queued behind|waiting for the run already going/.test(JSON.stringify(c.args)),
    );
    expect(queuedTexts.length).toBeGreaterThan(0);
  });

  it('the Cancel button stops a run within seconds; the status shows Cancelled', async () => {
    const script = scriptByRun({ 'long task': [bashStep('sleep 60'), finishStep('never')] });
    world.anthropic.setScript(script.items);
    const { ts } = await mention('long task: add a comment header to src/index.js');
    const status = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && JSON.stringify(c.args.blocks ?? '').includes('wrench_cancel_run'),
      30_000,
    );
    const statusTs = (await world.slack.waitFor((c) => c.method === 'chat.update' && String(c.args.text).includes('sleep 60'), 30_000)).args.ts as string;
    expect(statusTs).toBeTruthy();
    const cancelValue = JSON.stringify({ c: 'C0DEV', t: ts });
    await world.slack.deliverInteraction(
      world.eventsUrl(),
      SIGNING_SECRET,
      blockActionsPayload({
        user: 'U0ALICE',
        channel: 'C0DEV',
        message_ts: String(status.args.ts ?? statusTs),
        thread_ts: ts,
        action_id: 'wrench_cancel_run',
        value: cancelValue,
      }),
    );
    await world.slack.waitFor((c) => c.method === 'chat.update' && String(c.args.text).includes('Cancelled'), 15_000);
    const reply = world.slack.callsTo('chat.postMessage').find((c) => c.args.thread_ts === ts && /Cancelled|Stopped/.test(String(c.args.text)));
    expect(reply).toBeDefined();
  });

  it('an :x: reaction by the requester on the status card or on any reply, and "@wrench stop" in the thread cancel too', async () => {
    const script = scriptByRun({
      'reaction task': [bashStep('sleep 60'), finishStep('never')],
      'reply reaction task': [bashStep('sleep 60'), finishStep('never')],
      'stop task': [bashStep('sleep 60'), finishStep('never')],
    });
    world.anthropic.setScript(script.items);
    const first = await mention('reaction task: add a comment to src/index.js');
    await world.slack.waitFor(
      (c) => c.method === 'chat.update' && String(c.args.text).includes('sleep 60') && JSON.stringify(c.args).includes(first.ts),
      30_000,
    );
    const statusCard = world.slack.messages('C0DEV', first.ts).find((m) => m.ts !== first.ts && m.bot_id);
    expect(statusCard).toBeDefined();
    await world.slack.deliverEvent(
      world.eventsUrl(),
      SIGNING_SECRET,
      reactionAddedEnvelope({ user: 'U0ALICE', reaction: 'x', channel: 'C0DEV', ts: statusCard!.ts }),
    );
    const cancelled = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === first.ts && /Cancelled/.test(String(c.args.text)),
      15_000,
    );
    // It says who cancelled it and what became of the work (nothing had changed: no branch), not the agent's last interim words.
    expect(String(cancelled.args.text)).toContain('Cancelled by <@U0ALICE>. Nothing had changed yet, so there is no branch.');
    expect(String(cancelled.args.text)).not.toMatch(/kept on `wrench\/|draft pull request/);

    const third = await mention('reply reaction task: add a comment to src/index.js');
    await world.slack.waitFor(
      (c) => c.method === 'chat.update' && String(c.args.text).includes('sleep 60') && JSON.stringify(c.args).includes(third.ts),
      30_000,
    );
    const aside = world.slack.seedMessage('C0DEV', { user: 'U0BOB', text: 'this one is taking long', thread_ts: third.ts });
    await world.slack.deliverEvent(
      world.eventsUrl(),
      SIGNING_SECRET,
      reactionAddedEnvelope({ user: 'U0ALICE', reaction: 'x', channel: 'C0DEV', ts: aside.ts }),
    );
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === third.ts && /Cancelled/.test(String(c.args.text)), 15_000);

    const second = await mention('stop task: add a comment to src/index.js');
    await world.slack.waitFor(
      (c) => c.method === 'chat.update' && String(c.args.text).includes('sleep 60') && JSON.stringify(c.args).includes(second.ts),
      30_000,
    );
    await mention('stop', second.ts);
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === second.ts && /Cancelled/.test(String(c.args.text)), 15_000);
  });

  it('the same event delivered three times yields one run and one set of replies', async () => {
    const script = scriptByRun({ 'triple delivery': [createFileStep('src/triple.js', 'export const t = 3;\n'), finishStep('triple')] });
    world.anthropic.setScript(script.items);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> triple delivery: add src/triple.js exporting `t`' });
    await Promise.all([
      world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope),
      world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope, { retryNum: 1, retryReason: 'http_timeout' }),
      world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope, { retryNum: 2, retryReason: 'http_timeout' }),
    ]);
    const ts = (envelope.event as { ts: string }).ts;
    await world.slack.waitFor(() => resultReplies(ts).length >= 1, 150_000);
    // Both redeliveries were handled as duplicates before anything is counted.
    const duplicates = () => world.wrench!.output().split(`"eventId":"${envelope.event_id}","msg":"duplicate event: already handled"`).length - 1;
    await pollFor(
      () => (duplicates() >= 2 ? true : undefined),
      10_000,
      () => `${duplicates()} duplicates handled`,
    );
    expect(resultReplies(ts)).toHaveLength(1);
    // One :eyes: when it was taken, one check mark when it was done: never one per delivery.
    expect(world.slack.callsTo('reactions.add').filter((c) => c.args.timestamp === ts && c.args.name === 'eyes')).toHaveLength(1);
    expect(script.trace.filter((t) => t.run === 'triple delivery' && t.step === 0)).toHaveLength(1);
  });

  it("a long report arrives whole, split across messages within Slack's limits", async () => {
    const paragraphs = Array.from({ length: 120 }, (_, i) => `Paragraph ${i}: ${'detail '.repeat(60)}end-${i}.`);
    const script = scriptByRun({ 'long report': [createFileStep('src/long.js', 'export const l = 1;\n'), finishStep(paragraphs.join('\n\n'))] });
    world.anthropic.setScript(script.items);
    const { ts } = await mention('long report: add src/long.js exporting `l`');
    // The parts are posted in order: once the last paragraph is there, every earlier part is too.
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && String(c.args.text).includes('end-119.'), 150_000);
    const parts = world.slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === ts && /Paragraph \d+/.test(String(c.args.text)));
    expect(parts.length).toBeGreaterThan(1);
    const all = parts.map((p) => String(p.args.text)).join('\n');
    for (let i = 0; i < 120; i++) expect(all).toContain(`end-${i}.`);
    for (const part of parts) {
      const blocks = part.args.blocks as Array<{ text?: { text: string } }>;
      expect(blocks.length).toBeLessThanOrEqual(50);
      for (const block of blocks) expect((block.text?.text ?? '').length).toBeLessThanOrEqual(3000);
      expect(String(part.args.text).length).toBeLessThanOrEqual(40_000);
    }
  });

  it('honours a 429 with Retry-After from Slack and still shows the result', async () => {
    const script = scriptByRun({ 'rate limited': [createFileStep('src/rl.js', 'export const r = 1;\n'), finishStep('rate limited done')] });
    world.anthropic.setScript(script.items);
    const { ts } = await mention('rate limited: add src/rl.js exporting `r`');
    await world.slack.waitFor((c) => c.method === 'chat.update' && c.args.channel === 'C0DEV', 30_000);
    world.slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    const reply = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && c.status === 200 && /rate limited done/.test(String(c.args.text)),
      150_000,
    );
    const limited = world.slack.calls.find((c) => c.method === 'chat.postMessage' && c.status === 429);
    expect(limited).toBeDefined();
    expect(reply.at - limited!.at).toBeGreaterThanOrEqual(900);
    expect(resultReplies(ts)).toHaveLength(1);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope, blockActionsPayload, messageEnvelope, viewSubmissionPayload } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/lib }
sandbox: { mode: bwrap }
`;

describe('asking for what is missing instead of guessing', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'lib', { 'src/lib/format.ts': 'export const formatBytes = (n: number) => `${n} B`;\n' });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  const buttonsOf = (call: { args: Record<string, unknown> }) =>
    ((call.args.blocks as Array<{ type: string; elements?: Array<{ action_id: string; value?: string }> }>) ?? []).flatMap((b) =>
      b.type === 'actions' ? (b.elements ?? []) : [],
    );

  it('an ill-formed mention gets specific questions and buttons; the modal submission starts the job with both parts', async () => {
    const script = scriptByRun({ 'more test coverage': [createFileStep('src/lib/format.test.ts', '// tests\n'), finishStep('Added tests for formatBytes.')] });
    world.anthropic.setScript(script.items);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> we need more test coverage' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;

    const card = await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && buttonsOf(c).length > 0);
    expect(String(card.args.text)).toMatch(/What should the tests cover/);
    expect(String(card.args.text)).toMatch(/Where is the code to test/);
    const buttons = buttonsOf(card);
    expect(buttons.map((b) => b.action_id)).toEqual(['wrench_add_details', 'wrench_start_anyway']);
    expect(world.anthropic.requests).toHaveLength(0);

    await world.slack.deliverInteraction(
      world.eventsUrl(),
      SIGNING_SECRET,
      blockActionsPayload({
        user: 'U0ALICE',
        channel: 'C0DEV',
        message_ts: String(card.args.ts ?? ts),
        thread_ts: ts,
        action_id: 'wrench_add_details',
        value: buttons[0]!.value,
      }),
    );
    const opened = await world.slack.waitFor((c) => c.method === 'views.open');
    const view = opened.args.view as {
      callback_id: string;
      private_metadata: string;
      blocks: Array<{ block_id: string; element?: { initial_value?: string } }>;
    };
    expect(view.callback_id).toBe('wrench_clarify');
    expect(view.blocks.map((b) => b.block_id)).toEqual(['instruction', 'missing:target', 'missing:location']);
    expect(view.blocks[0]!.element?.initial_value).toBe('we need more test coverage');

    // A submission that still leaves a gap keeps the modal open with an error on that field.
    const partial = await world.slack.deliverInteraction(
      world.eventsUrl(),
      SIGNING_SECRET,
      viewSubmissionPayload({
        user: 'U0ALICE',
        callback_id: 'wrench_clarify',
        private_metadata: view.private_metadata,
        values: { instruction: { value: 'we need more test coverage' }, 'missing:target': { value: '' }, 'missing:location': { value: '' } },
      }),
    );
    expect(JSON.parse(partial.body)).toMatchObject({ response_action: 'errors' });
    expect(world.anthropic.requests).toHaveLength(0);

    const submitted = await world.slack.deliverInteraction(
      world.eventsUrl(),
      SIGNING_SECRET,
      viewSubmissionPayload({
        user: 'U0ALICE',
        callback_id: 'wrench_clarify',
        private_metadata: view.private_metadata,
        values: {
          instruction: { value: 'we need more test coverage' },
          'missing:target': { value: '`formatBytes`: 0, 1023, 1024' },
          'missing:location': { value: 'src/lib/format.ts' },
        },
      }),
    );
    expect(submitted.status).toBe(200);
    await threadReply(world, ts, /Opened PR/, 150_000);
    const task = JSON.stringify(world.anthropic.requests[0]!.body);
    expect(task).toContain('we need more test coverage');
    expect(task).toContain('formatBytes`: 0, 1023, 1024');
    expect(task).toContain('Location: src/lib/format.ts');
  });

  it('answering in the thread re-reads the combined instruction and starts once it is well-formed', async () => {
    const script = scriptByRun({ 'something is wrong with payments': [createFileStep('src/fix.ts', '// fix\n'), finishStep('Fixed the rounding.')] });
    world.anthropic.setScript(script.items);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0BOB', text: '<@U0BOT> something is wrong with payments, please fix' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && buttonsOf(c).length > 0);

    // Another person's reply does not count as the answer.
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, messageEnvelope({ channel: 'C0DEV', user: 'U0CAROL', text: 'no idea', thread_ts: ts }));
    await world.slack.deliverEvent(
      world.eventsUrl(),
      SIGNING_SECRET,
      messageEnvelope({
        channel: 'C0DEV',
        user: 'U0BOB',
        thread_ts: ts,
        text: 'In src/payments/total.ts `total()` returns 10.000000001 for 3 items of 3.333333333; expected 10.00. Add a regression test.',
      }),
    );
    await threadReply(world, ts, /Opened PR/, 150_000);
    const task = JSON.stringify(world.anthropic.requests.find((r) => JSON.stringify(r.body).includes('something is wrong with payments'))!.body);
    expect(task).toContain('src/payments/total.ts');
    expect(task).not.toContain('no idea');
  });

  it('an unrealistic instruction is declined with a scoped first step; Start anyway overrides', async () => {
    const script = scriptByRun({ 'rewrite the whole backend': [finishStep('I looked; here is a plan instead.')] });
    world.anthropic.setScript(script.items);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> rewrite the whole backend from scratch in Rust' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const card = await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && buttonsOf(c).length > 0);
    expect(String(card.args.text)).toMatch(/too large/);
    expect(String(card.args.text)).toMatch(/single endpoint/);
    expect(buttonsOf(card).map((b) => b.action_id)).toEqual(['wrench_start_anyway']);
    await world.slack.deliverInteraction(
      world.eventsUrl(),
      SIGNING_SECRET,
      blockActionsPayload({
        user: 'U0ALICE',
        channel: 'C0DEV',
        message_ts: String(card.args.ts ?? ts),
        thread_ts: ts,
        action_id: 'wrench_start_anyway',
        value: buttonsOf(card)[0]!.value,
      }),
    );
    // The run went ahead and answered in its streamed message (the default): the agent's account, no change.
    await threadReply(world, ts, /I looked; here is a plan instead\./, 150_000);
    expect(script.trace.length).toBe(1);
  });

  it("the card's buttons answer in the thread's language: Start anyway, then a press that comes too late, for a German-locale requester", async () => {
    world.slack.addUser({ id: 'U0HANS', name: 'hans', locale: 'de-DE' });
    const script = scriptByRun({ 'rewrite the whole frontend': [finishStep('Ich habe einen Plan statt einer Umschreibung.')] });
    world.anthropic.setScript(script.items);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0HANS', text: '<@U0BOT> rewrite the whole frontend from scratch in Rust' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const card = await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && buttonsOf(c).length > 0);
    expect(String(card.args.text)).toMatch(/^Das ist zu groß/);
    const press = (user: string) =>
      world.slack.deliverInteraction(
        world.eventsUrl(),
        SIGNING_SECRET,
        blockActionsPayload({
          user,
          channel: 'C0DEV',
          message_ts: String(card.args.ts ?? ts),
          thread_ts: ts,
          action_id: 'wrench_start_anyway',
          value: buttonsOf(card)[0]!.value,
        }),
      );
    await press('U0HANS');
    await world.slack.waitFor((c) => c.method === 'chat.update' && c.args.text === 'Ich fange auf Wunsch von <@U0HANS> trotzdem an.', 10_000);
    // A second press finds the request started, or still being started: only the presser is told, in the thread's language.
    await press('U0HANS');
    await expect
      .poll(() => world.slack.ephemerals.find((e) => e.user === 'U0HANS' && e.thread_ts === ts)?.text, { timeout: 10_000 })
      .toMatch(/^(Diese Anfrage hat schon begonnen oder ist abgelaufen\.|Jemand startet diese Anfrage gerade oder ergänzt sie\.)/);
    await threadReply(world, ts, /Ich habe einen Plan statt einer Umschreibung\./, 150_000);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope, blockActionsPayload, viewSubmissionPayload } from '../fakes/slack-fake.js';
import type { RecordedRequest } from '../fakes/anthropic-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { slackFixture } from '../fixtures/slack/load-fixture.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/target }
sandbox: { mode: none }
# The card surface: the rich-text mention is checked on the status card (its category) and in the mrkdwn reply (the
# PR title escaped for Slack once).
slack: { streamRuns: false }
`;

/** Payloads in Slack's documented shapes (test/fixtures/slack), delivered to a running Wrench. */
describe('what Slack really sends', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'target', { 'src/greet.js': 'export const greet = (name) => `Hello, ${name}`;\n' });
    world.slack.addUser({ id: 'U0BOB0001', name: 'Bob', real_name: 'Robert Example' });
    world.slack.addChannel({ id: 'C0OTHER01', name: 'eng-demo' });
    world.anthropic.setScript(
      scriptByRun({
        'name && name.length > 0': [createFileStep('src/guard.js', 'export {};\n'), finishStep('guarded')],
        'grid marker': [createFileStep('src/grid.js', 'export const ok = true;\n'), finishStep('grid')],
        'must not return': [createFileStep('src/br.js', 'export {};\n'), finishStep('no br')],
      }).items,
    );
    await world.start();
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await world?.stop();
  });

  const instructionOf = (request: RecordedRequest) => {
    const first = (request.body as { messages: Array<{ content: unknown }> }).messages[0]?.content;
    const text = typeof first === 'string' ? first : JSON.stringify(first).replace(/\\n/g, '\n').replace(/\\"/g, '"');
    return /<instruction>([\s\S]*?)<\/instruction>/.exec(text)?.[1]?.trim() ?? '';
  };
  const agentSaw = (marker: string) =>
    pollFor(
      () => world.anthropic.requests.map(instructionOf).find((i) => i.includes(marker)),
      120_000,
      () => `no model request with "${marker}"`,
    );
  const handled = (eventId: string, what: string) =>
    pollFor(
      () =>
        world
          .wrench!.output()
          .split('\n')
          .find((line) => line.includes(`"eventId":"${eventId}"`) && line.includes(what)),
      20_000,
      () => `no "${what}" log for ${eventId}`,
    );

  it('a mention with rich_text blocks reaches the agent as the person wrote it, and is read as a feature', async () => {
    const { body, ts } = slackFixture('app-mention-rich-text.json', 'C0DEV');
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, body)).status).toBe(200);
    const instruction = await agentSaw('name && name.length > 0');
    expect(instruction).toBe('only when `name && name.length > 0` (context in #eng-demo, cc @Bob)');
    const card = await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Queued/.test(JSON.stringify(c.args)));
    expect(JSON.stringify(card.args)).toMatch(/feature/i);
    const pr = await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /PR #/.test(String(c.args.text)), 120_000);
    // The pull request's title in the link is escaped for Slack once (Slack shows `&&` and `>`), never twice.
    expect(String(pr.args.text)).toContain('name &amp;&amp; name.length &gt; 0');
    expect(String(pr.args.text)).not.toMatch(/&amp;amp;|&amp;gt;|<@U0BOB0001>/);
    const pull = world.github.pulls('acme', 'target').find((p) => JSON.stringify(p).includes('name.length'));
    expect(JSON.stringify(pull)).not.toMatch(/&amp;|&gt;|<@U0BOB0001>|<#C0OTHER01/);
  });

  it('an Enterprise Grid mention (enterprise ids, user_profile, W user id) runs', async () => {
    const { body } = slackFixture('enterprise-grid-mention.json', 'C0DEV');
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, body)).status).toBe(200);
    expect(await agentSaw('grid marker')).toBe('grid marker: add src/grid.js exporting `ok`');
  });

  it('a Slack Connect mention from another organisation is refused with an explanation', async () => {
    const { body } = slackFixture('slack-connect-mention.json', 'C0DEV');
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, body)).status).toBe(200);
    const refusal = await world.slack.waitFor((c) => c.method === 'chat.postEphemeral' && c.args.user === 'U0PARTNER');
    expect(String(refusal.args.text)).toMatch(/Slack Connect/);
  });

  it('edits, deletions, other bots and files in threads Wrench does not work in are acknowledged and ignored', async () => {
    for (const key of ['message_changed', 'message_deleted', 'bot_message', 'file_share', 'thread_reply']) {
      const { body } = slackFixture('message-events.json', 'C0DEV', key);
      expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, body)).status).toBe(200);
      const line = await handled(body.event_id as string, 'message event handled');
      expect(line).toContain('"outcome":"ignored"');
    }
    expect(world.wrench!.output()).not.toMatch(/Slack listener failed/);
  });

  it('an event type Wrench does not subscribe to is acknowledged and logged at debug', async () => {
    const body = {
      type: 'event_callback',
      team_id: 'T0TEAM',
      api_app_id: 'A0APP',
      event_id: 'Ev0CHANNELCREATED',
      event_time: 1700000000,
      event: { type: 'channel_created', channel: { id: 'C0NEW', name: 'fresh', created: 1700000000, creator: 'U0ALICE' }, event_ts: '1700000000.000100' },
    };
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, body)).status).toBe(200);
    await handled('Ev0CHANNELCREATED', 'event Wrench has no listener for');
  });

  it("a thread reply answering Wrench's questions is read from its blocks and starts the run", async () => {
    const mention = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> make it better' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, mention);
    const threadTs = (mention.event as { ts: string }).ts;
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs);
    const { body } = slackFixture('message-events.json', 'C0DEV', 'thread_reply', threadTs);
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, body)).status).toBe(200);
    expect(await agentSaw('must not return')).toBe('make it better\n\nin src/greet.js, greet(name) must not return `<br>` for an empty name');
  });

  it('block_actions and view_submission in their documented shapes are acknowledged', async () => {
    const press = blockActionsPayload({
      user: 'U0ALICE',
      channel: 'C0DEV',
      message_ts: '1700000009.000100',
      action_id: 'wrench_cancel_run',
      value: '{"c":"C0DEV","t":"1700000009.000100"}',
    });
    expect((await world.slack.deliverInteraction(world.eventsUrl(), SIGNING_SECRET, press)).status).toBe(200);
    const stale = viewSubmissionPayload({
      user: 'U0ALICE',
      callback_id: 'wrench_clarify',
      private_metadata: '{"c":"C0DEV","t":"1700000009.000100"}',
      values: { instruction: { value: 'x' } },
    });
    const answer = await world.slack.deliverInteraction(world.eventsUrl(), SIGNING_SECRET, stale);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ response_action: 'errors' });
  });
});

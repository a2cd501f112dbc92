import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope, blockActionsPayload, deliverEvent, deliverInteraction, slackSignature, viewSubmissionPayload } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/target }
sandbox: { mode: none }
`;

/** Signed requests that are not a usable event or interaction: each answered at once, never a crash. */
describe('the web role and bodies Slack signs but Wrench cannot use', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'target', { 'README.md': '# target\n' });
    await world.start();
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await world?.stop();
  });

  const signedForm = (raw: string) => {
    const ts = Math.floor(Date.now() / 1000);
    return fetch(world.eventsUrl(), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(ts),
        'x-slack-signature': slackSignature(SIGNING_SECRET, ts, raw),
      },
      body: raw,
    }).then((r) => r.status);
  };

  const alive = async () => {
    expect(world.wrench!.child.exitCode).toBeNull();
    expect((await fetch(`${world.wrench!.url}/healthz`)).status).toBe(200);
  };

  it.each([
    ['JSON null', 'null', 400],
    ['a number', '42', 400],
    ['a string', '"hello"', 400],
    ['an array', '[{"type":"event_callback"}]', 400],
    ['an object without a type', '{"token":"x"}', 400],
    ['event: null', '{"type":"event_callback","team_id":"T0TEAM","event_id":"Ev0NULL","event":null}', 200],
    ['event: a number', '{"type":"event_callback","team_id":"T0TEAM","event_id":"Ev0NUM","event":7}', 200],
    ['event: a string', '{"type":"event_callback","team_id":"T0TEAM","event_id":"Ev0STR","event":"app_mention"}', 200],
    ['an event without a type', '{"type":"event_callback","team_id":"T0TEAM","event_id":"Ev0NOTYPE","event":{"channel":"C0DEV"}}', 200],
    [
      'a reaction whose item is a string',
      '{"type":"event_callback","team_id":"T0TEAM","event_id":"Ev0ITEM","event":{"type":"reaction_added","user":"U0A","reaction":"x","item":"C0DEV"}}',
      200,
    ],
    ['an unknown envelope type', '{"type":"something_new","team_id":"T0TEAM"}', 200],
    [
      'an app_mention with ill-typed fields',
      '{"type":"event_callback","team_id":"T0TEAM","event_id":"Ev0ODD","event":{"type":"app_mention","text":42,"blocks":"x","user":"U0ALICE","channel":7,"ts":null}}',
      200,
    ],
    ['app_rate_limited', '{"token":"t","type":"app_rate_limited","team_id":"T0TEAM","minute_rate_limited":1518467820,"api_app_id":"A0APP"}', 200],
  ])('a signed JSON body that is %s is answered %i and the process keeps serving', async (_name, body, status) => {
    const answer = await deliverEvent(world.eventsUrl(), SIGNING_SECRET, body);
    expect(answer.status).toBe(status);
    await alive();
  });

  it.each([
    ['without payload', 'foo=bar', 400],
    ['whose payload is not JSON', 'payload=%7Bnope', 400],
    ['whose payload is null', 'payload=null', 400],
    ['whose payload has an unknown type', `payload=${encodeURIComponent('{"type":"brand_new_interaction"}')}`, 200],
    [
      'with block_actions whose actions are not a list',
      `payload=${encodeURIComponent('{"type":"block_actions","user":{"id":"U0A"},"actions":"wrench_cancel_run"}')}`,
      200,
    ],
    ['with a slash command', 'command=%2Fwrench&text=hello&user_id=U0A&channel_id=C0DEV&team_id=T0TEAM', 200],
  ])('a signed form body %s is answered %i and the process keeps serving', async (_name, raw, status) => {
    expect(await signedForm(raw)).toBe(status);
    await alive();
  });

  it('an unsigned unusable body is still refused as unsigned', async () => {
    const answer = await deliverEvent(world.eventsUrl(), SIGNING_SECRET, 'null', { badSignature: true });
    expect(answer.status).toBe(401);
  });

  it('a button, modal, shortcut or view_closed Wrench does not know is acknowledged by the catch-all, not by the timeout', async () => {
    const button = blockActionsPayload({ user: 'U0ALICE', channel: 'C0DEV', message_ts: '1700000000.000100', action_id: 'other_app_approve', value: 'x' });
    const modal = viewSubmissionPayload({ user: 'U0ALICE', callback_id: 'other_app_modal', values: { b: { a: 'text' } } });
    const closed = { ...viewSubmissionPayload({ user: 'U0ALICE', callback_id: 'wrench_clarify' }), type: 'view_closed', is_cleared: false };
    const shortcut = {
      type: 'shortcut',
      token: 't',
      action_ts: '1700000000.000200',
      team: { id: 'T0TEAM', domain: 'x' },
      user: { id: 'U0ALICE', username: 'alice', team_id: 'T0TEAM' },
      callback_id: 'other_shortcut',
      trigger_id: '1.2.3',
    };
    for (const payload of [button, modal, closed, shortcut]) {
      const answer = await deliverInteraction(world.eventsUrl(), SIGNING_SECRET, payload);
      expect(answer.status).toBe(200);
    }
    const caught = () => world.wrench!.output().match(/"id":"[^"]*","msg":"acknowledged an interaction Wrench has no listener for"/g) ?? [];
    await pollFor(
      () => (caught().length >= 4 ? true : undefined),
      10_000,
      () => `catch-all log lines: ${caught().join(', ')}`,
    );
    expect(caught().join('\n')).toMatch(/other_app_approve[\s\S]*other_app_modal[\s\S]*wrench_clarify[\s\S]*other_shortcut/);
    expect(world.wrench!.output()).not.toMatch(/not acknowledged by any listener/);
    await alive();
  });

  it('a legacy interactive_message and a view_submission whose callback_id is not a string are answered 200 at once, not after 3 s', async () => {
    const legacy = {
      type: 'interactive_message',
      actions: [{ name: 'approve', type: 'button', value: 'yes' }],
      callback_id: 'legacy_approval',
      team: { id: 'T0TEAM', domain: 'acme' },
      channel: { id: 'C0DEV', name: 'dev' },
      user: { id: 'U0ALICE', name: 'alice' },
      action_ts: '1700000000.000300',
      message_ts: '1700000000.000100',
      attachment_id: '1',
      token: 't',
      is_app_unfurl: false,
      original_message: { type: 'message', text: 'Approve?', ts: '1700000000.000100' },
      response_url: 'https://hooks.slack.invalid/actions/T0TEAM/1/x',
      trigger_id: '1.2.3',
    };
    // A legacy message whose button Slack reports without `actions` (Bolt cannot route it), and a modal whose callback_id is a number.
    const legacyWithoutActions = { ...legacy, actions: undefined };
    const base = viewSubmissionPayload({ user: 'U0ALICE', callback_id: 'x' });
    const oddModal = { ...base, view: { ...(base.view as Record<string, unknown>), callback_id: 42 } };
    for (const payload of [legacy, legacyWithoutActions, oddModal, { ...legacy, type: 'dialog_cancellation', actions: undefined }]) {
      const started = performance.now();
      const answer = await deliverInteraction(world.eventsUrl(), SIGNING_SECRET, payload);
      const elapsedMs = performance.now() - started;
      expect(answer.status).toBe(200);
      // Bolt's own timeout answers after 3 s; the catch-all answers at once.
      expect(elapsedMs).toBeLessThan(1000);
    }
    expect(world.wrench!.output()).not.toMatch(/not acknowledged by any listener/);
    await alive();
  });

  it('a reaction_added whose item is null or missing is ignored, without a TypeError', async () => {
    const reaction = (eventId: string, item: Record<string, unknown>) =>
      JSON.stringify({
        type: 'event_callback',
        team_id: 'T0TEAM',
        event_id: eventId,
        event: { type: 'reaction_added', user: 'U0ALICE', reaction: 'x', event_ts: '1700000000.000400', ...item },
      });
    expect((await deliverEvent(world.eventsUrl(), SIGNING_SECRET, reaction('Ev0NULLITEM', { item: null }))).status).toBe(200);
    expect((await deliverEvent(world.eventsUrl(), SIGNING_SECRET, reaction('Ev0NOITEM', {}))).status).toBe(200);
    await pollFor(
      () => (/"eventId":"Ev0NOITEM"[^\n]*"msg":"reaction event handled"/.test(world.wrench!.output()) ? true : undefined),
      10_000,
      () =>
        `the reaction was not handled: ${world
          .wrench!.output()
          .split('\n')
          .filter((l) => /Ev0NOITEM|TypeError/.test(l))
          .join('\n')}`,
    );
    expect(world.wrench!.output()).not.toMatch(/TypeError: |"type":"TypeError"|Cannot read properties of (null|undefined)/);
    await alive();
  });

  it('a listener that fails before acknowledging answers 200, not 500', async () => {
    // The clarify modal's listener reads view.state.values; this view has no state.
    const payload = viewSubmissionPayload({ user: 'U0ALICE', callback_id: 'wrench_clarify' });
    delete (payload.view as Record<string, unknown>).state;
    const answer = await deliverInteraction(world.eventsUrl(), SIGNING_SECRET, payload);
    expect(answer.status).toBe(200);
    await pollFor(
      () => (/Slack listener failed.*reading 'values'|reading 'values'.*Slack listener failed/.test(world.wrench!.output()) ? true : undefined),
      10_000,
      () => 'no log of the failed listener',
    );
    await alive();
  });

  it('a mention whose envelope has an ill-typed team_id is still queued, not reported as "the queue is unavailable"', async () => {
    const envelope: Record<string, unknown> = {
      ...appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> add src/team.js exporting `team`' }),
      team_id: 12345,
    };
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    const ts = (envelope.event as { ts: string }).ts;
    const card = await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts);
    expect(JSON.stringify(card.args)).toMatch(/Queued/);
    expect(JSON.stringify(world.slack.calls.map((c) => c.args))).not.toMatch(/queue is unavailable|job queue \(Redis\) is unavailable/);
  });
});

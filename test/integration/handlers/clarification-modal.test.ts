import type { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInstruction } from '../../../handlers/accept-instruction.js';
import { handleAddDetails, handleClarifySubmission, handleStartAnyway } from '../../../handlers/clarification-actions.js';
import { handleThreadMessage } from '../../../handlers/thread-message.js';
import { encodeThreadRef } from '../../../src/slack/action-ids.js';
import type { HandlerDeps } from '../../../handlers/handler-deps.js';
import { startHandlerWorld, type HandlerWorld } from '../../helpers/handler-world.js';
import type { SlackFake } from '../../fakes/slack-fake.js';
import { uniqueName } from '../../helpers/unique-name.js';
import { readInstruction } from '../../../src/instruction/read-instruction.js';

/** The clarification buttons and modal as plain functions of (input, deps), with real Redis and the Slack fake. */
describe('the clarification modal in the thread language', () => {
  let world: HandlerWorld;
  let slack: SlackFake;
  let deps: HandlerDeps;
  let client: WebClient;

  beforeAll(async () => {
    world = await startHandlerWorld('clarify');
    ({ slack, deps, client } = world);
  });

  afterAll(async () => {
    await world?.stop();
  });

  it("opens with the thread's words and the card's own questions, and a submission still missing asks them again in German", async () => {
    // Words the rules hold back too, so that a submission left empty is still missing the same things.
    const text = 'we need more test coverage';
    const asked = [
      { element: 'target', question: 'Was sollen die Tests abdecken? Nenne das Modul oder die Funktion.' },
      { element: 'location', question: 'Wo liegt der Code, der getestet werden soll?' },
    ];
    // The model read it as German and asked in German (what the card then shows).
    const german = async (instruction: string) => ({
      reading: { ...readInstruction(instruction), verdict: 'ill-formed' as const, missing: ['target', 'location'], writtenIn: 'de', questions: asked },
      latencyMs: 1,
    });
    const ts = '1700000600.000100';
    const outcome = await acceptInstruction(
      { client, channel: 'C0DEV', threadTs: ts, messageTs: ts, dedupKey: uniqueName('d'), user: 'U0ALICE', text, repo: { owner: 'acme', name: 'web' } },
      { ...deps, readInstruction: german },
    );
    expect(outcome).toBe('clarifying');
    const card = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts, 10_000);
    expect(String(card.args.text)).toContain('Was sollen die Tests abdecken?');

    const value = encodeThreadRef({ channel: 'C0DEV', threadTs: ts });
    expect(await handleAddDetails({ client, user: 'U0ALICE', value, triggerId: 'trigger-1' }, deps)).toBe('opened');
    const opened = await slack.waitFor((c) => c.method === 'views.open' && c.args.trigger_id === 'trigger-1', 10_000);
    const view = opened.args.view as {
      title: { text: string };
      submit: { text: string };
      close: { text: string };
      blocks: Array<{ block_id: string; label: { text: string } }>;
    };
    expect([view.title.text, view.submit.text, view.close.text]).toEqual(['Details ergänzen', 'Starten', 'Abbrechen']);
    expect(view.blocks.map((b) => b.label.text)).toEqual(['Deine Anweisung', ...asked.map((a) => a.question)]);

    // Nothing filled in: the modal stays open, each field asking its German question again.
    let response: unknown;
    const still = await handleClarifySubmission(
      {
        client,
        user: 'U0ALICE',
        viewId: 'V1',
        privateMetadata: value,
        values: { instruction: { value: { value: text } }, 'missing:target': { value: { value: '' } }, 'missing:location': { value: { value: '' } } },
      },
      deps,
      async (r) => void (response = r),
    );
    expect(still).toBe('still_missing');
    expect(response).toEqual({
      response_action: 'errors',
      errors: { 'missing:target': asked[0]!.question, 'missing:location': asked[1]!.question },
    });
  });

  describe('two presses at once start the instruction once', () => {
    /** A request the rules hold back (its card posted, `held` the outcome expected), and its buttons' value. */
    const heldBack = async (ts: string, text: string, held: 'declined' | 'clarifying') => {
      const outcome = await acceptInstruction(
        { client, channel: 'C0DEV', threadTs: ts, messageTs: ts, dedupKey: uniqueName('d'), user: 'U0ALICE', text, repo: { owner: 'acme', name: 'web' } },
        deps,
      );
      expect(outcome).toBe(held);
      return encodeThreadRef({ channel: 'C0DEV', threadTs: ts });
    };
    /** An unrealistic request on its card, and a reader that takes its time (the window a second press used to fall in). */
    const declined = (ts: string) => heldBack(ts, 'rewrite the whole backend from scratch in Rust', 'declined');
    const slowReader = async (instruction: string) => {
      await new Promise((r) => setTimeout(r, 300));
      return { reading: readInstruction(instruction), latencyMs: 300 };
    };
    const BUSY = 'Someone is starting this request or adding to it right now. If I ask again, answer the new card.';
    const runsOf = async (ts: string) => (await deps.sessions.get('C0DEV', ts))?.runs.map((r) => r.jobId) ?? [];

    it('Start anyway pressed twice: one start, the second presser told it is being started, and a press after that that it has started', async () => {
      const ts = '1700000700.000100';
      const value = await declined(ts);
      const slow = { ...deps, readInstruction: slowReader };
      const outcomes = await Promise.all([
        handleStartAnyway({ client, user: 'U0ALICE', value }, slow),
        handleStartAnyway({ client, user: 'U0ALICE', value }, slow),
      ]);
      expect(outcomes.sort()).toEqual(['queued', 'stale']);
      expect(await runsOf(ts)).toHaveLength(1);
      expect(slack.calls.filter((c) => c.method === 'chat.update' && /Starting anyway/.test(String(c.args.text)))).toHaveLength(1);
      expect(slack.ephemerals.filter((e) => e.thread_ts === ts).map((e) => e.text)).toEqual([BUSY]);
      expect(await handleStartAnyway({ client, user: 'U0ALICE', value }, slow)).toBe('stale');
      expect(slack.ephemerals.filter((e) => e.thread_ts === ts).map((e) => e.text)).toEqual([BUSY, 'This request has already started or expired.']);
    });

    it('Start anyway beside a modal submission: one run, the submission told the request has started', async () => {
      const ts = '1700000800.000100';
      const value = await declined(ts);
      const slow = { ...deps, readInstruction: slowReader };
      let response: unknown = 'not acked';
      const [pressed, submitted] = await Promise.all([
        handleStartAnyway({ client, user: 'U0ALICE', value }, slow),
        handleClarifySubmission(
          {
            client,
            user: 'U0ALICE',
            viewId: 'V-race',
            privateMetadata: value,
            values: { instruction: { value: { value: 'rewrite src/api/users.ts in Rust' } } },
          },
          slow,
          async (r) => void (response = r),
        ),
      ]);
      expect([pressed, submitted].sort()).toEqual(['queued', 'stale']);
      expect(await runsOf(ts)).toHaveLength(1);
      if (submitted === 'stale') expect(response).toEqual({ response_action: 'errors', errors: { instruction: BUSY } });
      else expect(slack.ephemerals.filter((e) => e.thread_ts === ts).map((e) => e.text)).toEqual([BUSY]);
    });

    it('Start anyway beside a thread reply with the missing details: one run, the replier told the reply was not added', async () => {
      const ts = '1700000850.000100';
      const value = await heldBack(ts, 'we need more test coverage', 'clarifying');
      // The reply makes the request complete, so on its own it would start a run too.
      const reader = async (instruction: string) => {
        const { reading } = await slowReader(instruction);
        return { reading: { ...reading, verdict: 'well-formed' as const, missing: [], questions: [] }, latencyMs: 300 };
      };
      const slow = { ...deps, readInstruction: reader };
      const [pressed, replied] = await Promise.all([
        handleStartAnyway({ client, user: 'U0ALICE', value }, slow),
        handleThreadMessage(
          {
            eventId: uniqueName('Ev'),
            botUserId: 'U0BOT',
            client,
            event: { channel: 'C0DEV', user: 'U0ALICE', text: 'cover getUser in src/api/users.ts', ts: '1700000851.000100', thread_ts: ts },
          },
          slow,
        ),
      ]);
      expect([pressed, replied].sort()).toEqual(['queued', pressed === 'queued' ? 'taken' : 'stale']);
      expect(await runsOf(ts)).toHaveLength(1);
      expect(slack.ephemerals.filter((e) => e.thread_ts === ts).map((e) => e.text)).toEqual([
        replied === 'taken'
          ? 'This request was already being started when your message came in, so your message was not added to it. Once it is running, reply here to pass your message to the agent, or mention me to make it a follow-up.'
          : BUSY,
      ]);
    });

    it("a press that comes before the card's ts is recorded still edits the card, not a new message", async () => {
      const ts = '1700000870.000100';
      const value = await declined(ts);
      const withTs = (await deps.sessions.get('C0DEV', ts))?.pending;
      expect(withTs?.cardTs).toBeDefined();
      // As Slack showed the card, before its poster wrote down the ts.
      await deps.sessions.update('C0DEV', ts, (current) => (current?.pending ? { ...current, pending: { ...current.pending, cardTs: undefined } } : null));
      setTimeout(() => {
        void deps.sessions.update('C0DEV', ts, (current) =>
          current?.pending ? { ...current, pending: { ...current.pending, cardTs: withTs?.cardTs } } : null,
        );
      }, 300);
      expect(await handleStartAnyway({ client, user: 'U0ALICE', value }, deps)).toBe('queued');
      const edited = await slack.waitFor(
        (c) => c.method === 'chat.update' && /Starting anyway/.test(String(c.args.text)) && c.args.ts === withTs?.cardTs,
        10_000,
      );
      expect(edited.args.channel).toBe('C0DEV');
      expect(slack.calls.some((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Starting anyway/.test(String(c.args.text)))).toBe(false);
    });

    it('a start that failed frees the request: the next press starts it', async () => {
      const ts = '1700000900.000100';
      const value = await declined(ts);
      const broken = {
        ...deps,
        readInstruction: async () => {
          throw new Error('reader down');
        },
      };
      await expect(handleStartAnyway({ client, user: 'U0ALICE', value }, broken)).rejects.toThrow('reader down');
      expect(await handleStartAnyway({ client, user: 'U0ALICE', value }, deps)).toBe('queued');
      expect(await runsOf(ts)).toHaveLength(1);
    });
  });
});

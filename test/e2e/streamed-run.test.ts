import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { appMentionEnvelope, blockActionsPayload, messageEnvelope } from '../fakes/slack-fake.js';
import { streamText } from '../fakes/slack/streams.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { createFileStep, finishStep } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/web, baseBranch: main }
repos: [acme/*]
sandbox: { mode: bwrap }
`;

describe('a run streamed into one message with its plan (slack.streamRuns, the default), end to end', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'web', {
      'package.json': JSON.stringify({ name: 'web', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2),
      'src/format.js': 'export function formatBytes(n) {\n  return `${n} B`;\n}\n',
    });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it("shows the stages as a plan, then the reply with its outcome first, in the run's one streamed message, with no status card", async () => {
    const { slack, anthropic, github } = world;
    const plan = (first: 'in_progress' | 'done', second: 'pending' | 'in_progress' | 'done') =>
      toolUseResponse([
        {
          name: 'update_plan',
          input: {
            steps: [
              { step: 'Write a test for 0 bytes', status: first },
              { step: 'Run the tests', status: second },
            ],
          },
        },
      ]);
    anthropic.setScript([
      plan('in_progress', 'pending'),
      toolUseResponse([
        {
          name: 'str_replace_based_edit_tool',
          input: {
            command: 'create',
            path: 'src/format.test.js',
            file_text:
              "import test from 'node:test';\nimport assert from 'node:assert';\nimport { formatBytes } from './format.js';\n\ntest('formats bytes', () => assert.equal(formatBytes(0), '0 B'));\n",
          },
        },
      ]),
      plan('done', 'in_progress'),
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            summary: 'Added a test for formatBytes.',
            filesChanged: [{ path: 'src/format.test.js', change: 'new test' }],
            verification: 'node --test: 1 passed',
            openQuestions: [],
          },
        },
      ]),
    ]);
    const envelope = appMentionEnvelope({
      channel: 'C0DEV',
      user: 'U0ALICE',
      text: '<@U0BOT> add a test for `formatBytes` in src/format.js covering 0 bytes. `npm test` must pass.',
    });
    expect((await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    const threadTs = (envelope.event as { ts: string }).ts;

    const stream = await pollFor(
      () => slack.streamsIn('C0DEV', threadTs).find((s) => s.state === 'stopped'),
      60_000,
      () => `streams: ${JSON.stringify(slack.streamsIn('C0DEV', threadTs))}`,
    );
    const pull = github.pulls('acme', 'web')[0];
    expect(pull).toBeDefined();
    expect(stream).toMatchObject({ displayMode: 'plan', recipient: { user: 'U0ALICE', team: 'T0TEAM' }, planTitle: 'Done: acme/web' });
    const tasks = stream.parts.flatMap((part) => (part.kind === 'task' ? [`${part.task.id}:${part.task.status}`] : []));
    // The agent's own plan among the stages, marked as its account, as it last stated it (a step it never said was
    // done no longer shows as under way once the run is over).
    expect(tasks).toEqual([
      'reading:complete',
      'preparing:complete',
      'working:complete',
      'agent-1:complete',
      'agent-2:pending',
      'edits:complete',
      'verifying:complete',
      'publishing:complete',
    ]);
    const titles = stream.parts.flatMap((part) => (part.kind === 'task' && part.task.id.startsWith('agent-') ? [part.task.title] : []));
    expect(titles).toEqual(["Write a test for 0 bytes (the agent's plan)", "Run the tests (the agent's plan)"]);
    expect(anthropic.requests[0]?.body.tools.map((t: { name: string }) => t.name)).toContain('update_plan');
    expect(stream.parts.find((part) => part.kind === 'task' && part.task.id === 'edits')).toMatchObject({ task: { output: '1 file: src/format.test.js' } });
    const reply = stream.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('');
    expect(reply).toMatch(/^Outcome: `npm test` passes after the change/);
    expect(reply).toContain(`[PR #${pull!.number}: `);

    expect(stream.parts.find((part) => part.kind === 'task' && part.task.id === 'reading')).toMatchObject({
      task: { output: expect.stringMatching(/^Testing · /) },
    });

    // The thread holds the mention and the streamed message, the run's only one: no status card, no separate reply.
    await slack.waitFor((c) => c.method === 'reactions.add' && c.args.name === 'white_check_mark', 10_000);
    const fromWrench = slack.messages('C0DEV', threadTs).filter((m) => m.bot_id);
    expect(fromWrench.map((m) => m.ts)).toEqual([stream.ts]);
    expect(slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === threadTs)).toEqual([]);
    // Started when the run was queued, before a worker took it: the plan said so first.
    expect(slack.callsTo('chat.startStream').find((c) => c.args.thread_ts === threadTs)?.args.chunks).toContainEqual(
      expect.objectContaining({ type: 'plan_update', title: expect.stringMatching(/^Queued: .* · to stop it, mention me with "stop"$/) }),
    );
  });

  it("asks in the run's one message while paused (the question and its buttons), and the resumed run ends that message with the question and the answer quoted", async () => {
    const { slack, anthropic } = world;
    anthropic.setScript([
      createFileStep('src/theme.js', 'export const theme = {};\n'),
      toolUseResponse([
        { id: 'toolu_ask_colour', name: 'ask_requester', input: { question: 'Which colour should the header use?', suggestedAnswers: ['Blue', 'Green'] } },
      ]),
      createFileStep('src/header.js', "export const header = 'green';\n"),
      finishStep('Added the header in green, as asked.'),
    ]);
    const envelope = appMentionEnvelope({
      channel: 'C0DEV',
      user: 'U0ALICE',
      text: '<@U0BOT> add src/header.js exporting `header` and a theme in src/theme.js',
    });
    expect((await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    const threadTs = (envelope.event as { ts: string }).ts;
    const paused = await pollFor(
      () => slack.streamsIn('C0DEV', threadTs).find((s) => s.state === 'stopped'),
      60_000,
      () => `streams: ${JSON.stringify(slack.streamsIn('C0DEV', threadTs))}`,
    );
    expect(paused.planTitle).toBe('Paused: waiting for an answer: acme/web');
    expect(paused.parts.flatMap((p) => (p.kind === 'task' ? [`${p.task.id}:${p.task.status}`] : []))).toContain('question:in_progress');
    // The question is in the run's message, with the buttons that answer it; no message of its own.
    expect(streamText(paused)).toContain('<@U0ALICE> I have a question before I go on:\n> Which colour should the header use?');
    expect(JSON.stringify(paused.closingBlocks)).toMatch(/"action_id":"wrench_answer_0".*"text":"Blue".*"action_id":"wrench_answer_1".*"text":"Green"/);
    expect(slack.messages('C0DEV', threadTs).filter((m) => m.bot_id)).toHaveLength(1);

    await slack.deliverEvent(
      world.eventsUrl(),
      SIGNING_SECRET,
      messageEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: 'Green please', thread_ts: threadTs }),
    );
    // The resumed run takes the paused message over (a stopped stream is edited from then on) and ends it there.
    type Plan = { type: string; title: string; tasks: Array<{ task_id: string; status: string }> };
    const planIn = (blocks: unknown[] | undefined) => blocks?.find((b): b is Plan => (b as Plan).type === 'plan');
    const done = await pollFor(
      () => slack.messages('C0DEV', threadTs).find((m) => m.ts === paused.ts && planIn(m.blocks)?.title === 'Done: acme/web'),
      60_000,
      () => `thread: ${JSON.stringify(slack.messages('C0DEV', threadTs))}`,
    );
    expect(planIn(done.blocks)?.tasks.map((t) => `${t.task_id}:${t.status}`)).toContain('question:complete');
    expect(JSON.stringify(done.blocks)).toMatch(/Opened \[PR #\d+/);
    expect(JSON.stringify(done)).not.toContain('Paused');
    expect(JSON.stringify(done.blocks)).not.toContain('wrench_answer_');
    const reply = done.blocks?.find((b) => (b as { type: string }).type === 'markdown') as { text: string } | undefined;
    expect(reply?.text).toMatch(/^> <@U0ALICE> I asked: Which colour should the header use\?\n> <@U0ALICE> answered: Green please\n/);
    // The thread: the person's mention and answer, and the run's one message; no second stream, no question, no card.
    expect(slack.streamsIn('C0DEV', threadTs)).toHaveLength(1);
    const fromWrench = slack.messages('C0DEV', threadTs).filter((m) => m.bot_id);
    expect(fromWrench.map((m) => m.ts)).toEqual([paused.ts]);
    expect(
      slack
        .messages('C0DEV', threadTs)
        .filter((m) => !m.bot_id)
        .map((m) => m.text),
    ).toEqual([(envelope.event as { text: string }).text, 'Green please']);
    expect(slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === threadTs)).toEqual([]);
  });

  it('ends a run that asked twice with both questions and both answers quoted, in order', async () => {
    const { slack, anthropic } = world;
    anthropic.setScript([
      toolUseResponse([{ id: 'toolu_ask_unit', name: 'ask_requester', input: { question: 'Which unit for sizes?', suggestedAnswers: ['KB', 'KiB'] } }]),
      toolUseResponse([{ id: 'toolu_ask_digits', name: 'ask_requester', input: { question: 'How many decimals?', suggestedAnswers: ['1', '2'] } }]),
      createFileStep('src/units.js', "export const unit = 'KiB';\n"),
      finishStep('Added the unit, KiB with 2 decimals.'),
    ]);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> add src/units.js exporting `unit`' });
    expect((await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    const threadTs = (envelope.event as { ts: string }).ts;
    // Each question shows in the run's one message with its buttons (the first in the stopped stream, the second in that message edited).
    const answer = async (question: string, text: string) => {
      await pollFor(
        () =>
          slack.streamsIn('C0DEV', threadTs).find((s) => s.state === 'stopped' && streamText(s).includes(question)) ??
          slack
            .messages('C0DEV', threadTs)
            .find((m) => m.bot_id && JSON.stringify(m.blocks ?? []).includes(question) && JSON.stringify(m.blocks).includes('wrench_answer_')),
        60_000,
        () => `thread: ${JSON.stringify(slack.messages('C0DEV', threadTs))}`,
      );
      await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, messageEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text, thread_ts: threadTs }));
    };
    await answer('Which unit for sizes?', 'KiB');
    await answer('How many decimals?', 'Two');
    const done = await pollFor(
      () => slack.messages('C0DEV', threadTs).find((m) => m.bot_id && JSON.stringify(m.blocks ?? []).includes('Done: acme/web')),
      60_000,
      () => `thread: ${JSON.stringify(slack.messages('C0DEV', threadTs))}`,
    );
    const reply = done.blocks?.find((b) => (b as { type: string }).type === 'markdown') as { text: string } | undefined;
    expect(reply?.text).toMatch(
      /^> <@U0ALICE> I asked: Which unit for sizes\?\n> <@U0ALICE> answered: KiB\n\n> <@U0ALICE> I asked: How many decimals\?\n> <@U0ALICE> answered: Two\n\n/,
    );
  });

  it("answers a streamed run's question with a button in its message: the run goes on in the same message", async () => {
    const { slack, anthropic } = world;
    anthropic.setScript([
      toolUseResponse([{ id: 'toolu_ask_size', name: 'ask_requester', input: { question: 'Which size for the logo?', suggestedAnswers: ['Small', 'Large'] } }]),
      createFileStep('src/logo.js', "export const logo = 'large';\n"),
      finishStep('Added the logo, large.'),
    ]);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> add src/logo.js exporting `logo`' });
    expect((await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    const threadTs = (envelope.event as { ts: string }).ts;
    const paused = await pollFor(
      () => slack.streamsIn('C0DEV', threadTs).find((s) => s.state === 'stopped'),
      60_000,
      () => `streams: ${JSON.stringify(slack.streamsIn('C0DEV', threadTs))}`,
    );
    type Button = { action_id: string; value: string; text: { text: string } };
    const buttons = paused.closingBlocks.flatMap((b) => ((b as { type: string }).type === 'actions' ? (b as { elements: Button[] }).elements : []));
    const large = buttons.find((b) => b.text.text === 'Large');
    const small = buttons.find((b) => b.text.text === 'Small');
    expect(large).toBeDefined();
    const press = (button: Button) =>
      slack.deliverInteraction(
        world.eventsUrl(),
        SIGNING_SECRET,
        blockActionsPayload({
          user: 'U0ALICE',
          channel: 'C0DEV',
          message_ts: paused.ts,
          thread_ts: threadTs,
          action_id: button.action_id,
          value: button.value,
        }),
      );
    const before = slack.calls.length;
    await press(large!);
    // The answer takes the buttons off the message at once (before the resumed run takes it over): who answered what instead.
    const answered = await slack.waitFor((c) => c.method === 'chat.update' && c.args.ts === paused.ts && slack.calls.indexOf(c) >= before, 30_000);
    const answeredBlocks = JSON.stringify(answered.args.blocks);
    expect(answeredBlocks).toContain('<@U0ALICE> answered: Large');
    expect(answeredBlocks).not.toContain('wrench_answer_');
    expect(answeredBlocks).toContain('"title":"Queued: acme/web"');
    // A stale button pressed afterwards says who answered what, only to its presser, and answers nothing.
    await press(small!);
    const note = await slack.waitFor((c) => c.method === 'chat.postEphemeral' && slack.calls.indexOf(c) > slack.calls.indexOf(answered), 30_000);
    expect(note.args.text).toBe('That question is settled already: <@U0ALICE> answered: Large');
    const done = await pollFor(
      () => slack.messages('C0DEV', threadTs).find((m) => m.ts === paused.ts && JSON.stringify(m.blocks ?? []).includes('Done: acme/web')),
      60_000,
      () => `thread: ${JSON.stringify(slack.messages('C0DEV', threadTs))}`,
    );
    expect(JSON.stringify(done.blocks)).toContain('<@U0ALICE> answered: Large');
    expect(
      slack
        .messages('C0DEV', threadTs)
        .filter((m) => m.bot_id)
        .map((m) => m.ts),
    ).toEqual([paused.ts]);
    expect(anthropic.requests.some((r) => JSON.stringify(r.body.messages).includes('answered: Large'))).toBe(true);
    expect(anthropic.requests.some((r) => JSON.stringify(r.body.messages).includes('answered: Small'))).toBe(false);
  });

  it("makes the run's one message an ordinary one (plan, Cancel button, reply) where streaming is refused, and the next run's too", async () => {
    const { slack, anthropic } = world;
    const script = (file: string) => [
      toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: file, file_text: 'export const x = 1;\n' } }]),
      toolUseResponse([
        { name: 'finish_task', input: { summary: `Added ${file}.`, filesChanged: [{ path: file, change: 'new' }], verification: 'none', openQuestions: [] } },
      ]),
    ];
    slack.startOutage({ error: 'not_allowed' }, { methods: ['chat.startStream'] });
    const mention = async (file: string) => {
      anthropic.setScript(script(file));
      const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> add ${file} exporting x = 1.` });
      expect((await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
      const threadTs = (envelope.event as { ts: string }).ts;
      await slack.waitFor((c) => c.method === 'reactions.add' && c.args.name === 'white_check_mark' && c.args.timestamp === threadTs, 60_000);
      return threadTs;
    };
    const refused = await mention('src/one.js');
    // Refused at the first step: the plan and the reply arrive as one ordinary message, which stood in for the card.
    expect(slack.streamsIn('C0DEV', refused)).toHaveLength(0);
    const first = slack.messages('C0DEV', refused).filter((m) => m.bot_id);
    expect(first).toHaveLength(1);
    expect(first[0]?.text).toContain(':white_check_mark: Publish: open or update the pull request');
    expect(first[0]?.text).toContain('Outcome:');
    const firstPost = slack.callsTo('chat.postMessage').find((c) => c.args.thread_ts === refused);
    expect(JSON.stringify(firstPost?.args.blocks)).toContain('wrench_cancel_run');

    // Remembered for the workspace: the next run does not try, and has the same shape: one ordinary message with its
    // plan and reply (no card, no separate reply), the plan tool offered since the message shows the plan.
    const startsBefore = slack.callsTo('chat.startStream').length;
    const next = await mention('src/two.js');
    expect(slack.callsTo('chat.startStream')).toHaveLength(startsBefore);
    expect(anthropic.requests.at(-1)?.body.tools.map((t: { name: string }) => t.name)).toContain('update_plan');
    const second = slack.messages('C0DEV', next).filter((m) => m.bot_id);
    expect(second).toHaveLength(1);
    expect(second[0]?.text).toContain(':white_check_mark: Publish: open or update the pull request');
    expect(second[0]?.text).toContain('Outcome:');
    expect(JSON.stringify(second[0]?.blocks ?? [])).not.toContain('wrench_cancel_run');
    slack.recover();
  });
});

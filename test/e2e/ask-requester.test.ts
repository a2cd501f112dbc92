import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import type { RecordedRequest } from '../fakes/anthropic-fake.js';
import { appMentionEnvelope, blockActionsPayload, messageEnvelope, type SlackCall } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';
import { pollFor } from '../fakes/shared/wait-for.js';

const REPO_FILES = { 'README.md': '# app\n', 'src/index.js': 'export const a = 1;\n' };

const askStep = (id: string, question: string, suggestedAnswers: string[] = []) =>
  toolUseResponse([{ id, name: 'ask_requester', input: { question, suggestedAnswers } }]);

type Message = { role: string; content: unknown };
const messagesOf = (request: RecordedRequest) => (request.body as { messages: Message[] }).messages;

/** The tool_result blocks a model request sends back for one tool call. */
function toolResultsFor(requests: RecordedRequest[], toolUseId: string) {
  return requests.flatMap((request) =>
    messagesOf(request).flatMap((m) =>
      m.role === 'user' && Array.isArray(m.content)
        ? (m.content as Array<{ type: string; tool_use_id?: string; content?: unknown; is_error?: boolean }>).filter(
            (b) => b.type === 'tool_result' && b.tool_use_id === toolUseId,
          )
        : [],
    ),
  );
}

function worldHelpers(world: () => E2eWorld) {
  const mention = async (text: string, user = 'U0ALICE') => {
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user, text: `<@U0BOT> ${text}` });
    await world().slack.deliverEvent(world().eventsUrl(), SIGNING_SECRET, envelope);
    return (envelope.event as { ts: string }).ts;
  };
  const reply = (threadTs: string, user: string, text: string) =>
    world().slack.deliverEvent(world().eventsUrl(), SIGNING_SECRET, messageEnvelope({ channel: 'C0DEV', user, text, thread_ts: threadTs }));
  const question = (threadTs: string, nth = 1) =>
    world().slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.thread_ts === threadTs &&
        /I have a question/.test(String(c.args.text)) &&
        world()
          .slack.callsTo('chat.postMessage')
          .filter((o) => o.args.thread_ts === threadTs && /I have a question/.test(String(o.args.text))).length >= nth,
      60_000,
    );
  const questionsIn = (threadTs: string) =>
    world()
      .slack.callsTo('chat.postMessage')
      .filter((c) => c.args.thread_ts === threadTs && /I have a question/.test(String(c.args.text)));
  const press = async (threadTs: string, message: SlackCall, user: string, index: number) => {
    const actions = (message.args.blocks as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>).find((b) => b.type === 'actions')!;
    const button = actions.elements![index];
    // The question's ts: its message in the thread holds these buttons (its text changes once it is answered).
    const ts = world()
      .slack.messages('C0DEV', threadTs)
      .find((m) => m.text.includes(String(message.args.text).split('\n')[1]!))!.ts;
    await world().slack.deliverInteraction(
      world().eventsUrl(),
      SIGNING_SECRET,
      blockActionsPayload({ user, channel: 'C0DEV', message_ts: ts, thread_ts: threadTs, action_id: button!.action_id, value: button!.value }),
    );
  };
  const finalReply = (threadTs: string, pattern: RegExp, timeoutMs = 120_000) =>
    world().slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && pattern.test(String(c.args.text)), timeoutMs);
  return { mention, reply, question, questionsIn, press, finalReply };
}

describe('the agent asks its requester (ask_requester)', () => {
  let world: E2eWorld;
  const h = worldHelpers(() => world);

  beforeAll(async () => {
    world = await createE2eWorld(`
channels:
  C0DEV: { repo: acme/app }
sandbox: { mode: bwrap }
access: { approvers: [U0BOSS] }
limits: { concurrency: 1 }
# The card surface: these tests read the status card's "Waiting for an answer" / "answered" lines and the replies
# posted beside it (a streamed run's question and resume: e2e streamed-run).
slack: { streamRuns: false }
`);
    await world.github.createRepo('acme', 'app', REPO_FILES);
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('pauses without holding the worker, and the answer in the thread resumes the same conversation to a PR', async () => {
    const script = scriptByRun({
      'header colour': [
        createFileStep('src/theme.js', 'export const theme = {};\n'),
        askStep('toolu_ask_colour', 'Which colour should the header use?', ['Blue', 'Green']),
        createFileStep('src/header.js', "export const header = 'green';\n"),
        finishStep('Added the header in green, as asked.'),
      ],
      'other thread': [createFileStep('src/other.js', 'export const other = 1;\n'), finishStep('Added other.')],
    });
    world.anthropic.setScript(script.items);
    const threadA = await h.mention('header colour: add src/header.js exporting `header` and a theme in src/theme.js');
    const asked = await h.question(threadA);
    // The question mentions the requester and offers the suggested answers as buttons.
    expect(String(asked.args.text)).toContain('<@U0ALICE>');
    expect(String(asked.args.text)).toContain('Which colour should the header use?');
    expect(JSON.stringify(asked.args.blocks)).toMatch(/"action_id":"wrench_answer_0".*"text":"Blue".*"action_id":"wrench_answer_1".*"text":"Green"/);
    // The work so far is on the run's pushed branch, with no pull request yet.
    const gitDir = world.github.gitDir('acme', 'app');
    const branches = () => execFileSync('git', ['--git-dir', gitDir, 'branch', '--list', 'wrench/*', '--format=%(refname:short)'], { encoding: 'utf8' });
    await world.slack.waitFor((c) => c.method === 'chat.update' && String(c.args.text).includes('Waiting for an answer'), 30_000);
    const branch = branches()
      .split('\n')
      .find((b) => b.includes('header-colour'))!;
    expect(execFileSync('git', ['--git-dir', gitDir, 'show', `${branch}:src/theme.js`], { encoding: 'utf8' })).toContain('theme');
    expect(world.github.pulls('acme', 'app')).toHaveLength(0);

    // With one worker slot, another thread's task runs to its PR while the first waits.
    const threadB = await h.mention('other thread: add src/other.js exporting `other`');
    await h.finalReply(threadB, /Opened PR #/);
    expect(world.github.pulls('acme', 'app').map((p) => p.headRef)).not.toContain(branch);

    // Someone else's reply is not the answer: a note only they see.
    await h.reply(threadA, 'U0BOB', 'I would go with blue');
    await world.slack.waitFor(
      () => world.slack.ephemerals.some((e) => e.user === 'U0BOB' && e.thread_ts === threadA && /not taken as the answer/.test(e.text)),
      15_000,
    );
    // The requester's plain reply resumes the run.
    await h.reply(threadA, 'U0ALICE', 'Green please');
    const done = await h.finalReply(threadA, /Opened PR #/);
    const pull = world.github.pulls('acme', 'app').find((p) => p.headRef === branch)!;
    expect(String(done.args.text)).toContain(`PR #${pull.number}`);
    expect(pull.draft).toBeFalsy();
    const files = execFileSync('git', ['--git-dir', gitDir, 'diff', '--name-only', `main...${branch}`], { encoding: 'utf8' });
    expect(files).toContain('src/theme.js');
    expect(files).toContain('src/header.js');

    // The model request after the resume holds the answer as the question's tool_result, in the same conversation.
    const results = toolResultsFor(world.anthropic.requests, 'toolu_ask_colour');
    expect(results.length).toBeGreaterThan(0);
    expect(JSON.stringify(results[0]!.content)).toContain('Green please');
    expect(results.some((r) => JSON.stringify(r.content).includes('blue'))).toBe(false);
    const resumed = world.anthropic.requests.find((r) => toolResultsFor([r], 'toolu_ask_colour').length > 0)!;
    expect(JSON.stringify(messagesOf(resumed))).toContain('src/theme.js');
    expect(script.trace.filter((t) => t.run === 'header colour').map((t) => t.step)).toEqual([0, 1, 2, 3]);
    // The question shows its answer; the buttons are gone.
    const edited = await world.slack.waitFor((c) => c.method === 'chat.update' && /answered: Green please/.test(String(c.args.text)), 15_000);
    expect(JSON.stringify(edited.args.blocks)).not.toContain('wrench_answer_');
  });

  it('a suggested-answer button answers too; only the requester or an approver may press it', async () => {
    const script = scriptByRun({
      'button task': [
        askStep('toolu_ask_button', 'Should the export be named `total` or `sum`?', ['total', 'sum']),
        createFileStep('src/sum.js', 'export const sum = (a, b) => a + b;\n'),
        finishStep('Added sum.'),
      ],
    });
    world.anthropic.setScript(script.items);
    const thread = await h.mention('button task: add an adder in src/sum.js');
    const asked = await h.question(thread);
    await h.press(thread, asked, 'U0BOB', 0);
    await world.slack.waitFor(
      () => world.slack.ephemerals.some((e) => e.user === 'U0BOB' && e.thread_ts === thread && /not taken as the answer/.test(e.text)),
      15_000,
    );
    await h.press(thread, asked, 'U0ALICE', 1);
    await h.finalReply(thread, /Opened PR #/);
    const results = toolResultsFor(world.anthropic.requests, 'toolu_ask_button');
    // Who answered, by name: the agent never gets Slack's <@U…> wire format.
    expect(JSON.stringify(results[0]!.content)).toMatch(/^"?user-u0alice \(the requester\) answered: sum/);
    expect(JSON.stringify(results[0]!.content)).not.toContain('<@');
    // A second press after the answer changes nothing.
    await h.press(thread, asked, 'U0ALICE', 0);
    await world.slack.waitFor(() => world.slack.ephemerals.some((e) => e.user === 'U0ALICE' && /already answered/.test(e.text)), 15_000);
    expect(toolResultsFor(world.anthropic.requests, 'toolu_ask_button').every((r) => !JSON.stringify(r.content).includes('total'))).toBe(true);
  });

  it('"@wrench stop" while the run waits withdraws the question and ends the run with what it has', async () => {
    const script = scriptByRun({
      'stop while waiting': [
        createFileStep('src/wip.js', 'export const wip = 1;\n'),
        askStep('toolu_ask_stop', 'Keep the old API too?', ['Yes', 'No']),
        finishStep('never reached'),
      ],
    });
    world.anthropic.setScript(script.items);
    const thread = await h.mention('stop while waiting: add src/wip.js exporting `wip`');
    await h.question(thread);
    await world.slack.deliverEvent(
      world.eventsUrl(),
      SIGNING_SECRET,
      appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> stop', thread_ts: thread }),
    );
    const reply = await h.finalReply(thread, /Cancelled/);
    expect(String(reply.args.text)).toMatch(/draft PR #\d+|kept on `wrench\//);
    expect(String(reply.args.text)).toContain('Cancelled by <@U0ALICE> while waiting for an answer. The work done until then is in draft pull request #');
    await world.slack.waitFor((c) => c.method === 'chat.update' && /Cancelled by <@U0ALICE> before an answer came/.test(String(c.args.text)), 15_000);
    expect(toolResultsFor(world.anthropic.requests, 'toolu_ask_stop')).toHaveLength(0);
    expect(script.trace.filter((t) => t.run === 'stop while waiting')).toHaveLength(2);
  });

  it('"@wrench stop" while a German run waits says in German who cancelled and what became of the work', async () => {
    world.slack.addUser({ id: 'U0GRETA', name: 'greta', locale: 'de-DE' });
    const script = scriptByRun({
      'stopp beim warten': [
        createFileStep('src/halb.js', 'export const halb = 1;\n'),
        askStep('toolu_ask_stopp', 'Die alte API auch behalten?', ['Ja', 'Nein']),
        finishStep('never reached'),
      ],
    });
    world.anthropic.setScript(script.items);
    const thread = await h.mention('stopp beim warten: add src/halb.js exporting `halb`', 'U0GRETA');
    await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === thread && /Ich habe eine Frage, bevor ich weitermache/.test(String(c.args.text)),
      60_000,
    );
    await world.slack.deliverEvent(
      world.eventsUrl(),
      SIGNING_SECRET,
      appMentionEnvelope({ channel: 'C0DEV', user: 'U0GRETA', text: '<@U0BOT> stop', thread_ts: thread }),
    );
    const reply = await h.finalReply(thread, /Vorzeitig beendet/);
    const text = String(reply.args.text);
    expect(text).toContain(
      '*Vorzeitig beendet*\nVon <@U0GRETA> abgebrochen, während der Lauf auf eine Antwort wartete. Die bis dahin erledigte Arbeit steht im Entwurfs-Pull-Request #',
    );
    expect(text).not.toMatch(/Cancelled|Stopped early/);
  });

  it('the question card has "Decide yourself" (the agent goes on with its default) and "Cancel" (ends the run like stop)', async () => {
    const script = scriptByRun({
      'decide task': [
        askStep('toolu_ask_decide', 'Tabs or spaces in src/fmt.js?', ['Tabs', 'Spaces']),
        createFileStep('src/fmt.js', 'export const fmt = 1;\n'),
        finishStep('Used spaces, the default.'),
      ],
      'cancel task': [
        createFileStep('src/cx.js', 'export const cx = 1;\n'),
        askStep('toolu_ask_cancel', 'Rename cx too?', ['Yes']),
        finishStep('never reached'),
      ],
    });
    world.anthropic.setScript(script.items);
    const decided = await h.mention('decide task: add src/fmt.js');
    const asked = await h.question(decided);
    const buttons = (asked.args.blocks as Array<{ type: string; elements?: Array<{ action_id: string; text: { text: string } }> }>).find(
      (b) => b.type === 'actions',
    )!.elements!;
    expect(buttons.map((b) => b.text.text)).toEqual(['Tabs', 'Spaces', 'Decide yourself', 'Cancel']);
    await h.press(decided, asked, 'U0ALICE', 2);
    await h.finalReply(decided, /Opened PR #/);
    const results = toolResultsFor(world.anthropic.requests, 'toolu_ask_decide');
    expect(JSON.stringify(results[0]!.content)).toMatch(/answered: No preference: decide yourself, go on with your own default/);

    const cancelled = await h.mention('cancel task: add src/cx.js');
    const question = await h.question(cancelled);
    await h.press(cancelled, question, 'U0ALICE', 2);
    await h.finalReply(cancelled, /Cancelled/);
    expect(toolResultsFor(world.anthropic.requests, 'toolu_ask_cancel')).toHaveLength(0);
  });

  it('a fourth question in one run gets a tool error telling the agent to decide itself', async () => {
    const script = scriptByRun({
      'many questions': [
        askStep('toolu_q1', 'First?', ['yes']),
        askStep('toolu_q2', 'Second?', ['yes']),
        askStep('toolu_q3', 'Third?', ['yes']),
        askStep('toolu_q4', 'Fourth?', ['yes']),
        finishStep('Decided the rest myself.'),
      ],
    });
    world.anthropic.setScript(script.items);
    const thread = await h.mention('many questions: look at src/index.js and tell me what it exports');
    for (let nth = 1; nth <= 3; nth++) {
      const asked = await h.question(thread, nth);
      await h.press(thread, h.questionsIn(thread)[nth - 1] ?? asked, 'U0ALICE', 0);
    }
    await h.finalReply(thread, /Decided the rest myself/);
    const fourth = toolResultsFor(world.anthropic.requests, 'toolu_q4');
    expect(fourth.length).toBeGreaterThan(0);
    expect(fourth[0]!.is_error).toBe(true);
    expect(JSON.stringify(fourth[0]!.content)).toMatch(/already asked 3 questions.*decide yourself/);
    expect(h.questionsIn(thread)).toHaveLength(3);
    for (const id of ['toolu_q1', 'toolu_q2', 'toolu_q3']) expect(JSON.stringify(toolResultsFor(world.anthropic.requests, id)[0]!.content)).toContain('yes');
  });
});

describe('an unanswered question', () => {
  let world: E2eWorld;
  const h = worldHelpers(() => world);

  beforeAll(async () => {
    // 0.002 h: the question times out after about seven seconds.
    world = await createE2eWorld(`
channels:
  C0DEV: { repo: acme/app }
sandbox: { mode: bwrap }
limits: { concurrency: 1, questionTimeoutHours: 0.002 }
slack: { streamRuns: false }  # the card's "No answer came in time" (the card surface)
`);
    await world.github.createRepo('acme', 'app', REPO_FILES);
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('ends the run after the timeout with what it has: a draft PR and a reply saying why', async () => {
    const script = scriptByRun({
      'timeout task': [
        createFileStep('src/partial.js', 'export const partial = true;\n'),
        askStep('toolu_ask_timeout', 'Which API version should I target?', ['v1', 'v2']),
        finishStep('never reached'),
      ],
    });
    world.anthropic.setScript(script.items);
    const thread = await h.mention('timeout task: add src/partial.js exporting `partial`');
    await h.question(thread);
    // Halfway to the timeout the requester is reminded, through the worker's delayed reminder job.
    const reminder = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === thread && /A reminder: I am still waiting/.test(String(c.args.text)),
      15_000,
    );
    expect(String(reminder.args.text)).toContain('<@U0ALICE>');
    const reply = await h.finalReply(thread, /Stopped early/, 90_000);
    // The reminder came before the run gave up on the answer.
    expect(world.slack.calls.indexOf(reminder)).toBeLessThan(world.slack.calls.indexOf(reply));
    expect(String(reply.args.text)).toMatch(/Nobody answered my question within 7s/);
    const pull = world.github.pulls('acme', 'app')[0];
    expect(pull!.draft).toBe(true);
    expect(String(reply.args.text)).toContain(`draft PR #${pull!.number}`);
    await world.slack.waitFor((c) => c.method === 'chat.update' && /No answer came in time/.test(String(c.args.text)), 15_000);
    // The agent was not asked again after the question.
    expect(script.trace.filter((t) => t.run === 'timeout task')).toHaveLength(2);

    // The requester answers late: told that the run ended without it, and how to go on.
    await h.reply(thread, 'U0ALICE', 'v2');
    await world.slack.waitFor(() => world.slack.ephemerals.some((e) => e.user === 'U0ALICE' && e.thread_ts === thread && /timed out/.test(e.text)), 15_000);
    const note = world.slack.ephemerals.find((e) => e.user === 'U0ALICE' && e.thread_ts === thread && /timed out/.test(e.text))!;
    expect(note.text).toContain('"Which API version should I target?"');
    expect(note.text).toMatch(/so that run ended with what it had, and your reply was not taken as its answer/);
    expect(note.text).toMatch(/To go on, mention me in this thread with your answer \(<@U0BOT> followed by it\)/);
    // Nothing else started.
    expect(script.trace.filter((t) => t.run === 'timeout task')).toHaveLength(2);
  });

  it('edits the reminder into the answer once the requester answers after it, so the thread never says it still waits', async () => {
    const script = scriptByRun({
      'reminded task': [askStep('toolu_ask_reminded', 'Which port should the server use?', ['8080', '3000']), finishStep('Used port 3000.')],
    });
    world.anthropic.setScript(script.items);
    const thread = await h.mention('reminded task: pick the server port');
    await h.question(thread);
    const reminder = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === thread && /A reminder: I am still waiting/.test(String(c.args.text)),
      15_000,
    );
    await h.reply(thread, 'U0ALICE', '3000');
    await h.finalReply(thread, /Used port 3000/, 90_000);
    const messages = () => world.slack.messages('C0DEV', thread);
    const edited = await pollFor(
      () =>
        messages().find(
          (m) => m.bot_id && /^<@U0ALICE> I asked:\n> Which port should the server use\?\n<@U0ALICE> answered: 3000$/.test(m.text) && m.ts !== undefined,
        ),
      15_000,
      () => JSON.stringify(messages()),
    );
    expect(messages().filter((m) => /A reminder/.test(m.text))).toEqual([]);
    // The reminder itself was edited (the question's own message is edited the same way): two such messages, one reminder posted.
    expect(messages().filter((m) => m.text === edited.text)).toHaveLength(2);
    expect(world.slack.calls.filter((c) => c.method === 'chat.postMessage' && /A reminder/.test(String(c.args.text)))).toContain(reminder);
  });

  it("speaks the requester's language throughout: the status line, the reminder, the timeout stop and the late-answer note in German", async () => {
    // No reader model here: the rules read the request, and the thread speaks the requester's Slack locale.
    world.slack.addUser({ id: 'U0HANS', name: 'hans', locale: 'de-DE' });
    const script = scriptByRun({
      'german timeout': [
        createFileStep('src/teil.js', 'export const teil = true;\n'),
        askStep('toolu_ask_de', 'Welche API-Version soll ich nehmen?', ['v1', 'v2']),
        finishStep('never reached'),
      ],
    });
    world.anthropic.setScript(script.items);
    const thread = await h.mention('german timeout: add src/teil.js exporting `teil`', 'U0HANS');
    const inThread = (pattern: RegExp, timeoutMs = 60_000) =>
      world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === thread && pattern.test(String(c.args.text)), timeoutMs);
    await inThread(/Ich habe eine Frage, bevor ich weitermache/);
    // The line under the thread read the request in German before the reading knew the language.
    const statuses = world.slack.callsTo('assistant.threads.setStatus').filter((c) => c.args.thread_ts === thread);
    expect(statuses[0]?.args.status).toBe('liest deine Anfrage…');
    expect(statuses[0]?.args.loading_messages).toEqual(['Lese deine Anfrage…', 'Schaue mir acme/app an…']);
    expect(statuses.map((c) => String(c.args.status)).filter((status) => /^is /.test(status))).toEqual([]);
    await inThread(/Zur Erinnerung: Ich warte noch auf deine Antwort auf meine Frage oben/, 15_000);
    const reply = await inThread(/^:warning: Vorzeitig beendet/, 90_000);
    expect(String(reply.args.text)).toContain('Niemand hat meine Frage innerhalb von 7s beantwortet, deshalb habe ich dort aufgehört.');
    expect(String(reply.args.text)).not.toMatch(/Nobody answered/);
    await world.slack.waitFor(
      (c) => c.method === 'chat.update' && /Es kam keine Antwort rechtzeitig/.test(String(c.args.text)) && /Welche API-Version/.test(String(c.args.text)),
      15_000,
    );

    await h.reply(thread, 'U0HANS', 'v2');
    const note = await pollFor(
      () => world.slack.ephemerals.find((e) => e.user === 'U0HANS' && e.thread_ts === thread),
      15_000,
      () => JSON.stringify(world.slack.ephemerals),
    );
    expect(note.text).toMatch(/^Meine Frage \(„Welche API-Version soll ich nehmen\?“\) ist <!date\^\d+\^\{date_short_pretty\} um \{time\}\|/);
    expect(note.text).toContain('erwähne mich in diesem Thread mit deiner Antwort (<@U0BOT> und dahinter die Antwort)');
  });
});

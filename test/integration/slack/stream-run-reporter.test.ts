import type { ProgressDetail } from '../../../src/reporting/progress.js';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { redisKeys } from '../../../src/redis/redis-keys.js';
import type { RunResult } from '../../../src/reporting/run-result.js';
import { createRedactor } from '../../../src/security/redact.js';
import { ACTIONS, ANSWER_ACTION_PREFIX, DECIDE_ACTION, decodeAnswerValue } from '../../../src/slack/action-ids.js';
import { SlackNameDirectory } from '../../../src/slack/slack-name-directory.js';
import type { SlackRunTarget } from '../../../src/slack/slack-run-reporter.js';
import { runStreamKey, SlackStreamRunReporter } from '../../../src/slack/slack-stream-run-reporter.js';
import { outboxSlackClient, ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { startSlackFake, type SlackFake, type SlackStream } from '../../fakes/slack-fake.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';
import { pollFor } from '../../fakes/shared/wait-for.js';

const SECRET = 'xoxb-1234567890-secretsecretsecret';
const CHANNEL = 'C0RUN';
/** The request as read, the reading task's output (the card's first line). */
const READING = 'Bug fix · simple (5–15 min): Fix the date parser';
/** A plan block as a message shows it once edited. */
type PlanShown = { type: 'plan'; title: string; tasks: Array<{ task_id: string; status: string }> };

describe('a run reported as one streamed message with its plan (SlackStreamRunReporter)', () => {
  let slack: SlackFake;
  let server: RedisServer;
  let redis: Redis;
  const outboxes: ThreadOutbox[] = [];

  beforeAll(async () => {
    [slack, server] = await Promise.all([startSlackFake(), startRedisServer()]);
    redis = new Redis(server.url);
  });
  afterEach(async () => {
    await Promise.all(outboxes.splice(0).map((o) => o.stop()));
    slack.reset();
  });
  afterAll(async () => {
    redis.disconnect();
    await Promise.all([slack.stop(), server.stop()]);
  });

  const setUp = (team = 'T0TEAM', minIntervalMs = 0, prefix = uniqueName('stream'), language?: string) => {
    const outbox = new ThreadOutbox(redis, prefix, outboxSlackClient('xoxb-test', slack.apiUrl), createRedactor([SECRET]), createLogger({ level: 'silent' }), {
      baseDelayMs: 20,
      maxDelayMs: 100,
      pollMs: 20,
    });
    outboxes.push(outbox);
    outbox.start();
    const parent = slack.seedMessage(CHANNEL, { user: 'U0ALICE', text: '<@U0BOT> fix the date parser' });
    const thread = { channel: CHANNEL, threadTs: parent.ts };
    const statusKey = `status:${uniqueName('job')}`;
    const newReporter = (extra: Partial<SlackRunTarget> = {}) =>
      new SlackStreamRunReporter(
        outbox,
        {
          team,
          channel: CHANNEL,
          threadTs: parent.ts,
          statusKey,
          repository: 'acme/web',
          reading: { category: 'bug-fixing', complexity: 'simple', elements: {}, summary: 'Fix the date parser' },
          runPageUrl: 'https://wrench.example.com/runs/1',
          recipient: { user: 'U0ALICE', team },
          language,
          ...extra,
        },
        undefined,
        createLogger({ level: 'silent' }),
        minIntervalMs,
      );
    return { outbox, thread, reporter: newReporter(), newReporter, statusKey, prefix };
  };
  const settled = async (outbox: ThreadOutbox, thread: { channel: string; threadTs: string }) => {
    const deadline = Date.now() + 10_000;
    while ((await outbox.waiting(thread)) > 0) {
      if (Date.now() > deadline) throw new Error('the outbox still holds items');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const onlyStream = (threadTs: string): SlackStream => {
    const streams = slack.streamsIn(CHANNEL, threadTs);
    expect(streams).toHaveLength(1);
    return streams[0]!;
  };
  const tasks = (stream: SlackStream) =>
    stream.parts.flatMap((part) => (part.kind === 'task' ? [[part.task.id, part.task.status, part.task.output ?? ''].join(' ')] : []));
  const text = (stream: SlackStream) => stream.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('');

  const result: RunResult = {
    status: 'pr_opened',
    repository: 'acme/web',
    instruction: 'fix the date parser',
    filesChanged: ['src/date.js'],
    diffStat: [{ path: 'src/date.js', added: 3, removed: 1 }],
    durationMs: 90_000,
    pullRequest: { number: 7, url: 'https://github.com/acme/web/pull/7', title: 'Fix the date parser', draft: false },
    measuredTests: { command: 'npm test', failed: false, counts: '12 passed' },
    report: { summary: `Fixed the off-by-one <!channel> with ${SECRET}`, filesChanged: [], verification: '', openQuestions: [] },
  } as RunResult;

  it('shows the stages as a plan that moves, then streams the reply into the same message, outcome first', async () => {
    const { outbox, thread, reporter } = setUp();
    await reporter.phase('preparing');
    await reporter.phase('working', { key: 'editing', path: 'src/date.js' });
    await settled(outbox, thread);
    let stream = onlyStream(thread.threadTs);
    expect(stream).toMatchObject({
      state: 'streaming',
      displayMode: 'plan',
      recipient: { user: 'U0ALICE', team: 'T0TEAM' },
      planTitle: 'Working on acme/web · to stop it, mention me with "stop"',
    });
    expect(tasks(stream)).toEqual([`reading complete ${READING}`, 'preparing complete ', 'working in_progress editing src/date.js']);
    // The run page is reachable from the start, as the card linked it: a source of the request as read.
    const reading = stream.parts.find((part) => part.kind === 'task' && part.task.id === 'reading');
    expect(reading).toMatchObject({ task: { sources: [{ type: 'url', url: 'https://wrench.example.com/runs/1' }] } });
    // No status card: the streamed message is the run's only message.
    expect(slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id)).toHaveLength(1);

    await reporter.phase('verifying');
    await reporter.phase('publishing');
    await reporter.finished(result);
    await settled(outbox, thread);
    stream = onlyStream(thread.threadTs);
    expect(stream.state).toBe('stopped');
    expect(stream.planTitle).toBe('Done: acme/web');
    expect(tasks(stream)).toEqual([
      `reading complete ${READING}`,
      'preparing complete ',
      'working complete editing src/date.js',
      'verifying complete ',
      'publishing complete PR #7',
    ]);
    const reply = text(stream);
    expect(
      reply.startsWith(
        'Outcome: `npm test` passes after the change (12 passed).\n\nOpened [PR #7: Fix the date parser](https://github.com/acme/web/pull/7) (1 file, +3 −1)',
      ),
    ).toBe(true);
    expect(reply).toContain('[Every step of this run](https://wrench.example.com/runs/1)');
    expect(reply).not.toContain(SECRET);
    expect(reply).not.toContain('<!channel>');
    // One message for the run, the stream: no card posted or edited, no separate reply.
    const messages = slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id);
    expect(messages).toHaveLength(1);
    expect(slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(slack.callsTo('chat.update')).toHaveLength(0);
    const rendered = messages.find((m) => m.ts === stream.ts);
    expect(rendered?.blocks?.[0]).toMatchObject({ type: 'plan', title: 'Done: acme/web' });
  });

  it("shows the agent's edits and test runs as tasks of their own, coalesced, and links the run page from the work", async () => {
    const { thread, reporter } = setUp('T0TEAM', 300);
    await reporter.phase('working', { key: 'readingCode' });
    const steps: ProgressDetail[] = [
      { key: 'editing', path: 'src/a.js' },
      { key: 'running', command: 'npm test' },
      { key: 'editing', path: 'src/b.js' },
      { key: 'editing', path: 'src/a.js' },
      { key: 'running', command: 'npx vitest run date' },
      { key: 'running', command: 'ls -la' },
    ];
    for (const step of steps) await reporter.phase('working', step);
    await reporter.phase('verifying');
    const stream = await pollFor(
      () => slack.streamsIn(CHANNEL, thread.threadTs).find((s) => tasks(s).includes('verifying in_progress ')),
      10_000,
      () => JSON.stringify(slack.streamsIn(CHANNEL, thread.threadTs)),
    );
    expect(tasks(stream)).toEqual([
      `reading complete ${READING}`,
      'working complete running `ls -la`',
      'edits complete 2 files: src/a.js, src/b.js',
      'agent-tests complete 2 runs, the last: npx vitest run date',
      'verifying in_progress ',
    ]);
    const working = stream.parts.find((part) => part.kind === 'task' && part.task.id === 'working');
    expect(working).toMatchObject({ task: { sources: [{ type: 'url', url: 'https://wrench.example.com/runs/1', text: 'Every step on the run page' }] } });
    // Coalesced: the phases came faster than the interval between shown states, yet every change is in the plan.
    expect(slack.callsTo('chat.appendStream').length).toBeLessThanOrEqual(2);
  });

  it("shows the agent's own plan as it moves, coalesced with the stages, each step marked as the agent's", async () => {
    const { thread, reporter } = setUp('T0TEAM', 300);
    await reporter.phase('working', { key: 'readingCode' });
    await reporter.plan([{ step: 'Read the parser', status: 'in_progress' }]);
    await reporter.plan([
      { step: 'Read the parser', status: 'done' },
      { step: 'Fix it', status: 'in_progress' },
    ]);
    await reporter.plan([
      { step: 'Read the parser', status: 'done' },
      { step: 'Fix it', status: 'done' },
    ]);
    const stream = await pollFor(
      () => slack.streamsIn(CHANNEL, thread.threadTs).find((s) => tasks(s).includes('agent-2 complete ')),
      10_000,
      () => JSON.stringify(slack.streamsIn(CHANNEL, thread.threadTs)),
    );
    expect(tasks(stream)).toEqual([`reading complete ${READING}`, 'working in_progress reading the code', 'agent-1 complete ', 'agent-2 complete ']);
    expect(stream.parts.flatMap((p) => (p.kind === 'task' && p.task.id.startsWith('agent-') ? [p.task.title] : []))).toEqual([
      "Read the parser (the agent's plan)",
      "Fix it (the agent's plan)",
    ]);
    // Four changes, faster than the interval between shown states: the start and one append at most.
    expect(slack.callsTo('chat.appendStream').length).toBeLessThanOrEqual(1);
  });

  it("goes on in the same message after a restart, its plan showing the new attempt's tasks only, the restart said above it", async () => {
    const { outbox, thread, reporter, newReporter } = setUp();
    await reporter.phase('preparing');
    await reporter.phase('working', { key: 'editing', path: 'src/old.js' });
    await reporter.plan([{ step: 'Change the parser', status: 'in_progress' }]);
    await settled(outbox, thread);
    const first = onlyStream(thread.threadTs);
    // The worker died; the job runs again with the same id, so the same stream key, in a new reporter.
    const again = newReporter();
    const note = ':arrows_counterclockwise: Wrench restarted after an interruption: this run starts again from the beginning.';
    await again.restarted(note);
    await again.phase('preparing', { key: 'cloning', repository: 'acme/web' });
    await settled(outbox, thread);
    // A stream cannot drop the tasks it showed: it is stopped and the same message edited to this attempt's plan.
    let message = slack.messages(CHANNEL, thread.threadTs).find((m) => m.ts === first.ts);
    const planOf = (blocks: unknown[] | undefined) => blocks?.find((b) => (b as { type: string }).type === 'plan') as PlanShown;
    expect(planOf(message?.blocks).tasks.map((task) => `${task.task_id} ${task.status}`)).toEqual(['reading complete', 'preparing in_progress']);
    expect(message?.blocks?.[0]).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: note }] });
    expect(JSON.stringify(message?.blocks)).toContain(ACTIONS.cancelRun);
    expect(message?.text).not.toContain('src/old.js');
    await again.phase('working');
    await again.phase('verifying');
    await again.finished(result);
    await settled(outbox, thread);
    // One message for the run, never a second stream or a reply of its own.
    expect(slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id)).toHaveLength(1);
    expect(slack.streamsIn(CHANNEL, thread.threadTs)).toHaveLength(1);
    expect(slack.callsTo('chat.postMessage')).toHaveLength(0);
    message = slack.messages(CHANNEL, thread.threadTs).find((m) => m.ts === first.ts);
    const plan = planOf(message?.blocks);
    expect(plan.title).toBe('Done: acme/web');
    expect(plan.tasks.map((task) => `${task.task_id} ${task.status}`)).toEqual([
      'reading complete',
      'preparing complete',
      'working complete',
      'verifying complete',
    ]);
    expect(JSON.stringify(plan)).not.toContain('Wrench restarted');
    expect(message?.blocks?.at(-1)).toMatchObject({ type: 'markdown', text: expect.stringMatching(/^Outcome: `npm test` passes/) });
    expect(JSON.stringify(message?.blocks)).not.toContain(ACTIONS.cancelRun);
  });

  it('keeps a run that paused for an answer in one message: the question and its buttons in it while paused, then the resumed run ends it with the question and the answer quoted, never paused', async () => {
    const { outbox, thread, reporter, newReporter, statusKey } = setUp();
    const question = {
      pauseId: 'job-1-q1-abc123',
      question: 'Which format should dates use?\nISO or <US>?',
      suggestedAnswers: ['ISO 8601', 'US'],
      requester: 'U0ALICE',
      timeoutAt: '2026-12-01T10:00:00.000Z',
    };
    await reporter.phase('working', { key: 'editing', path: 'src/date.js' });
    await reporter.asked(question);
    await reporter.phase('waiting', { key: 'askedQuestion', user: '<@U0ALICE>' });
    await settled(outbox, thread);
    const paused = onlyStream(thread.threadTs);
    expect(paused.state).toBe('stopped');
    expect(paused.planTitle).toBe('Paused: waiting for an answer: acme/web');
    // The question is in the run's message (the agent's words escaped), with the buttons that answer it.
    expect(text(paused)).toBe('<@U0ALICE> I have a question before I go on:\n> Which format should dates use?\n> ISO or &lt;US>?');
    const buttons = paused.closingBlocks.flatMap((b) =>
      (b as { type: string }).type === 'actions' ? (b as { elements: Array<{ action_id: string; value: string }> }).elements : [],
    );
    expect(buttons.map((b) => b.action_id)).toEqual([`${ANSWER_ACTION_PREFIX}0`, `${ANSWER_ACTION_PREFIX}1`, DECIDE_ACTION, ACTIONS.cancelRun]);
    expect(decodeAnswerValue(buttons[0]?.value)).toEqual({ pauseId: question.pauseId, index: 0, channel: CHANNEL, threadTs: thread.threadTs });
    expect(slack.callsTo('chat.postMessage')).toHaveLength(0);
    // The resume job reports under the run's first key (the job carries it), as a resumed run.
    const resumed = newReporter({ statusKey, resumed: true });
    await resumed.resumedAfter(question, { kind: 'answer', text: 'ISO 8601', by: 'U0ALICE' });
    await resumed.phase('preparing', { key: 'checkingOut', branch: 'wrench/fix-date' });
    await settled(outbox, thread);
    let message = slack.messages(CHANNEL, thread.threadTs).find((m) => m.ts === paused.ts);
    let plan = message?.blocks?.find((b) => (b as { type: string }).type === 'plan') as PlanShown;
    expect(plan.title).toBe('Working on acme/web · to stop it, mention me with "stop"');
    expect(plan.tasks.map((task) => `${task.task_id} ${task.status}`)).toEqual(['reading complete', 'question complete', 'preparing in_progress']);
    expect(JSON.stringify(message?.blocks)).not.toContain(ANSWER_ACTION_PREFIX);
    await resumed.phase('working');
    await resumed.finished(result);
    await settled(outbox, thread);
    expect(slack.streamsIn(CHANNEL, thread.threadTs)).toHaveLength(1);
    expect(slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id)).toHaveLength(1);
    expect(slack.callsTo('chat.postMessage')).toHaveLength(0);
    message = slack.messages(CHANNEL, thread.threadTs).find((m) => m.ts === paused.ts);
    plan = message?.blocks?.find((b) => (b as { type: string }).type === 'plan') as PlanShown;
    expect(plan.title).toBe('Done: acme/web');
    expect(JSON.stringify(message)).not.toContain('Paused');
    expect(JSON.stringify(message?.blocks)).not.toContain(ANSWER_ACTION_PREFIX);
    const reply = message?.blocks?.at(-1) as { type: string; text: string };
    expect(reply.type).toBe('markdown');
    expect(reply.text).toMatch(
      /^> <@U0ALICE> I asked: Which format should dates use\? ISO or &lt;US>\?\n> <@U0ALICE> answered: ISO 8601\n\nOutcome: `npm test` passes/,
    );
  });

  it('keeps a question that timed out, or a cancel while paused, in the final message as what settled it', async () => {
    const question = {
      pauseId: 'job-2-q1-def456',
      question: 'Which locale?',
      suggestedAnswers: [],
      requester: 'U0ALICE',
      timeoutAt: '2026-12-01T10:00:00.000Z',
    };
    for (const [outcome, line] of [
      [{ kind: 'timeout' }, '> _No answer came in time, so I finish with what I have._'],
      [{ kind: 'cancelled', by: '<@U0BOB>' }, '> _Cancelled by <@U0BOB> before an answer came._'],
    ] as const) {
      const { outbox, thread, reporter, newReporter, statusKey } = setUp();
      await reporter.asked(question);
      await reporter.phase('waiting', { key: 'askedQuestion', user: '<@U0ALICE>' });
      const resumed = newReporter({ statusKey, resumed: true });
      await resumed.resumedAfter(question, outcome);
      await resumed.finished({ ...result, status: 'stopped', pullRequest: undefined, filesChanged: [], diffStat: [] } as RunResult);
      await settled(outbox, thread);
      const messages = slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id);
      expect(messages).toHaveLength(1);
      const reply = messages[0]?.blocks?.find((b) => (b as { type: string }).type === 'markdown') as { text: string };
      expect(reply.text.split('\n').slice(0, 2)).toEqual(['> <@U0ALICE> I asked: Which locale?', line]);
      expect(JSON.stringify(messages[0])).not.toContain('Paused');
    }
  });

  it('keeps the first question and its answer above the second when the resumed run asks again', async () => {
    const { outbox, thread, reporter, newReporter, statusKey } = setUp();
    const first = { pauseId: 'job-4-q1-bbb222', question: 'Which locale?', suggestedAnswers: [], requester: 'U0ALICE', timeoutAt: '2026-12-01T10:00:00.000Z' };
    const second = { ...first, pauseId: 'job-4-q2-ccc333', question: 'Which currency?', suggestedAnswers: ['EUR'] };
    await reporter.asked(first);
    await reporter.phase('waiting', { key: 'askedQuestion', user: '<@U0ALICE>' });
    const resumed = newReporter({ statusKey, resumed: true });
    await resumed.resumedAfter(first, { kind: 'answer', text: 'de-DE', by: 'U0ALICE' });
    await resumed.phase('working');
    await resumed.asked(second);
    await resumed.phase('waiting', { key: 'askedQuestion', user: '<@U0ALICE>' });
    await settled(outbox, thread);
    const messages = slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id);
    expect(messages).toHaveLength(1);
    const shown = messages[0]?.blocks?.filter((b) => (b as { type: string }).type === 'markdown').map((b) => (b as { text: string }).text);
    expect(shown).toEqual([
      '> <@U0ALICE> I asked: Which locale?\n> <@U0ALICE> answered: de-DE',
      '<@U0ALICE> I have a question before I go on:\n> Which currency?',
    ]);
    // The buttons answer the second question.
    const buttons = messages[0]?.blocks?.flatMap((b) =>
      (b as { type: string }).type === 'actions' ? (b as { elements: Array<{ value: string }> }).elements : [],
    );
    expect(decodeAnswerValue(buttons?.[0]?.value)).toMatchObject({ pauseId: second.pauseId, index: 0 });
  });

  it('ends a run that asked three times with every question and what settled each, in order', async () => {
    const { outbox, thread, reporter, newReporter, statusKey } = setUp();
    const asked = (n: number, question: string) => ({
      pauseId: `job-5-q${n}-ddd44${n}`,
      question,
      suggestedAnswers: [],
      requester: 'U0ALICE',
      timeoutAt: '2026-12-01T10:00:00.000Z',
    });
    const [first, second, third] = [asked(1, 'Which locale?'), asked(2, 'Which currency?'), asked(3, 'Round prices?')];
    await reporter.asked(first);
    await reporter.phase('waiting', { key: 'askedQuestion', user: '<@U0ALICE>' });
    const earlier = [
      { question: first.question, requester: 'U0ALICE', outcome: { kind: 'answer', text: 'de-DE', by: 'U0BOB' } },
      { question: second.question, requester: 'U0ALICE', outcome: { kind: 'timeout' } },
    ] as const;
    const resumed = newReporter({ statusKey, resumed: true });
    await resumed.resumedAfter(third, { kind: 'cancelled', by: '<@U0CAROL>' }, [...earlier]);
    await resumed.finished({ ...result, status: 'stopped', pullRequest: undefined, filesChanged: [], diffStat: [] } as RunResult);
    await settled(outbox, thread);
    const messages = slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id);
    expect(messages).toHaveLength(1);
    const reply = messages[0]?.blocks?.find((b) => (b as { type: string }).type === 'markdown') as { text: string };
    expect(reply.text.split('\n\n').slice(0, 3)).toEqual([
      '> <@U0ALICE> I asked: Which locale?\n> <@U0BOB> answered: de-DE',
      '> <@U0ALICE> I asked: Which currency?\n> _No answer came in time, so I finish with what I have._',
      '> <@U0ALICE> I asked: Round prices?\n> _Cancelled by <@U0CAROL> before an answer came._',
    ]);
  });

  it('shows the question and its buttons in the ordinary message that stands in where streaming is refused', async () => {
    slack.startOutage({ error: 'not_allowed' }, { methods: ['chat.startStream'] });
    const { outbox, thread, reporter } = setUp(uniqueName('T0REFUSE'));
    const question = {
      pauseId: 'job-3-q1-aaa111',
      question: 'Keep the old API?',
      suggestedAnswers: ['Yes'],
      requester: 'U0ALICE',
      timeoutAt: '2026-12-01T10:00:00.000Z',
    };
    await reporter.phase('working');
    await reporter.asked(question);
    await reporter.phase('waiting', { key: 'askedQuestion', user: '<@U0ALICE>' });
    await settled(outbox, thread);
    expect(slack.streamsIn(CHANNEL, thread.threadTs)).toHaveLength(0);
    const messages = slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.text).toContain('Paused: waiting for an answer');
    expect(messages[0]?.text).toContain('> Keep the old API?');
    const blocks = JSON.stringify(messages[0]?.blocks);
    expect(blocks).toContain(`${ANSWER_ACTION_PREFIX}0`);
    expect(blocks).toContain(DECIDE_ACTION);
  });

  it("takes a settled question's buttons off its message at once, streamed or ordinary, once, before the resumed run goes on there", async () => {
    for (const team of ['T0TEAM', uniqueName('T0REFUSE')]) {
      if (team !== 'T0TEAM') slack.startOutage({ error: 'not_allowed' }, { methods: ['chat.startStream'] });
      const { outbox, thread, reporter, newReporter, statusKey } = setUp(team);
      const question = {
        pauseId: 'job-6-q1-eee555',
        question: 'Keep the old API?',
        suggestedAnswers: ['Yes'],
        requester: 'U0ALICE',
        timeoutAt: '2026-12-01T10:00:00.000Z',
      };
      await reporter.phase('working');
      await reporter.asked(question);
      await reporter.phase('waiting', { key: 'askedQuestion', user: '<@U0ALICE>' });
      await settled(outbox, thread);
      const [paused] = slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id);
      expect(JSON.stringify(paused?.blocks ?? slack.streamsIn(CHANNEL, thread.threadTs)[0]?.closingBlocks)).toContain(ANSWER_ACTION_PREFIX);
      // Only the form of the question asked: an answer to an earlier question of the run finds none to edit.
      expect(await outbox.settleQuestion(thread, runStreamKey(statusKey), 'job-6-q0-earlier', '<@U0BOB> answered: Old')).toBe(false);
      expect(await outbox.settleQuestion(thread, runStreamKey(statusKey), question.pauseId, '<@U0ALICE> answered: Yes')).toBe(true);
      expect(await outbox.settleQuestion(thread, runStreamKey(statusKey), question.pauseId, '<@U0BOB> answered: No')).toBe(false);
      await settled(outbox, thread);
      let [message] = slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id);
      expect(message?.ts).toBe(paused?.ts);
      const shown = JSON.stringify(message?.blocks);
      expect(shown).not.toContain(ANSWER_ACTION_PREFIX);
      expect(shown).not.toContain(ACTIONS.cancelRun);
      expect(shown).toContain('<@U0ALICE> answered: Yes');
      expect(shown).toContain('Keep the old API?');
      expect(shown).toContain('Queued: acme/web');
      expect(shown).not.toContain('Paused');
      // The resumed run then takes the same message over as before.
      const resumed = newReporter({ statusKey, resumed: true });
      await resumed.resumedAfter(question, { kind: 'answer', text: 'Yes', by: 'U0ALICE' });
      await resumed.phase('working');
      await resumed.finished(result);
      await settled(outbox, thread);
      const messages = slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id);
      expect(messages).toHaveLength(1);
      [message] = messages;
      expect(JSON.stringify(message)).toContain('Done: acme/web');
      expect(JSON.stringify(message)).toContain('I asked: Keep the old API?');
      slack.reset();
    }
  });

  it('streams a reply longer than one markdown_text chunk may be, in several, all accepted by Slack', async () => {
    const { outbox, thread, reporter } = setUp();
    await reporter.phase('working');
    const answer = Array.from({ length: 300 }, (_, i) => `Finding ${i}: ${'detail '.repeat(12)}`).join('\n');
    await reporter.finished({ ...result, status: 'answered', pullRequest: undefined, report: undefined, answer } as RunResult);
    await settled(outbox, thread);
    const stream = onlyStream(thread.threadTs);
    expect(stream.state).toBe('stopped');
    expect(text(stream)).toContain('Finding 299:');
    expect(slack.calls.filter((c) => c.error)).toEqual([]);
    const stop = slack.callsTo('chat.stopStream').at(-1);
    const chunks = (stop?.args.chunks ?? []) as { type: string }[];
    expect(chunks.filter((c) => c.type === 'markdown_text').length).toBeGreaterThan(1);
  });

  it('marks the stage that failed as error with its reason', async () => {
    const { outbox, thread, reporter } = setUp();
    await reporter.phase('preparing');
    await reporter.failed('npm ci failed: ENOTFOUND registry.npmjs.org');
    await settled(outbox, thread);
    const stream = onlyStream(thread.threadTs);
    expect(stream.state).toBe('stopped');
    expect(stream.planTitle).toBe('Failed: acme/web');
    expect(tasks(stream)).toEqual([`reading complete ${READING}`, 'preparing error npm ci failed: ENOTFOUND registry.npmjs.org']);
    expect(text(stream)).toBe('**The run failed.** npm ci failed: ENOTFOUND registry.npmjs.org');
  });

  it("says that the run failed in the thread's language, the reason as it is", async () => {
    const { outbox, thread, reporter } = setUp('T0TEAM', 0, uniqueName('stream'), 'ja');
    await reporter.phase('preparing', { key: 'installing', command: 'npm ci' });
    await reporter.failed('npm ci failed: ENOTFOUND registry.npmjs.org');
    await settled(outbox, thread);
    const stream = onlyStream(thread.threadTs);
    expect(text(stream)).toBe('**実行に失敗しました。** npm ci failed: ENOTFOUND registry.npmjs.org');
    // The plan speaks Japanese too: its title and the stage that failed, the error's words as they are.
    expect(stream.planTitle).toBe('失敗: acme/web');
    expect(tasks(stream).at(-1)).toBe('preparing error npm ci failed: ENOTFOUND registry.npmjs.org');
    const sent = JSON.stringify(slack.calls.filter((c) => JSON.stringify(c.args).includes(thread.threadTs)));
    expect(sent).toContain('"title":"作業環境を準備する"');
    expect(sent).toContain('依存関係をインストール中(`npm ci`)');
  });

  it.each([
    {
      language: 'es',
      name: 'Spanish',
      title: 'Terminado: acme/web',
      stage: 'Preparar el espacio de trabajo',
      installing: 'instalando dependencias (`npm ci`)',
      opening: 'Resultado: `npm test` pasa después del cambio (12 passed).\n\nPull request abierto: [PR #7: Fix the date parser]',
      summary: 'Resumen (según el agente)',
      allSteps: '[Todos los pasos de esta ejecución](https://wrench.example.com/runs/1)',
    },
    {
      language: 'fr',
      name: 'French',
      title: 'Terminé : acme/web',
      stage: 'Préparer l’espace de travail',
      installing: 'installation des dépendances (`npm ci`)',
      opening: 'Résultat : `npm test` réussit après la modification (12 passed).\n\nPull request ouverte : [PR #7: Fix the date parser]',
      summary: 'Résumé (selon l’agent)',
      allSteps: '[Toutes les étapes de cette exécution](https://wrench.example.com/runs/1)',
    },
  ])("streams a $name thread's plan, progress and final reply headings in its language, the figures as they are", async (expected) => {
    const { outbox, thread, reporter } = setUp('T0TEAM', 0, uniqueName('stream'), expected.language);
    await reporter.phase('preparing', { key: 'installing', command: 'npm ci' });
    await reporter.phase('working', { key: 'editing', path: 'src/date.js' });
    await reporter.phase('verifying');
    await reporter.phase('publishing');
    await reporter.finished(result);
    await settled(outbox, thread);
    const stream = onlyStream(thread.threadTs);
    expect(stream.planTitle).toBe(expected.title);
    const sent = JSON.stringify(slack.calls.filter((c) => JSON.stringify(c.args).includes(thread.threadTs)));
    expect(sent).toContain(`"title":"${expected.stage}"`);
    expect(sent).toContain(expected.installing);
    const reply = text(stream);
    expect(reply.startsWith(expected.opening)).toBe(true);
    expect(reply).toContain(expected.summary);
    expect(reply).toContain(expected.allSteps);
    expect(reply).not.toContain('Outcome:');
    expect(reply).not.toContain('Summary');
  });

  it('shows a paused run as waiting for the answer, and a cancelled one as cancelled', async () => {
    const paused = setUp();
    await paused.reporter.phase('working');
    await paused.reporter.phase('waiting');
    await settled(paused.outbox, paused.thread);
    const pausedStream = onlyStream(paused.thread.threadTs);
    expect(pausedStream.planTitle).toBe('Paused: waiting for an answer: acme/web');
    expect(tasks(pausedStream)).toEqual([`reading complete ${READING}`, 'working complete ', 'question in_progress ']);
    expect(pausedStream.state).toBe('stopped');

    const cancelled = setUp();
    await cancelled.reporter.phase('working');
    await cancelled.reporter.finished({ ...result, stopCode: 'cancelled', pullRequest: undefined } as RunResult);
    await settled(cancelled.outbox, cancelled.thread);
    const cancelledStream = onlyStream(cancelled.thread.threadTs);
    expect(cancelledStream.planTitle).toBe('Cancelled: acme/web');
    expect(tasks(cancelledStream)).toEqual([`reading complete ${READING}`, 'working error Cancelled']);
  });

  it("shows who cancelled as a mention in the streamed reply and by name in the plan, the agent's mentions as text", async () => {
    slack.addUser({ id: 'U0ALICE', name: 'alice' });
    const { outbox, thread, reporter } = setUp();
    reporter.names = new SlackNameDirectory(outboxSlackClient('xoxb-test', slack.apiUrl));
    await reporter.phase('working');
    await reporter.finished({
      ...result,
      status: 'stopped',
      pullRequest: undefined,
      stopCode: 'cancelled',
      stopReason: 'Cancelled by <@U0ALICE> on the run page. Nothing had changed yet, so there is no branch.',
      report: { summary: 'Asked <@U0BOB> and <!channel> to look', filesChanged: [], verification: '', openQuestions: [] },
    } as RunResult);
    await settled(outbox, thread);
    const stream = onlyStream(thread.threadTs);
    const markdown = slack
      .callsTo('chat.stopStream')
      .flatMap((c) => (c.args.chunks as Array<{ type: string; text?: string }>).filter((k) => k.type === 'markdown_text').map((k) => k.text))
      .join('');
    expect(markdown).toContain('Cancelled by <@U0ALICE> on the run page.');
    expect(markdown).not.toContain('&lt;@U0ALICE>');
    expect(markdown.match(/<[@!][^>]*>/g)).toEqual(['<@U0ALICE>']);
    expect(text(stream)).toContain('&lt;!channel>');

    // The plan's tasks are plain text: the person who stopped the run shows by name there.
    const stopped = setUp();
    stopped.reporter.names = new SlackNameDirectory(outboxSlackClient('xoxb-test', slack.apiUrl));
    await stopped.reporter.phase('working');
    await stopped.reporter.phase('cancelled', { key: 'stoppedDuring', by: '<@U0ALICE> on the run page', stage: 'work' });
    await settled(stopped.outbox, stopped.thread);
    expect(tasks(onlyStream(stopped.thread.threadTs)).at(-1)).toBe('working error stopped by @alice on the run page during the work');
  });

  it('falls back to an ordinary message where the workspace refuses streaming, and remembers it', async () => {
    const { outbox, thread, reporter, statusKey } = setUp('T0NOSTREAM');
    slack.startOutage({ error: 'not_allowed' }, { methods: ['chat.startStream'] });
    await reporter.phase('working');
    await settled(outbox, thread);
    // While the run goes on the ordinary message stands in for the card: the plan, the run page, a Cancel button.
    const ts = await outbox.tsOf(thread, runStreamKey(statusKey));
    const running = slack.messages(CHANNEL, thread.threadTs).find((m) => m.ts === ts);
    expect(JSON.stringify(running?.blocks)).toContain(ACTIONS.cancelRun);
    expect(running?.text).toContain(':hourglass_flowing_sand: Work on the change');
    expect(running?.text).toContain('<https://wrench.example.com/runs/1|see every step>');
    await reporter.phase('verifying');
    await reporter.finished(result);
    await settled(outbox, thread);
    slack.recover();
    expect(slack.streamsIn(CHANNEL, thread.threadTs)).toHaveLength(0);
    expect(slack.callsTo('chat.startStream')).toHaveLength(1);
    expect(await outbox.agentSurfaces.refusal('T0NOSTREAM', 'chat.startStream')).toBe('not_allowed');
    // Still the run's only message, without its button now the run is over.
    expect(slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id)).toHaveLength(1);
    const message = slack.messages(CHANNEL, thread.threadTs).find((m) => m.ts === ts);
    expect(JSON.stringify(message?.blocks ?? [])).not.toContain(ACTIONS.cancelRun);
    expect(message?.text).toContain(':white_check_mark: Verify: run the tests and checks');
    expect(message?.text).toContain('Outcome: `npm test` passes after the change (12 passed).');
    expect(message?.text).not.toContain(SECRET);
  });

  it('posts the rest normally when Slack ended the stream early, without a second stream', async () => {
    const { outbox, thread, reporter } = setUp();
    await reporter.phase('working');
    await settled(outbox, thread);
    const first = onlyStream(thread.threadTs);
    slack.endStream(CHANNEL, first.ts, 'stopped_by_user');
    await reporter.phase('verifying');
    await reporter.finished(result);
    await settled(outbox, thread);
    expect(slack.streamsIn(CHANNEL, thread.threadTs)).toHaveLength(1);
    const rest = slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id && m.ts !== first.ts && String(m.text).includes('Outcome:'));
    expect(rest).toHaveLength(1);
    expect(rest[0]?.text).toContain(':white_check_mark: Verify: run the tests and checks');
  });

  it('goes on in the same message, as an ordinary one, when Slack expired the stream mid-run', async () => {
    const { outbox, thread, reporter } = setUp();
    await reporter.phase('working');
    await settled(outbox, thread);
    const first = onlyStream(thread.threadTs);
    const asStreamed = slack.messages(CHANNEL, thread.threadTs).find((m) => m.ts === first.ts)?.blocks?.[0] as { tasks: unknown[] };
    slack.endStream(CHANNEL, first.ts, 'expired');
    await reporter.phase('verifying');
    await settled(outbox, thread);
    expect(slack.callsTo('chat.appendStream').at(-1)?.error).toBe('message_not_in_streaming_state');
    // Edited in place, keeping its look: the plan as the plan block Slack rendered from the stream, the Cancel button
    // the card had (its text, for notifications, the plan in mrkdwn).
    let message = slack.messages(CHANNEL, thread.threadTs).find((m) => m.ts === first.ts);
    expect(message?.text).toContain(':hourglass_flowing_sand: Verify: run the tests and checks');
    const plan = message?.blocks?.[0] as { type: string; title: string; tasks: Array<{ task_id: string; status: string }> };
    expect(plan).toMatchObject({ type: 'plan', title: 'Working on acme/web · to stop it, mention me with "stop"' });
    expect(plan.tasks[0]).toEqual(asStreamed.tasks[0]);
    expect(plan.tasks.map((task) => `${task.task_id} ${task.status}`)).toEqual(['reading complete', 'working complete', 'verifying in_progress']);
    expect(JSON.stringify(message?.blocks)).toContain(ACTIONS.cancelRun);
    await reporter.finished(result);
    await settled(outbox, thread);
    // One message for the run still: the reply went into it, once, and nothing was posted.
    expect(slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id)).toHaveLength(1);
    expect(slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(slack.callsTo('chat.stopStream')).toHaveLength(0);
    message = slack.messages(CHANNEL, thread.threadTs).find((m) => m.ts === first.ts);
    expect(message?.text).toContain(':white_check_mark: Verify: run the tests and checks');
    expect(message?.text).toContain('Outcome: `npm test` passes after the change (12 passed).');
    expect(String(message?.text).match(/Outcome:/g)).toHaveLength(1);
    expect(JSON.stringify(message?.blocks ?? [])).not.toContain(ACTIONS.cancelRun);
    expect(message?.blocks?.[0]).toMatchObject({ type: 'plan', title: 'Done: acme/web' });
    expect(message?.blocks?.[1]).toMatchObject({ type: 'markdown', text: expect.stringMatching(/^Outcome: `npm test` passes after the change/) });
  });

  it('ends a stream Slack expired with a reply too long for blocks as text, in the same message', async () => {
    const { outbox, thread, reporter } = setUp();
    await reporter.phase('working');
    await settled(outbox, thread);
    const first = onlyStream(thread.threadTs);
    slack.endStream(CHANNEL, first.ts, 'expired');
    const answer = Array.from({ length: 300 }, (_, i) => `Finding ${i}: ${'detail '.repeat(12)}`).join('\n');
    await reporter.finished({ ...result, status: 'answered', pullRequest: undefined, report: undefined, answer } as RunResult);
    await settled(outbox, thread);
    const message = slack.messages(CHANNEL, thread.threadTs).find((m) => m.ts === first.ts);
    expect(message?.text).toContain('Finding 299:');
    expect(message?.blocks ?? []).toEqual([]);
    expect(slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id)).toHaveLength(1);
  });

  it('edits in the plain form when Slack refuses the blocks of a stream it expired, losing no step', async () => {
    const { outbox, thread, reporter } = setUp();
    await reporter.phase('working');
    await settled(outbox, thread);
    const first = onlyStream(thread.threadTs);
    slack.endStream(CHANNEL, first.ts, 'expired');
    await reporter.phase('verifying');
    await settled(outbox, thread);
    // The next edit's blocks are refused: its plain form goes in instead, in the same message.
    slack.failNext('chat.update', { error: 'invalid_blocks' });
    await reporter.finished(result);
    await settled(outbox, thread);
    expect(slack.callsTo('chat.update').map((c) => c.error ?? 'ok')).toEqual(['ok', 'invalid_blocks', 'ok']);
    const message = slack.messages(CHANNEL, thread.threadTs).find((m) => m.ts === first.ts);
    expect(message?.text).toContain('Outcome: `npm test` passes after the change (12 passed).');
    expect(message?.blocks ?? []).toEqual([]);
    expect(slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id)).toHaveLength(1);
    expect((await outbox.undeliverable()).total).toBe(0);
  });

  it('posts the rest once as a new message when Slack expired the stream and will not let it be edited', async () => {
    const { outbox, thread, reporter } = setUp();
    await reporter.phase('working');
    await settled(outbox, thread);
    const first = onlyStream(thread.threadTs);
    slack.endStream(CHANNEL, first.ts, 'expired');
    slack.startOutage({ error: 'cant_update_message' }, { methods: ['chat.update'] });
    await reporter.phase('verifying');
    await settled(outbox, thread);
    slack.recover();
    await reporter.finished(result);
    await settled(outbox, thread);
    const rest = slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id && m.ts !== first.ts);
    expect(rest).toHaveLength(1);
    expect(rest[0]?.text).toContain(':white_check_mark: Verify: run the tests and checks');
    expect(rest[0]?.text).toContain('Outcome: `npm test` passes after the change (12 passed).');
  });

  it('keeps the stream in order through a Slack outage and never stops it twice', async () => {
    const { outbox, thread, reporter } = setUp();
    await reporter.phase('working');
    await settled(outbox, thread);
    slack.startOutage({ status: 500 });
    await reporter.phase('verifying');
    await reporter.finished(result);
    await slack.waitFor((c) => c.method === 'chat.appendStream' && c.status === 500);
    slack.recover();
    await settled(outbox, thread);
    const stream = onlyStream(thread.threadTs);
    expect(stream.state).toBe('stopped');
    expect(text(stream).startsWith('Outcome:')).toBe(true);
    expect(slack.callsTo('chat.stopStream').filter((c) => !c.error && c.status === 200)).toHaveLength(1);
  });

  it('treats a stop whose answer was lost as done when it is delivered again (no duplicate reply)', async () => {
    const { outbox, thread, reporter, statusKey, prefix } = setUp();
    await reporter.phase('working');
    await settled(outbox, thread);
    const stream = onlyStream(thread.threadTs);
    // The stop went through, then the process died before the outbox noted it: the stop is delivered again.
    await reporter.finished(result);
    await settled(outbox, thread);
    await redis.hset(redisKeys(prefix).outbox.streams(`${CHANNEL}:${thread.threadTs}`), runStreamKey(statusKey), 'stopping');
    await outbox.stream(thread, {
      step: 'stop',
      key: runStreamKey(statusKey),
      team: 'T0TEAM',
      chunks: [{ type: 'markdown_text', text: 'again' }],
      fallback: { text: 'again' },
    });
    await settled(outbox, thread);
    expect(slack.callsTo('chat.stopStream').at(-1)?.error).toBe('message_not_in_streaming_state');
    expect(slack.messages(CHANNEL, thread.threadTs).filter((m) => m.bot_id && m.text === 'again')).toHaveLength(0);
    expect(text(slack.stream(CHANNEL, stream.ts)!)).not.toContain('again');
  });
});

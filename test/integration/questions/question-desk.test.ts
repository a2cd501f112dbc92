import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../../src/agent/agent-loop.js';
import { ASK_REQUESTER_TOOL_NAME, createAskRequesterTool } from '../../../src/agent/ask-requester-tool.js';
import { taskReportSchema } from '../../../src/agent/finish-tool.js';
import { createLogger } from '../../../src/logging/logger.js';
import { PausedRunStore, pausedRunTtlSeconds } from '../../../src/questions/paused-run-store.js';
import type { PausedRun } from '../../../src/questions/paused-run.js';
import { reminderJobId, reminderSettled, QuestionDesk, viewOf } from '../../../src/questions/question-desk.js';
import { TASK_QUEUE, type TaskJob } from '../../../src/queue/task-job.js';
import { redisKeys } from '../../../src/redis/redis-keys.js';
import { createRedactor } from '../../../src/security/redact.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import { answeredLine, questionReminderKey } from '../../../src/slack/question-message.js';
import { statusCardKey } from '../../../src/slack/slack-reporter-factory.js';
import { outboxSlackClient, ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { finish, scriptedModel, toolUse } from '../../helpers/scripted-model.js';
import { uniqueName } from '../../helpers/unique-name.js';

const budget = { maxSteps: 20, maxMillis: 60_000, maxCostUsd: 10, maxTokens: 10_000_000 };
const TIMEOUT_MS = 3_600_000;

describe('a paused run in Redis: the stored conversation, the delayed resume job and the one settlement', () => {
  let server: RedisServer;
  let slack: SlackFake;
  let redis: Redis;
  let queue: Queue<TaskJob>;
  let sessions: ThreadSessionStore;
  let outbox: ThreadOutbox;
  const prefix = uniqueName('questions');

  beforeAll(async () => {
    [server, slack] = await Promise.all([startRedisServer(), startSlackFake()]);
    redis = new Redis(server.url);
    queue = new Queue<TaskJob>(TASK_QUEUE, { connection: redis, prefix });
    sessions = new ThreadSessionStore(redis, prefix);
    outbox = new ThreadOutbox(redis, prefix, outboxSlackClient('xoxb-test', slack.apiUrl), createRedactor(), createLogger({ level: 'silent' }));
  });

  afterAll(async () => {
    await outbox.stop();
    await queue.close();
    sessions.close();
    redis.disconnect();
    await Promise.all([slack.stop(), server.stop()]);
  });

  const job = (threadTs: string): TaskJob => ({
    kind: 'task',
    origin: { type: 'slack', channel: 'C0DEV', threadTs, messageTs: threadTs },
    repo: { owner: 'acme', name: 'app' },
    instruction: 'add a header',
    category: 'feature',
    complexity: 'simple',
    elements: {},
    requester: { slackUserId: 'U0ALICE' },
    requestedAt: new Date().toISOString(),
  });

  it('keeps what the resume needs, queues the resume delayed until the timeout, records the wait and asks in the thread', async () => {
    const threadTs = `${Date.now()}.000100`;
    const now = new Date().toISOString();
    await sessions.update('C0DEV', threadTs, () => ({
      channel: 'C0DEV',
      threadTs,
      repo: { owner: 'acme', name: 'app' },
      requester: 'U0ALICE',
      runs: [{ jobId: 'run-1', instruction: 'add a header', requester: 'U0ALICE', status: 'running', at: now }],
      createdAt: now,
      updatedAt: now,
    }));
    await outbox.remember({ channel: 'C0DEV', threadTs }, statusCardKey('run-1'), '1700000000.000001');
    // A real conversation paused on its question.
    const asked = toolUse(ASK_REQUESTER_TOOL_NAME, { question: 'Blue or green?', suggestedAnswers: ['Blue', 'Green'] });
    const model = scriptedModel([toolUse('echo', { say: 'x' }), asked]);
    const echo = {
      name: 'echo',
      definition: { name: 'echo', description: 'echo', input_schema: { type: 'object' as const } },
      execute: async () => ({ content: 'echoed' }),
    };
    const count = { asked: 0 };
    const paused = await runAgent({
      client: model.client,
      model: 'claude-sonnet-5-5',
      system: 's',
      task: 'the task',
      tools: [echo, createAskRequesterTool(count)],
      report: { schema: taskReportSchema, description: 'finish' },
      budget,
    });
    const desk = new QuestionDesk({
      store: new PausedRunStore(redis, prefix),
      sessions,
      outbox,
      queue,
      timeoutMs: TIMEOUT_MS,
      logger: createLogger({ level: 'silent' }),
    });
    const stored = await desk.ask({
      job: job(threadTs),
      askedByJobId: 'run-1',
      branch: 'wrench/add-a-header-abc123',
      pushed: true,
      startSha: 'a'.repeat(40),
      messages: paused.messages,
      usage: paused.usage,
      steps: paused.steps,
      toolUseId: paused.pause!.toolUseId,
      question: 'Blue or green?',
      suggestedAnswers: ['Blue', 'Green'],
      questionsAsked: count.asked,
      requester: 'U0ALICE',
    });

    // The conversation is kept a little longer than the question waits.
    const ttl = await redis.ttl(redisKeys(prefix).pausedRun(stored.pauseId));
    expect(ttl).toBeGreaterThan(TIMEOUT_MS / 1000);
    expect(ttl).toBeLessThanOrEqual(pausedRunTtlSeconds(TIMEOUT_MS));
    // The resume job waits, delayed until the timeout, carrying the pause.
    const resumeJob = (await queue.getJob(stored.resumeJobId))!;
    expect(await resumeJob.getState()).toBe('delayed');
    expect(resumeJob.opts.delay).toBe(TIMEOUT_MS);
    // It reports under the run's first status key: a streamed run goes on in the message it paused in.
    expect(resumeJob.data.resume).toEqual({ pauseId: stored.pauseId, statusKey: `status:${stored.askedByJobId}` });
    // So does a reminder to the requester, halfway to the timeout.
    const reminderJob = (await queue.getJob(reminderJobId(stored.pauseId)))!;
    expect(await reminderJob.getState()).toBe('delayed');
    expect(reminderJob.opts.delay).toBe(TIMEOUT_MS / 2);
    expect(reminderJob.data.remind).toEqual({ pauseId: stored.pauseId });
    // The thread's session says the run waits; its record follows the resume job; the branch is the thread's.
    const session = (await sessions.get('C0DEV', threadTs))!;
    expect(session.waiting).toMatchObject({ pauseId: stored.pauseId, jobId: stored.resumeJobId, requester: 'U0ALICE', question: 'Blue or green?' });
    expect(session.runs).toMatchObject([{ jobId: stored.resumeJobId, status: 'waiting' }]);
    expect(session.branch).toBe('wrench/add-a-header-abc123');
    // The resumed run goes on editing the same status card.
    expect(await outbox.tsOf({ channel: 'C0DEV', threadTs }, statusCardKey(stored.resumeJobId))).toBe('1700000000.000001');
    const question = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs, 10_000);
    expect(String(question.args.text)).toContain('<@U0ALICE>');
    // The reminder, when it comes while the question is open, mentions the requester once with the question and the deadline.
    expect(await desk.remind(stored.pauseId)).toBe('reminded');
    expect(await desk.remind(stored.pauseId)).toBe('reminded');
    const reminder = await slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && /A reminder/.test(String(c.args.text)),
      10_000,
    );
    expect(String(reminder.args.text)).toMatch(
      /^<@U0ALICE> A reminder: I am still waiting for your answer to my question above \(Blue or green\?\)\. Without an answer by <!date\^\d+\^/,
    );
    // Messages of a thread are delivered in order: once a later one arrived, a second reminder would have too.
    await outbox.post({ channel: 'C0DEV', threadTs }, { text: 'sentinel' });
    await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.text === 'sentinel', 10_000);
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage' && /A reminder/.test(String(c.args.text)))).toHaveLength(1);

    // What comes back out resumes the same conversation with the answer as the question's result.
    const store = new PausedRunStore(redis, prefix);
    expect(await store.settle(stored.pauseId, { kind: 'answer', text: 'Green', by: 'U0ALICE', via: 'reply', at: new Date().toISOString() })).toBe(true);
    // Answered: the reminder says nothing.
    expect(await desk.remind(stored.pauseId)).toBe('settled');
    const taken = (await desk.take(stored.pauseId))!;
    expect(taken.settlement).toMatchObject({ kind: 'answer', text: 'Green' });
    const next = scriptedModel([finish('green it is')]);
    const resumed = await runAgent({
      client: next.client,
      model: 'claude-sonnet-5-5',
      system: 's',
      task: '',
      tools: [echo, createAskRequesterTool({ asked: taken.run.questionsAsked })],
      report: { schema: taskReportSchema, description: 'finish' },
      budget,
      resume: {
        messages: taken.run.messages,
        usage: taken.run.usage,
        steps: taken.run.steps,
        toolResult: { toolUseId: taken.run.toolUseId, content: 'Green' },
      },
    });
    expect(resumed.outcome).toBe('finished');
    expect(resumed.steps).toBe(3);
    expect(JSON.stringify(next.requests[0]!.messages)).toContain('echoed');

    await desk.done(taken.run);
    expect(await store.load(stored.pauseId)).toBeNull();
    expect(await queue.getJob(reminderJobId(stored.pauseId))).toBeUndefined();
    expect((await sessions.get('C0DEV', threadTs))!.waiting).toBeUndefined();

    // The resumed run asks again: its resume job still reports under the run's first key, not the resumed job's.
    const again = await desk.ask({ ...taken.run, job: resumeJob.data, askedByJobId: stored.resumeJobId, questionsAsked: 2 });
    expect((await queue.getJob(again.resumeJobId))!.data.resume).toEqual({ pauseId: again.pauseId, statusKey: 'status:run-1' });
    await desk.done(again);
  });

  it('settles a question once: of an answer, a second answer and the timeout racing, exactly one wins', async () => {
    const store = new PausedRunStore(redis, prefix);
    const pauseId = uniqueName('race');
    const run: PausedRun = {
      pauseId,
      job: job('1.2'),
      askedByJobId: 'run-2',
      resumeJobId: 'resume-x',
      branch: 'wrench/x',
      pushed: false,
      startSha: 'b'.repeat(40),
      messages: [{ role: 'user', content: 'the task' }],
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      steps: 1,
      toolUseId: 'toolu_1',
      question: 'Q?',
      suggestedAnswers: [],
      questionsAsked: 1,
      requester: 'U0ALICE',
      askedAt: new Date().toISOString(),
      timeoutAt: new Date().toISOString(),
    };
    // Not stored (or expired): nothing can settle it.
    expect(await store.settle(pauseId, { kind: 'timeout', at: new Date().toISOString() })).toBe(false);
    await store.save(run, 60);
    const at = new Date().toISOString();
    const wins = await Promise.all([
      store.settle(pauseId, { kind: 'answer', text: 'one', by: 'U0ALICE', via: 'reply', at }),
      store.settle(pauseId, { kind: 'answer', text: 'two', by: 'U0BOSS', via: 'button', at }),
      store.settle(pauseId, { kind: 'timeout', at }),
    ]);
    expect(wins.filter(Boolean)).toHaveLength(1);
    const settled = (await store.settlement(pauseId))!;
    expect(settled.kind === 'answer' ? settled.text : settled.kind).toBe(['one', 'two', 'timeout'][wins.indexOf(true)]);
    // The settlement expires with the conversation.
    expect(await redis.pttl(redisKeys(prefix).questionSettled(pauseId))).toBeLessThanOrEqual(60_000);

    // A stored conversation that no longer reads is a clear error, not a half-resumed run.
    await redis.set(redisKeys(prefix).pausedRun(pauseId), JSON.stringify({ ...run, steps: 'many' }));
    await expect(store.load(pauseId)).rejects.toMatchObject({ code: 'paused_run_invalid' });
    // So is a conversation whose messages are not the Messages API's (no role): it would be sent back to the model as is.
    await redis.set(redisKeys(prefix).pausedRun(pauseId), JSON.stringify({ ...run, messages: [{ content: 'the task' }] }));
    await expect(store.load(pauseId)).rejects.toMatchObject({ code: 'paused_run_invalid', message: expect.stringContaining('must be a message with a role') });
  });
  it("asks a streamed run's question in the run's own message: no question message of its own, asked or timed out", async () => {
    const threadTs = `${Date.now()}.000200`;
    const thread = { channel: 'C0DEV', threadTs };
    const now = new Date().toISOString();
    await sessions.update('C0DEV', threadTs, () => ({
      channel: 'C0DEV',
      threadTs,
      repo: { owner: 'acme', name: 'app' },
      requester: 'U0ALICE',
      runs: [{ jobId: 'run-s', instruction: 'add a header', requester: 'U0ALICE', status: 'running', at: now }],
      createdAt: now,
      updatedAt: now,
    }));
    const desk = new QuestionDesk({
      store: new PausedRunStore(redis, prefix),
      sessions,
      outbox,
      queue,
      timeoutMs: TIMEOUT_MS,
      logger: createLogger({ level: 'silent' }),
    });
    const streamed = job(threadTs);
    const asked = await desk.ask({
      job: { ...streamed, origin: { ...streamed.origin, stream: true } as TaskJob['origin'] },
      askedByJobId: 'run-s',
      branch: 'wrench/s',
      pushed: false,
      startSha: 'c'.repeat(40),
      messages: [{ role: 'user', content: 'the task' }],
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      steps: 1,
      toolUseId: 'toolu_s',
      question: 'Tabs or spaces?',
      suggestedAnswers: ['Tabs', 'Spaces'],
      questionsAsked: 1,
      requester: 'U0ALICE',
    });
    expect((await sessions.get('C0DEV', threadTs))!.waiting).toMatchObject({ pauseId: asked.pauseId, inRunMessage: true });
    // Nobody answers: the timeout settles it, and still nothing is posted (the resumed run's message says so).
    const taken = (await desk.take(asked.pauseId))!;
    expect(taken.settlement.kind).toBe('timeout');
    // Messages of a thread are delivered in order: once a later one arrived, a question or its settled form would have too.
    await outbox.post(thread, { text: 'sentinel-s' });
    await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.text === 'sentinel-s', 10_000);
    expect(slack.calls.filter((c) => c.args.thread_ts === threadTs).map((c) => c.args.text)).toEqual(['sentinel-s']);
    await desk.done(taken.run);
  });

  describe('the reminder halfway to the timeout, racing the question being settled', () => {
    const pausedIn = async (desk: QuestionDesk, threadTs: string, stream = false) => {
      const base = job(threadTs);
      return desk.ask({
        job: stream ? { ...base, origin: { ...base.origin, stream: true } as TaskJob['origin'] } : base,
        askedByJobId: uniqueName('run-r'),
        branch: 'wrench/r',
        pushed: false,
        startSha: 'd'.repeat(40),
        messages: [{ role: 'user', content: 'the task' }],
        usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
        steps: 1,
        toolUseId: 'toolu_r',
        question: 'Tabs or spaces?',
        suggestedAnswers: ['Tabs', 'Spaces'],
        questionsAsked: 1,
        requester: 'U0ALICE',
      });
    };
    const deskWith = (store: PausedRunStore, via = outbox) =>
      new QuestionDesk({ store, sessions, outbox: via, queue, timeoutMs: TIMEOUT_MS, logger: createLogger({ level: 'silent' }) });
    const answer = { kind: 'answer', text: 'Tabs', by: 'U0BOB', via: 'button', at: new Date().toISOString() } as const;
    /** What Wrench said in the thread, in order, once a sentinel posted last has arrived. */
    const thread = async (threadTs: string) => {
      await outbox.post({ channel: 'C0DEV', threadTs }, { text: `sentinel ${threadTs}` });
      await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.text === `sentinel ${threadTs}`, 10_000);
      const ours = new Set(slack.messages('C0DEV', threadTs).map((m) => m.ts));
      return slack.calls.filter((c) =>
        c.method === 'chat.postMessage' ? c.args.thread_ts === threadTs : c.method === 'chat.update' && ours.has(String(c.args.ts)),
      );
    };

    it('is not posted when the answer lands while the reminder job runs, after it found the question open', async () => {
      const threadTs = `${Date.now()}.000300`;
      const store = new PausedRunStore(redis, prefix);
      let answerNow: (() => Promise<void>) | undefined;
      // The answer lands between the reminder's look at the question and its message: the worst moment.
      const racing = Object.assign(Object.create(store) as PausedRunStore, {
        settlement: async (pauseId: string) => {
          const before = await store.settlement(pauseId);
          await answerNow?.();
          return before;
        },
      });
      const desk = deskWith(racing);
      const asked = await pausedIn(desk, threadTs, true);
      answerNow = async () => {
        answerNow = undefined;
        expect(await store.settle(asked.pauseId, answer)).toBe(true);
        await reminderSettled(outbox, viewOf(asked), answeredLine('U0BOB', 'Tabs'));
      };
      expect(await desk.remind(asked.pauseId)).toBe('reminded');
      const said = await thread(threadTs);
      expect(said.filter((c) => /A reminder|I asked/.test(String(c.args.text)))).toEqual([]);
      await desk.done(asked);
    });

    it('is not posted when the question is settled while the reminder waits its turn in the outbox', async () => {
      const threadTs = `${Date.now()}.000400`;
      const store = new PausedRunStore(redis, prefix);
      // An outbox that queues without delivering (Slack slow, or the thread busy), then a live one delivers in order.
      const queued = new ThreadOutbox(redis, prefix, outboxSlackClient('xoxb-test', slack.apiUrl), createRedactor(), createLogger({ level: 'silent' }));
      await queued.stop();
      const desk = deskWith(store, queued);
      const asked = await pausedIn(desk, threadTs, true);
      expect(await desk.remind(asked.pauseId)).toBe('reminded');
      expect((await desk.take(asked.pauseId))?.settlement.kind).toBe('timeout');
      await outbox.deliverDue();
      const said = await thread(threadTs);
      expect(said.filter((c) => /A reminder|I asked/.test(String(c.args.text)))).toEqual([]);
      await desk.done(asked);
    });

    it('is posted once while the question is open, and edited into the outcome once it is settled', async () => {
      const threadTs = `${Date.now()}.000500`;
      const store = new PausedRunStore(redis, prefix);
      const desk = deskWith(store);
      const asked = await pausedIn(desk, threadTs, true);
      expect(await desk.remind(asked.pauseId)).toBe('reminded');
      expect(await desk.remind(asked.pauseId)).toBe('reminded');
      const reminder = await slack.waitFor(
        (c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && /A reminder/.test(String(c.args.text)),
        10_000,
      );
      expect(await store.settle(asked.pauseId, answer)).toBe(true);
      await reminderSettled(outbox, viewOf(asked), answeredLine('U0BOB', 'Tabs'));
      // The timeout, had it come first, edits it too (the run's resume job takes the question back).
      const other = await pausedIn(desk, `${threadTs}1`, true);
      expect(await desk.remind(other.pauseId)).toBe('reminded');
      await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === `${threadTs}1` && /A reminder/.test(String(c.args.text)), 10_000);
      expect((await desk.take(other.pauseId))?.settlement.kind).toBe('timeout');
      await thread(`${threadTs}1`);
      expect(slack.messages('C0DEV', `${threadTs}1`).map((m) => m.text)).toContain(
        '<@U0ALICE> I asked:\n> Tabs or spaces?\n_No answer came in time, so I finish with what I have._',
      );
      await desk.done(other);
      const said = await thread(threadTs);
      expect(said.filter((c) => c.method === 'chat.postMessage' && /A reminder/.test(String(c.args.text)))).toEqual([reminder]);
      const ts = await outbox.tsOf({ channel: 'C0DEV', threadTs }, questionReminderKey(asked.pauseId));
      expect(slack.messages('C0DEV', threadTs).find((m) => m.ts === ts)?.text).toBe('<@U0ALICE> I asked:\n> Tabs or spaces?\n<@U0BOB> answered: Tabs');
      await desk.done(asked);
    });
  });
});

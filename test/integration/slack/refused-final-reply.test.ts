import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import type { RunResult } from '../../../src/reporting/run-result.js';
import { createRedactor } from '../../../src/security/redact.js';
import { SlackRunReporter } from '../../../src/slack/slack-run-reporter.js';
import { SlackStreamRunReporter } from '../../../src/slack/slack-stream-run-reporter.js';
import { outboxSlackClient, ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const CHANNEL = 'C0REF';
const PULL_URL = 'https://github.com/acme/web/pull/7';
const RUN_PAGE = 'https://wrench.example.com/runs/7';

const result = {
  status: 'pr_opened',
  repository: 'acme/web',
  instruction: 'fix the date parser',
  filesChanged: ['src/date.js'],
  diffStat: [{ path: 'src/date.js', added: 3, removed: 1 }],
  durationMs: 90_000,
  pullRequest: { number: 7, url: PULL_URL, title: 'Fix the date parser', draft: false },
  measuredTests: { command: 'npm test', failed: false, counts: '12 passed' },
  report: { summary: 'Fixed the off-by-one.', filesChanged: [], verification: '', openQuestions: [] },
} as RunResult;

describe('a final reply Slack refuses as written (invalid_blocks, msg_too_long): its short form reaches the thread', () => {
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

  const setUp = (streamed: boolean, language?: string) => {
    const outbox = new ThreadOutbox(
      redis,
      uniqueName('refused'),
      outboxSlackClient('xoxb-test', slack.apiUrl),
      createRedactor([]),
      createLogger({ level: 'silent' }),
      {
        baseDelayMs: 20,
        maxDelayMs: 100,
        pollMs: 20,
      },
    );
    outboxes.push(outbox);
    outbox.start();
    const parent = slack.seedMessage(CHANNEL, { user: 'U0ALICE', text: '<@U0BOT> fix the date parser' });
    const thread = { channel: CHANNEL, threadTs: parent.ts };
    const statusKey = `status:${uniqueName('job')}`;
    const target = {
      team: 'T0TEAM',
      channel: CHANNEL,
      threadTs: parent.ts,
      statusKey,
      repository: 'acme/web',
      reading: { category: 'bug-fixing' as const, complexity: 'simple' as const, elements: {}, summary: 'Fix the date parser' },
      runPageUrl: RUN_PAGE,
      recipient: { user: 'U0ALICE', team: 'T0TEAM' },
      language,
    };
    const log = createLogger({ level: 'silent' });
    const reporter = streamed ? new SlackStreamRunReporter(outbox, target, undefined, log, 0) : new SlackRunReporter(outbox, target, undefined, log, 0);
    return { outbox, thread, reporter, statusKey };
  };
  const settled = async (outbox: ThreadOutbox, thread: { channel: string; threadTs: string }) => {
    for (const deadline = Date.now() + 10_000; (await outbox.waiting(thread)) > 0; ) {
      if (Date.now() > deadline) throw new Error('the outbox still holds items');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const botTexts = (threadTs: string) =>
    slack
      .messages(CHANNEL, threadTs)
      .filter((m) => m.bot_id)
      .map((m) => String(m.text));

  it.each(['invalid_blocks', 'msg_too_long'])(
    'a streamed run whose chat.stopStream Slack answers %s ends its stream and posts the outcome with the link',
    async (error) => {
      const { outbox, thread, reporter } = setUp(true);
      await reporter.phase('working');
      await settled(outbox, thread);
      slack.failNext('chat.stopStream', { error });
      await reporter.finished(result);
      await settled(outbox, thread);
      const stops = slack.callsTo('chat.stopStream');
      expect(stops.map((c) => c.error ?? 'ok')).toEqual([error, 'ok']);
      // The stream ends as it stands (no chunks), not left streaming until it expires.
      expect(stops[1]!.args.chunks).toBeUndefined();
      expect(slack.streamsIn(CHANNEL, thread.threadTs)[0]!.state).toBe('stopped');
      const short = botTexts(thread.threadTs).find((text) => text.includes(PULL_URL));
      expect(short).toBeDefined();
      expect(short).toContain(':white_check_mark: Opened PR #7: <https://github.com/acme/web/pull/7|Fix the date parser>');
      expect(short).toContain('Slack would not take the whole reply');
      expect(short).toContain(`<${RUN_PAGE}|Every step of this run>`);
      expect((await outbox.undeliverable()).total).toBe(0);
    },
  );

  it('is said once though its delivery is retried after the stream was ended (mode `short` resumes it)', async () => {
    const { outbox, thread, reporter } = setUp(true);
    await reporter.phase('working');
    await settled(outbox, thread);
    slack.failNext('chat.stopStream', { error: 'msg_too_long' });
    slack.failNext('chat.postMessage', { status: 500 });
    await reporter.finished(result);
    await settled(outbox, thread);
    expect(slack.callsTo('chat.postMessage').map((c) => c.status)).toEqual([500, 200]);
    expect(botTexts(thread.threadTs).filter((text) => text.includes(PULL_URL))).toHaveLength(1);
  });

  it("a failed streamed run whose very long reason Slack refuses says that it failed, in the thread's language", async () => {
    const { outbox, thread, reporter } = setUp(true, 'de');
    await reporter.phase('preparing');
    await settled(outbox, thread);
    slack.failNext('chat.stopStream', { error: 'msg_too_long' });
    await reporter.failed(`npm ci failed: ${'x'.repeat(5000)}`);
    await settled(outbox, thread);
    const short = botTexts(thread.threadTs).find((text) => text.startsWith(':x: Der Lauf ist fehlgeschlagen. npm ci failed: xxx'));
    expect(short).toBeDefined();
    expect(short!.length).toBeLessThan(2000);
    expect(short).toContain('Slack hat die ganze Antwort nicht angenommen');
  });

  it('a run reported on its card whose result reply Slack answers msg_too_long posts the outcome with the link instead', async () => {
    const { outbox, thread, reporter, statusKey } = setUp(false);
    await outbox.post(thread, { text: 'Queued' }, statusKey);
    await settled(outbox, thread);
    slack.failNext('chat.postMessage', { error: 'msg_too_long' });
    await reporter.finished(result);
    await settled(outbox, thread);
    const short = botTexts(thread.threadTs).find((text) => text.includes('Slack would not take the whole reply'));
    expect(short).toContain(`<${PULL_URL}|Fix the date parser>`);
    expect((await outbox.undeliverable()).total).toBe(0);
  });

  it('a run whose final card Slack answers invalid_blocks still shows the outcome and the link, as plain text', async () => {
    const { outbox, thread, reporter, statusKey } = setUp(false);
    await outbox.post(thread, { text: 'Queued' }, statusKey);
    await settled(outbox, thread);
    slack.failNext('chat.update', { error: 'invalid_blocks' });
    await reporter.finished(result);
    await settled(outbox, thread);
    expect(slack.callsTo('chat.update').map((c) => c.error ?? 'ok')).toEqual(['invalid_blocks', 'ok']);
    const card = slack.messages(CHANNEL, thread.threadTs).find((m) => m.ts === slack.callsTo('chat.update')[1]!.args.ts);
    expect(card?.text).toContain(`<${PULL_URL}|PR #7>`);
    expect(card?.blocks ?? []).toEqual([]);
    expect((await outbox.undeliverable()).total).toBe(0);
  });
});

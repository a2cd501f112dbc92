import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { redisKeys } from '../../../src/redis/redis-keys.js';
import { createRedactor } from '../../../src/security/redact.js';
import { RunWatchdog, watchRun, type WatchedRun } from '../../../src/slack/run-watchdog.js';
import { SlackRunReporter } from '../../../src/slack/slack-run-reporter.js';
import { SlackStreamRunReporter } from '../../../src/slack/slack-stream-run-reporter.js';
import { outboxSlackClient, ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import { pollFor } from '../../fakes/shared/wait-for.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const CHANNEL = 'C0WATCH';
const MINUTE = 60_000;
const READING = { category: 'bug-fixing', complexity: 'simple', elements: {}, summary: 'Fix the parser' } as const;

/** Two web processes (each its own Redis connection, outbox and watchdog) over one Redis and one Slack. */
describe('the run watchdog: a run whose thread got no last word past its time limit is said to be silent, once', () => {
  let slack: SlackFake;
  let server: RedisServer;
  const connections: Redis[] = [];
  const outboxes: ThreadOutbox[] = [];
  /** The task queue's job states, as the watchdog reads them (BullMQ's names). */
  const states = new Map<string, string>();

  beforeAll(async () => {
    [slack, server] = await Promise.all([startSlackFake(), startRedisServer()]);
  });
  afterEach(async () => {
    await Promise.all(outboxes.splice(0).map((o) => o.stop()));
    slack.reset();
    states.clear();
  });
  afterAll(async () => {
    for (const connection of connections) connection.disconnect();
    await Promise.all([slack.stop(), server.stop()]);
  });

  const webProcess = (prefix: string, now = Date.now) => {
    const redis = new Redis(server.url);
    connections.push(redis);
    const log = createLogger({ level: 'silent' });
    const outbox = new ThreadOutbox(redis, prefix, outboxSlackClient('xoxb-watch', slack.apiUrl), createRedactor([]), log, { baseDelayMs: 20, pollMs: 20 });
    outboxes.push(outbox);
    outbox.start();
    const watchdog = new RunWatchdog({ redis, prefix, outbox, jobState: async (jobId) => states.get(jobId) ?? 'unknown', log, marginMs: MINUTE, now });
    return { redis, outbox, watchdog };
  };
  const newThread = () => slack.seedMessage(CHANNEL, { user: 'U0ALICE', text: '<@U0BOT> fix the parser' }).ts;
  /** A run a worker started `minutesAgo` minutes ago, with a 15-minute limit (and the watchdog's 1-minute margin). */
  const run = (threadTs: string, minutesAgo: number, language?: string): WatchedRun => ({
    channel: CHANNEL,
    threadTs,
    language,
    startedAt: Date.now() - minutesAgo * MINUTE,
    budgetMs: 15 * MINUTE,
  });
  const posted = (threadTs: string) =>
    slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && !c.error).map((c) => String(c.args.text));
  const watched = async (redis: Redis, prefix: string, jobId: string) => {
    const keys = redisKeys(prefix).runWatch;
    return { due: await redis.zscore(keys.due, jobId), run: await redis.hget(keys.runs, jobId) };
  };

  it('tells the thread of a run that ended without its last word once, though two processes look at the same time', async () => {
    const prefix = uniqueName('watch');
    const [a, b] = [webProcess(prefix), webProcess(prefix)];
    const threadTs = newThread();
    await watchRun(a.redis, prefix, 'job-ended', run(threadTs, 20), MINUTE);
    states.set('job-ended', 'completed');

    const told = await Promise.all([a.watchdog.check(), b.watchdog.check(), a.watchdog.check(), b.watchdog.check()]);
    await pollFor(
      () => (posted(threadTs).length > 0 ? true : undefined),
      10_000,
      () => 'nothing was said',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(posted(threadTs)).toEqual([
      ":warning: This run started 20 min ago and has ended, but no result or error reached this thread (its time limit is 15 min). Something went wrong on Wrench's side; please ask again.",
    ]);
    expect(told.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(1);
    // Forgotten: later looks say nothing more.
    expect(await watched(a.redis, prefix, 'job-ended')).toEqual({ due: null, run: null });
    expect(await b.watchdog.check()).toBe(0);
    expect(posted(threadTs)).toHaveLength(1);
  });

  it('says nothing while the run is within its limit and margin, and nothing once its last word was delivered', async () => {
    const prefix = uniqueName('watch');
    const { redis, outbox, watchdog } = webProcess(prefix);
    const young = newThread();
    await watchRun(redis, prefix, 'job-young', run(young, 15.5), MINUTE);
    states.set('job-young', 'active');
    expect(await watchdog.check()).toBe(0);

    // Two runs past their limit whose last word got through: a card's final edit and a stream's stop.
    const carded = newThread();
    const streamed = newThread();
    const card = new SlackRunReporter(
      outbox,
      { team: 'T0TEAM', channel: CHANNEL, threadTs: carded, statusKey: 'status:job-card', repository: 'acme/web', reading: READING, jobId: 'job-card' },
      undefined,
      createLogger({ level: 'silent' }),
      0,
    );
    const stream = new SlackStreamRunReporter(
      outbox,
      {
        team: 'T0TEAM',
        recipient: { user: 'U0ALICE', team: 'T0TEAM' },
        channel: CHANNEL,
        threadTs: streamed,
        statusKey: 'status:job-stream',
        repository: 'acme/web',
        reading: READING,
        jobId: 'job-stream',
      },
      undefined,
      createLogger({ level: 'silent' }),
      0,
    );
    for (const [jobId, threadTs] of [
      ['job-card', carded],
      ['job-stream', streamed],
    ] as const) {
      await watchRun(redis, prefix, jobId, run(threadTs, 30), MINUTE);
      states.set(jobId, 'completed');
    }
    await card.phase('working', { key: 'readingCode' });
    await card.failed('the model did not answer');
    await stream.phase('working', { key: 'readingCode' });
    await stream.failed('the model did not answer');
    const deadline = Date.now() + 10_000;
    while ((await redis.zcard(redisKeys(prefix).runWatch.due)) > 1) {
      if (Date.now() > deadline) throw new Error('the last words did not settle their runs');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await watched(redis, prefix, 'job-card')).toEqual({ due: null, run: null });
    expect(await watched(redis, prefix, 'job-stream')).toEqual({ due: null, run: null });
    expect(await watchdog.check()).toBe(0);
    expect(posted(carded).filter((t) => /watchdog|This run started/.test(t))).toEqual([]);
    expect(slack.streamsIn(CHANNEL, streamed).map((s) => s.state)).toEqual(['stopped']);
  });

  it('waits while the job waits for a worker again or its words are on their way, then says a run still marked running is late', async () => {
    let now = Date.now();
    const prefix = uniqueName('watch');
    const { redis, outbox, watchdog } = webProcess(prefix, () => now);
    const threadTs = newThread();
    await watchRun(redis, prefix, 'job-late', run(threadTs, 20, 'de'), MINUTE);

    // Back in the queue after a restart: its next start sets a new deadline; meanwhile it is looked at again later.
    states.set('job-late', 'waiting');
    expect(await watchdog.check()).toBe(0);
    const later = Number((await watched(redis, prefix, 'job-late')).due);
    expect(later).toBeGreaterThan(now);

    // Running past the new deadline, with a message still waiting in its outbox (Slack refuses it for now): not yet.
    states.set('job-late', 'active');
    now = later + 1;
    slack.startOutage({ status: 500 });
    await outbox.post({ channel: CHANNEL, threadTs }, { text: 'a progress note' });
    expect(await watchdog.check()).toBe(0);

    slack.recover();
    await pollFor(
      () => (posted(threadTs).includes('a progress note') ? true : undefined),
      10_000,
      () => 'the note was not delivered',
    );
    while ((await outbox.waiting({ channel: CHANNEL, threadTs })) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    now = Number((await watched(redis, prefix, 'job-late')).due) + 1;
    expect(await watchdog.check()).toBe(1);
    const said = await pollFor(
      () => posted(threadTs).find((t) => t.startsWith(':warning:')),
      10_000,
      () => `thread: ${JSON.stringify(posted(threadTs))}`,
    );
    // In the thread's language, with what was measured: minutes since the run started and its limit.
    expect(said).toMatch(/^:warning: Dieser Lauf hat vor \d+ Min\. begonnen, länger als sein Zeitlimit von 15 Min\./);
  });
});

import { Redis } from 'ioredis';
import { checkSlackAgentSurfaces } from '../../../app/cli/doctor-checks.js';
import type { Config } from '../../../src/config/load-config.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { createRedactor } from '../../../src/security/redact.js';
import { AgentSurfaces } from '../../../src/slack/agent-surfaces.js';
import { SlackRunReporter } from '../../../src/slack/slack-run-reporter.js';
import { outboxSlackClient, ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const SECRET = 'xoxb-1234567890-secretsecretsecret';

describe('thread outbox: the status under a thread (assistant.threads.setStatus)', () => {
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

  const newOutbox = (prefix = uniqueName('status')) => {
    const outbox = new ThreadOutbox(redis, prefix, outboxSlackClient('xoxb-test', slack.apiUrl), createRedactor([SECRET]), createLogger({ level: 'silent' }), {
      baseDelayMs: 20,
      maxDelayMs: 100,
      pollMs: 20,
    });
    outboxes.push(outbox);
    outbox.start();
    return { outbox, prefix };
  };
  const newThread = (team = 'T0TEAM') => {
    const parent = slack.seedMessage('C0ST', { user: 'U1', text: '<@U0BOT> fix the build' });
    return { team, channel: 'C0ST', threadTs: parent.ts };
  };
  /** Waits until the thread's outbox has delivered (or skipped) everything queued so far. */
  const settled = async (outbox: ThreadOutbox, thread: { channel: string; threadTs: string }) => {
    const deadline = Date.now() + 10_000;
    while ((await outbox.waiting(thread)) > 0) {
      if (Date.now() > deadline) throw new Error('the outbox still holds items');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('shows the status in order with the thread: set, then cleared by the message that follows it', async () => {
    const { outbox } = newOutbox();
    const thread = newThread();
    await outbox.status(thread, 'is reading your request…', ['Reading the thread…', 'Looking at the repository…']);
    await settled(outbox, thread);
    expect(slack.threadStatus(thread.channel, thread.threadTs)).toMatchObject({
      status: 'is reading your request…',
      loadingMessages: ['Reading the thread…', 'Looking at the repository…'],
    });
    await outbox.post(thread, { text: 'Queued' });
    await settled(outbox, thread);
    expect(slack.threadStatus(thread.channel, thread.threadTs)).toBeUndefined();
    expect(slack.calls.filter((c) => c.args.thread_ts === thread.threadTs).map((c) => c.method)).toEqual(['assistant.threads.setStatus', 'chat.postMessage']);
    await outbox.status(thread, 'is waiting for a worker…');
    await outbox.status(thread, '');
    await settled(outbox, thread);
    expect(slack.threadStatus(thread.channel, thread.threadTs)).toBeUndefined();
  });

  it('says under the thread what a queued run waits for, and clears it when a worker takes the run', async () => {
    const { outbox } = newOutbox();
    const thread = newThread();
    await outbox.post(thread, { text: 'Queued' }, 'status:job-q');
    const reporter = new SlackRunReporter(
      outbox,
      {
        ...thread,
        statusKey: 'status:job-q',
        repository: 'acme/web',
        reading: { category: 'bug-fixing', complexity: 'simple', elements: {}, summary: 'Fix it' },
      },
      undefined,
      createLogger({ level: 'silent' }),
      0,
    );
    await reporter.phase('queued', { key: 'waitingGlobal' });
    await slack.waitFor((c) => c.method === 'assistant.threads.setStatus' && c.args.thread_ts === thread.threadTs);
    expect(slack.threadStatus(thread.channel, thread.threadTs)?.status).toBe('is waiting for a free slot (all workers are busy)…');
    await reporter.phase('preparing');
    await slack.waitFor((c) => c.method === 'assistant.threads.setStatus' && c.args.status === '');
    expect(slack.threadStatus(thread.channel, thread.threadTs)).toBeUndefined();
    expect(slack.callsTo('assistant.threads.setStatus').map((c) => c.args.status)).toEqual(['is waiting for a free slot (all workers are busy)…', '']);
  });

  it("says what a queued run waits for in the thread's language", async () => {
    const { outbox } = newOutbox();
    const thread = newThread();
    await outbox.post(thread, { text: '順番待ち' }, 'status:job-ja');
    const reporter = new SlackRunReporter(
      outbox,
      {
        ...thread,
        statusKey: 'status:job-ja',
        repository: 'acme/web',
        reading: { category: 'bug-fixing', complexity: 'simple', elements: {}, summary: 'Fix it' },
        language: 'ja',
      },
      undefined,
      createLogger({ level: 'silent' }),
      0,
    );
    await reporter.phase('queued', { key: 'waitingRepository' });
    await slack.waitFor((c) => c.method === 'assistant.threads.setStatus' && c.args.thread_ts === thread.threadTs);
    expect(slack.threadStatus(thread.channel, thread.threadTs)?.status).toBe('が待機しています(このリポジトリの他の実行の完了待ち)…');
  });

  it('redacts secrets out of the status, as out of every message', async () => {
    const { outbox } = newOutbox();
    const thread = newThread();
    await outbox.status(thread, `is trying ${SECRET}`, [`with ${SECRET}`]);
    await settled(outbox, thread);
    const shown = JSON.stringify(slack.threadStatus(thread.channel, thread.threadTs));
    expect(shown).not.toContain(SECRET);
    expect(shown).toContain('is trying');
  });

  it('remembers a workspace that refuses the method and stops asking it, while other workspaces and the messages go on', async () => {
    const { outbox, prefix } = newOutbox();
    const refusing = newThread('T0OFF');
    slack.failNext('assistant.threads.setStatus', { error: 'not_allowed' });
    await outbox.status(refusing, 'is reading your request…');
    await outbox.post(refusing, { text: 'Queued' });
    await settled(outbox, refusing);
    expect(await new AgentSurfaces(redis, prefix).refusal('T0OFF', 'assistant.threads.setStatus')).toBe('not_allowed');

    await outbox.status(refusing, 'is waiting for a worker…');
    await outbox.post(refusing, { text: 'Working' });
    await settled(outbox, refusing);
    expect(slack.callsTo('assistant.threads.setStatus')).toHaveLength(1);
    expect(slack.messages(refusing.channel, refusing.threadTs).map((m) => m.text)).toEqual(['<@U0BOT> fix the build', 'Queued', 'Working']);

    const check = await checkSlackAgentSurfaces({ env: { REDIS_URL: server.url, WRENCH_QUEUE_PREFIX: prefix } } as Config);
    expect(check).toMatchObject({ ok: true });
    expect(check.detail).toContain('T0OFF: assistant.threads.setStatus answered not_allowed');
    expect(check.detail).toContain('runs stream as one message where Slack allows it (slack.streamRuns, on by default)');
    expect((await checkSlackAgentSurfaces({ env: { REDIS_URL: server.url, WRENCH_QUEUE_PREFIX: uniqueName('none') } } as Config)).detail).toContain(
      'no workspace refused',
    );
    // The operator's opt-out is said: every run shows the card, whatever Slack would take.
    const optedOut = { env: { REDIS_URL: server.url, WRENCH_QUEUE_PREFIX: uniqueName('none') }, file: { slack: { streamRuns: false } } } as Config;
    expect((await checkSlackAgentSurfaces(optedOut)).detail).toContain('slack.streamRuns: false, so every run shows the status card');

    const other = newThread('T0ON');
    await outbox.status(other, 'is reading your request…');
    await settled(outbox, other);
    expect(slack.threadStatus(other.channel, other.threadTs)?.status).toBe('is reading your request…');
  });

  it('skips a status Slack cannot take during an outage instead of retrying it, and delivers the messages after it', async () => {
    // A status only says what Wrench is doing at that moment and Slack drops it after two minutes: shown late it would
    // be wrong, so it is not retried and holds nothing up. The messages behind it are retried until Slack takes them.
    const { outbox, prefix } = newOutbox();
    const thread = newThread();
    slack.startOutage({ status: 500 });
    await outbox.status(thread, 'is reading your request…');
    await outbox.post(thread, { text: 'Queued' });
    await slack.waitFor((c) => c.method === 'chat.postMessage' && c.status === 500);
    slack.recover();
    await settled(outbox, thread);
    expect(slack.messages(thread.channel, thread.threadTs).map((m) => m.text)).toEqual(['<@U0BOT> fix the build', 'Queued']);
    expect(slack.callsTo('assistant.threads.setStatus')).toHaveLength(1);
    expect(await new AgentSurfaces(redis, prefix).refusal('T0TEAM', 'assistant.threads.setStatus')).toBeUndefined();
  });
});

import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkSlackDeliveries } from '../../../app/cli/doctor-checks.js';
import type { Config } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createRedactor } from '../../../src/security/redact.js';
import { wellFormedText } from '../../../src/security/well-formed-text.js';
import { truncate } from '../../../src/slack/slack-escape.js';
import { outboxSlackClient, ThreadOutbox, type ThreadOutboxOptions } from '../../../src/slack/thread-outbox.js';
import { startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import type { SlackFailure } from '../../fakes/slack/types.js';
import { pollFor } from '../../fakes/shared/wait-for.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const TOKEN = 'xoxb-outbox-test';
const SECRET = 'xoxb-1234567890-secretsecretsecret';

describe('thread outbox: replies wait in Redis until Slack takes them, in order, once', () => {
  let slack: SlackFake;
  let server: RedisServer;
  const connections: Redis[] = [];
  const outboxes: ThreadOutbox[] = [];

  beforeAll(async () => {
    [slack, server] = await Promise.all([startSlackFake(), startRedisServer()]);
  });
  afterEach(async () => {
    await Promise.all(outboxes.splice(0).map((o) => o.stop()));
    slack.reset();
  });
  afterAll(async () => {
    for (const connection of connections) connection.disconnect();
    await Promise.all([slack.stop(), server.stop()]);
  });

  const newOutbox = (options: ThreadOutboxOptions = {}, prefix = uniqueName('outbox')) => {
    const redis = new Redis(server.url);
    connections.push(redis);
    const outbox = new ThreadOutbox(redis, prefix, outboxSlackClient(TOKEN, slack.apiUrl), createRedactor([SECRET]), createLogger({ level: 'silent' }), {
      baseDelayMs: 20,
      maxDelayMs: 200,
      pollMs: 20,
      ...options,
    });
    outboxes.push(outbox);
    return outbox;
  };
  const texts = (channel: string, threadTs: string) => slack.messages(channel, threadTs).map((m) => m.text);
  const waitForTexts = (channel: string, threadTs: string, count: number, timeoutMs = 15_000) =>
    pollFor(
      () => (texts(channel, threadTs).length >= count ? texts(channel, threadTs) : undefined),
      timeoutMs,
      () => `thread has ${JSON.stringify(texts(channel, threadTs))}`,
    );

  const outages: [string, SlackFailure][] = [
    ['HTTP 429 with Retry-After', { status: 429, retryAfter: 1 }],
    ['HTTP 500', { status: 500 }],
    ['ok:false ratelimited', { error: 'ratelimited' }],
    ['channel_not_found', { error: 'channel_not_found' }],
  ];

  const failed = (threadTs: string) => (c: { method: string; args: Record<string, unknown>; status: number; error?: string }) =>
    c.args.thread_ts === threadTs && (c.status !== 200 || !!c.error);
  const newThread = () => ({ channel: 'C0OUT', threadTs: `1700000000.${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}` });

  it.each(outages)('delivers everything in order after Slack failed with %s for a while, and edits the card in place', async (_name, failure) => {
    const outbox = newOutbox();
    outbox.start();
    const thread = newThread();
    slack.startOutage(failure);
    await outbox.post(thread, { text: ':hourglass: Queued' }, 'status:job-1');
    await outbox.update(thread, 'status:job-1', { text: ':hammer: Working' });
    await outbox.post(thread, { text: `Done, token ${SECRET}` });
    await outbox.update(thread, 'status:job-1', { text: ':white_check_mark: Done' });
    await slack.waitFor(failed(thread.threadTs), 10_000);
    expect(slack.messages(thread.channel, thread.threadTs)).toHaveLength(0);
    slack.recover();

    await pollFor(
      () => ((texts(thread.channel, thread.threadTs)[0] ?? '').includes('Done') && texts(thread.channel, thread.threadTs).length === 2 ? true : undefined),
      15_000,
      () => JSON.stringify(texts(thread.channel, thread.threadTs)),
    );
    expect(texts(thread.channel, thread.threadTs)).toEqual([':white_check_mark: Done', 'Done, token [redacted]']);
    const posted = slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === thread.threadTs && c.status === 200 && !c.error);
    expect(posted.map((c) => c.args.text)).toEqual([':hourglass: Queued', 'Done, token [redacted]']);
    const cardTs = await outbox.tsOf(thread, 'status:job-1');
    expect(
      slack
        .callsTo('chat.update')
        .filter((c) => !c.error && c.status === 200)
        .every((c) => c.args.ts === cardTs),
    ).toBe(true);
    await pollFor(
      async () => ((await outbox.waiting(thread)) === 0 ? true : undefined),
      5000,
      () => 'outbox not empty',
    );
    expect((await outbox.undeliverable()).total).toBe(0);
  });

  it('a 429 in one thread holds back only that thread', async () => {
    const outbox = newOutbox();
    const slow = newThread();
    const other = { ...newThread(), channel: 'C0OTHER' };
    slack.failNext('chat.postMessage', { status: 429, retryAfter: 30 });
    await outbox.post(slow, { text: 'first in the slow thread' });
    await outbox.post(slow, { text: 'second in the slow thread' });
    await slack.waitFor(failed(slow.threadTs), 5000);
    await outbox.post(other, { text: 'another thread' });
    await waitForTexts(other.channel, other.threadTs, 1);
    expect(texts(slow.channel, slow.threadTs)).toEqual([]);
    expect(await outbox.waiting(slow)).toBe(2);
    // Retry-After is honoured: nothing is due in the slow thread before it has passed.
    await outbox.deliverDue();
    expect(slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === slow.threadTs)).toHaveLength(1);
  });

  it('a message Slack refuses past the deadline is given up on, listed, and the next one goes', async () => {
    let now = Date.now();
    const prefix = uniqueName('outbox');
    const givenUp: string[] = [];
    const outbox = newOutbox({ now: () => now, deadlineMs: 60_000, onUndeliverable: (m) => givenUp.push(m.error) }, prefix);
    const thread = newThread();
    slack.startOutage({ error: 'channel_not_found' }, { methods: ['chat.postMessage'] });
    await outbox.post(thread, { text: 'lost reply' });
    await slack.waitFor(failed(thread.threadTs), 5000);
    now += 61_000;
    await outbox.deliverDue();
    expect(await outbox.waiting(thread)).toBe(0);
    slack.recover();
    await outbox.post(thread, { text: 'later reply' });
    await waitForTexts(thread.channel, thread.threadTs, 1);
    expect(texts(thread.channel, thread.threadTs)).toEqual(['later reply']);
    const dead = await outbox.undeliverable();
    expect(dead.total).toBe(1);
    expect(givenUp).toEqual(['channel_not_found']);
    expect(dead.recent[0]).toMatchObject({ channel: thread.channel, threadTs: thread.threadTs, op: 'post', text: 'lost reply', error: 'channel_not_found' });
    // `wrench doctor` lists it.
    const check = await checkSlackDeliveries({ env: { REDIS_URL: server.url, WRENCH_QUEUE_PREFIX: prefix } } as Config);
    expect(check).toMatchObject({ ok: false });
    expect(check.detail).toContain('1 thread reply was never delivered');
    expect(check.detail).toContain(`C0OUT thread ${thread.threadTs}: post "lost reply" (channel_not_found`);
    expect(await checkSlackDeliveries({ env: { REDIS_URL: server.url, WRENCH_QUEUE_PREFIX: uniqueName('empty') } } as Config)).toMatchObject({ ok: true });
  });

  it('a message Slack can never take (msg_too_long) is given up on at once, not retried', async () => {
    const outbox = newOutbox();
    const thread = newThread();
    slack.failNext('chat.postMessage', { error: 'msg_too_long' });
    await outbox.post(thread, { text: 'too long' });
    await outbox.post(thread, { text: 'next' });
    await waitForTexts(thread.channel, thread.threadTs, 1);
    expect(texts(thread.channel, thread.threadTs)).toEqual(['next']);
    expect((await outbox.undeliverable()).recent[0]).toMatchObject({ error: 'msg_too_long', attempts: 1 });
  });

  it('status updates queued behind a failing message collapse into the newest one', async () => {
    const outbox = newOutbox();
    const thread = newThread();
    slack.startOutage({ status: 503 });
    await outbox.post(thread, { text: 'card 0' }, 'card');
    for (let i = 1; i <= 20; i += 1) await outbox.update(thread, 'card', { text: `card ${i}` });
    expect(await outbox.waiting(thread)).toBe(2);
    slack.recover();
    outbox.start();
    await pollFor(
      () => (texts(thread.channel, thread.threadTs)[0] === 'card 20' ? true : undefined),
      10_000,
      () => JSON.stringify(texts(thread.channel, thread.threadTs)),
    );
    expect(slack.callsTo('chat.update').filter((c) => c.status === 200 && !c.error)).toHaveLength(1);
  });

  it('two processes sharing one Redis deliver each message once, in order', async () => {
    const prefix = uniqueName('outbox');
    const [a, b] = [newOutbox({}, prefix), newOutbox({}, prefix)];
    const thread = newThread();
    slack.startOutage({ status: 500 });
    for (let i = 0; i < 10; i += 1) await (i % 2 ? a : b).post(thread, { text: `message ${i}` });
    slack.recover();
    a.start();
    b.start();
    await waitForTexts(thread.channel, thread.threadTs, 10);
    await pollFor(
      async () => ((await a.waiting(thread)) === 0 ? true : undefined),
      5000,
      () => 'outbox not empty',
    );
    expect(texts(thread.channel, thread.threadTs)).toEqual(Array.from({ length: 10 }, (_, i) => `message ${i}`));
  });

  it('an update whose message never got through is posted instead', async () => {
    const outbox = newOutbox();
    const thread = newThread();
    slack.failNext('chat.postMessage', { error: 'msg_too_long' });
    await outbox.post(thread, { text: 'card' }, 'card');
    await outbox.update(thread, 'card', { text: 'card, updated' });
    await waitForTexts(thread.channel, thread.threadTs, 1);
    expect(texts(thread.channel, thread.threadTs)).toEqual(['card, updated']);
    expect(await outbox.tsOf(thread, 'card')).toBe(slack.messages(thread.channel, thread.threadTs)[0]!.ts);
  });

  it('fuzz: random Unicode (astral, combining, RTL, NUL, lone surrogates), whole and truncated, is delivered once, in order, well-formed', async () => {
    const random = seededRandom(30);
    const pieces = [
      '🔥',
      '👩‍👩‍👧',
      '🇺🇦',
      'é',
      'e\u0301',
      '\u0645\u0631\u062d\u0628\u0627',
      '\u202e',
      '\u0000',
      '\ud83d',
      '\ude00',
      '\udc00\ud800',
      '𝔘',
      ' ',
      '&<>',
      '\n',
      '\u200d',
    ];
    const randomText = () => Array.from({ length: 1 + Math.floor(random() * 60) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    const outbox = newOutbox();
    outbox.start();
    const threads = [newThread(), newThread(), newThread()];
    const expected = new Map<string, string[]>(threads.map((t) => [t.threadTs, []]));
    const cards = new Map<string, string>();
    for (let i = 0; i < 60; i += 1) {
      const thread = threads[i % threads.length]!;
      const raw = randomText();
      const text = `${i}: ${i % 2 ? truncate(raw, 1 + Math.floor(random() * 40)) : raw}`;
      if (i < threads.length) {
        await outbox.post(thread, { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] }, 'card');
        expected.get(thread.threadTs)!.push('card');
        cards.set(thread.threadTs, wellFormedText(text));
      } else if (i % 5 === 0) {
        await outbox.update(thread, 'card', { text });
        cards.set(thread.threadTs, wellFormedText(text));
      } else {
        await outbox.post(thread, { text });
        expected.get(thread.threadTs)!.push(wellFormedText(text));
      }
    }
    for (const thread of threads) {
      const want = expected.get(thread.threadTs)!;
      await waitForTexts(thread.channel, thread.threadTs, want.length);
      await pollFor(
        async () => ((await outbox.waiting(thread)) === 0 ? true : undefined),
        10_000,
        () => 'outbox not empty',
      );
      const got = texts(thread.channel, thread.threadTs);
      expect(got).toHaveLength(want.length);
      expect(got.slice(1)).toEqual(want.slice(1));
      expect(got[0]).toBe(cards.get(thread.threadTs));
      for (const text of got) expect(text.isWellFormed() && !text.includes('\u0000')).toBe(true);
    }
    expect((await outbox.quarantined()).total).toBe(0);
    expect((await outbox.undeliverable()).total).toBe(0);
  });
});

/** mulberry32: the same "random" texts on every run, so a failure can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * bench/thread-outbox: replies through the thread outbox (real Redis, the Slack fake over HTTP, the real WebClient).
 * Prints: the time to queue one message (what a run waits for instead of Slack), the delivery rate with Slack up,
 * and, after an outage of every method (HTTP 500) while THREADS threads each queued MESSAGES messages, how long after
 * Slack recovered the last thread had all its messages (with the default 1 s base and 60 s cap, shrunk here to
 * base 100 ms / cap 1 s so the figure is about the outbox, not the backoff).
 *
 *   npx tsx bench/thread-outbox.ts [threads] [messages]
 */
import { Redis } from 'ioredis';
import { createLogger } from '../src/logging/logger.js';
import { createRedactor } from '../src/security/redact.js';
import { outboxSlackClient, ThreadOutbox } from '../src/slack/thread-outbox.js';
import { startSlackFake } from '../test/fakes/slack-fake.js';
import { startRedisServer } from '../test/helpers/redis-server.js';

const THREADS = Number(process.argv[2] ?? 20);
const MESSAGES = Number(process.argv[3] ?? 10);

const [slack, server] = await Promise.all([startSlackFake(), startRedisServer()]);
const redis = new Redis(server.url);
const outbox = new ThreadOutbox(
  redis,
  `bench-${process.pid}`,
  outboxSlackClient('xoxb-bench', slack.apiUrl),
  createRedactor([]),
  createLogger({ level: 'silent' }),
  {
    baseDelayMs: 100,
    maxDelayMs: 1000,
    pollMs: 50,
  },
);
const threads = Array.from({ length: THREADS }, (_, i) => ({ channel: 'C0BENCH', threadTs: `1700000000.${String(i).padStart(6, '0')}` }));
const delivered = (thread: (typeof threads)[number]) => slack.messages(thread.channel, thread.threadTs).length;
const allDelivered = (count: number) => threads.every((t) => delivered(t) >= count);
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
};

// Slack up: queue and deliver.
let started = performance.now();
for (const thread of threads) for (let m = 0; m < MESSAGES; m += 1) await outbox.post(thread, { text: `up ${m}` });
const queueMs = (performance.now() - started) / (THREADS * MESSAGES);
await until(() => allDelivered(MESSAGES));
const upSeconds = (performance.now() - started) / 1000;

// Slack down while the same amount is queued, then up again.
slack.startOutage({ status: 500 });
outbox.start();
for (const thread of threads) for (let m = 0; m < MESSAGES; m += 1) await outbox.post(thread, { text: `down ${m}` });
await new Promise((r) => setTimeout(r, 2000));
slack.recover();
started = performance.now();
await until(() => allDelivered(2 * MESSAGES));
const catchUpSeconds = (performance.now() - started) / 1000;
const inOrder = threads.every(
  (t) =>
    slack
      .messages(t.channel, t.threadTs)
      .map((m) => m.text)
      .join() ===
    [...Array(MESSAGES).keys()]
      .map((m) => `up ${m}`)
      .concat([...Array(MESSAGES).keys()].map((m) => `down ${m}`))
      .join(),
);

console.log(`threads ${THREADS} x messages ${MESSAGES}`);
console.log(`queue one message:           ${queueMs.toFixed(2)} ms`);
console.log(`deliver with Slack up:       ${((THREADS * MESSAGES) / upSeconds).toFixed(0)} messages/s`);
console.log(`all delivered after recovery: ${catchUpSeconds.toFixed(2)} s (${THREADS * MESSAGES} messages, in order: ${inOrder})`);
console.log(`failed attempts during the 2 s outage: ${slack.calls.filter((c) => c.status === 500).length}`);

await outbox.stop();
redis.disconnect();
await Promise.all([slack.stop(), server.stop()]);

import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_QUEUE } from '../../src/queue/task-job.js';
import { createHmac } from 'node:crypto';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { ANTHROPIC_KEY, BOT_TOKEN, createE2eWorld, GITHUB_TOKEN, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';
import { bashStep, createFileStep, scriptByRun } from './scripted-runs.js';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { hostileCommands } from './hostile-commands.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/target }
sandbox: { mode: bwrap }
`;

const SECRETS = [BOT_TOKEN, GITHUB_TOKEN, ANTHROPIC_KEY, SIGNING_SECRET];

describe('hostile input', () => {
  let world: E2eWorld;

  let redis: Redis;
  let tasks: Queue;
  // What requests could write; not the keys workers renew on their own timers (BullMQ's stalled-job check, the
  // worker's affinity heartbeat), which come and go whatever arrives.
  const redisKeys = async () => (await redis.keys('*')).filter((key) => !/:stalled-check$|:affinity:/.test(key));

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    redis = new Redis(world.redis.url, { maxRetriesPerRequest: null });
    tasks = new Queue(TASK_QUEUE, { connection: redis, prefix: world.env.WRENCH_QUEUE_PREFIX });
    await world.github.createRepo('acme', 'target', { 'README.md': '# target\n' });
    await world.start();
    // /healthz answers before start-up's last step writes Redis's epoch key: wait for it, so it is not taken for a key
    // a refused request wrote.
    const epochKey = `${world.env.WRENCH_QUEUE_PREFIX}:epoch`;
    for (const deadline = Date.now() + 30_000; (await redis.exists(epochKey)) === 0; ) {
      if (Date.now() > deadline) throw new Error(`Wrench did not write ${epochKey} within 30 s of answering /healthz`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await tasks?.close();
    redis?.disconnect();
    await world?.stop();
  });

  const post = (body: string, headers: Record<string, string>) =>
    fetch(world.eventsUrl(), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
    }));
  const sign = (body: string, ts: number) => `v0=${createHmac('sha256', SIGNING_SECRET).update(`v0:${ts}:${body}`).digest('hex')}`;

  it('refuses missing, wrong and stale Slack signatures; nothing is queued', async () => {
    const body = JSON.stringify(appMentionEnvelope({ channel: 'C0DEV', user: 'U0EVE', text: '<@U0BOT> add src/x.js' }));
    const now = Math.floor(Date.now() / 1000);
    const calls = world.slack.calls.length;
    expect((await post(body, {})).status).toBe(401);
    expect((await post(body, { 'x-slack-request-timestamp': String(now), 'x-slack-signature': 'v0=deadbeef' })).status).toBe(401);
    const stale = now - 10 * 60;
    const keysBefore = (await redisKeys()).sort();
    expect((await post(body, { 'x-slack-request-timestamp': String(stale), 'x-slack-signature': sign(body, stale) })).status).toBe(401);
    // A refusal is decided before anything is stored or queued: Redis holds exactly what it held before.
    expect((await redisKeys()).sort()).toEqual(keysBefore);
    expect(await tasks.getJobCountByTypes('waiting', 'active', 'delayed', 'completed', 'failed')).toBe(0);
    expect(world.slack.calls.length).toBe(calls);
    expect(world.anthropic.requests).toHaveLength(0);
  });

  it('a replayed valid request starts nothing new', async () => {
    world.anthropic.setScript(
      scriptByRun({
        'replay target': [
          createFileStep('src/replay.js', 'export {};\n'),
          toolUseResponse([{ name: 'finish_task', input: { summary: 'ok', verification: 'ok' } }]),
        ],
      }).items,
    );
    const body = JSON.stringify(appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> replay target: add src/replay.js exporting nothing' }));
    const ts = Math.floor(Date.now() / 1000);
    const headers = { 'x-slack-request-timestamp': String(ts), 'x-slack-signature': sign(body, ts) };
    expect((await post(body, headers)).status).toBe(200);
    expect((await post(body, headers)).status).toBe(200);
    await threadReply(world, JSON.parse(body).event.ts, /Opened PR/, 150_000);
    // The replay was claimed as a duplicate at intake: once the run is over, no job is left waiting behind it and
    // exactly one ever ran.
    for (const deadline = Date.now() + 30_000; (await tasks.getJobCountByTypes('waiting', 'active', 'delayed')) > 0; ) {
      if (Date.now() > deadline) throw new Error('a job is still queued 30 s after the reply');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await tasks.getJobCountByTypes('completed', 'failed')).toBe(1);
    expect(world.github.pulls('acme', 'target')).toHaveLength(1);
  });

  it('an agent that hunts for credentials finds none; nothing leaks to Slack, GitHub or the model; the next job still runs', async () => {
    const probes = hostileCommands(world.slack.apiUrl);
    const script = scriptByRun({
      'hunt for secrets': [
        ...probes.map((p) => bashStep(p)),
        createFileStep('notes.md', 'harmless\n'),
        // The worst case: the model tries to post a credential it somehow learned.
        toolUseResponse([{ name: 'finish_task', input: { summary: `Found these: ${GITHUB_TOKEN} ${BOT_TOKEN}`, verification: `token=${ANTHROPIC_KEY}` } }]),
      ],
      'after the hunt': [
        createFileStep('src/after.js', 'export const ok = true;\n'),
        toolUseResponse([{ name: 'finish_task', input: { summary: 'still serving', verification: 'ok' } }]),
      ],
    });
    world.anthropic.setScript(script.items);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> hunt for secrets: add notes.md to the repository root' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const reply = await threadReply(world, ts, /PR #/, 120_000);
    expect(reply.text).toContain('[redacted]');

    const toolOutputs = JSON.stringify(world.anthropic.requests.map((r) => r.body));
    const slackTraffic = JSON.stringify(world.slack.calls.map((c) => c.args));
    const githubTraffic = JSON.stringify(world.github.requests.map((r) => r.body));
    for (const secret of SECRETS) {
      expect(toolOutputs).not.toContain(secret);
      expect(slackTraffic).not.toContain(secret);
      expect(githubTraffic).not.toContain(secret);
    }
    const results = JSON.stringify(
      world.anthropic.requests.flatMap((r) =>
        (r.body as { messages: Array<{ content: unknown }> }).messages.flatMap((m) =>
          Array.isArray(m.content) ? m.content.filter((b: { type: string }) => b.type === 'tool_result') : [],
        ),
      ),
    );
    expect(results).toContain('blocked');
    expect(results).not.toContain('REACHED');
    expect(results).toMatch(/Read-only file system/);
    expect(toolOutputs).toMatch(/characters elided/);
    expect(toolOutputs).not.toMatch(/mirrors\/acme/);

    // The worker is still serving.
    const next = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> after the hunt: add src/after.js exporting `ok`' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, next);
    await threadReply(world, (next.event as { ts: string }).ts, /Opened PR/, 150_000);
  });

  it('a Slack Connect channel is refused by default with an explanation', async () => {
    const envelope = { ...appMentionEnvelope({ channel: 'C0DEV', user: 'U0EXT', text: '<@U0BOT> add src/ext.js' }), is_ext_shared_channel: true };
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const refusal = await world.slack.waitFor((c) => c.method === 'chat.postEphemeral' && c.args.user === 'U0EXT');
    expect(String(refusal.args.text)).toMatch(/Slack Connect/);
  });

  it('an instruction past the length limit gets a clear message', async () => {
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> add this: ${'a'.repeat(25_000)}` });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const reply = await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === (envelope.event as { ts: string }).ts);
    expect(String(reply.args.text)).toMatch(/at most 20,000/);
  });
  it('rejects malformed and oversized payloads with a clear status', async () => {
    const now = Math.floor(Date.now() / 1000);
    const malformed = '{"type": "event_callback", "event": ';
    const bad = await post(malformed, { 'x-slack-request-timestamp': String(now), 'x-slack-signature': sign(malformed, now) });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    const huge = JSON.stringify({ type: 'event_callback', padding: 'x'.repeat(5 * 1024 * 1024) });
    const big = await post(huge, { 'x-slack-request-timestamp': String(now), 'x-slack-signature': sign(huge, now) });
    expect(big.status).toBe(413);
    expect((await fetch(`${world.wrench!.url}/healthz`)).status).toBe(200);
  });
});

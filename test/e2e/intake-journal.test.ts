import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/journal }
sandbox: { mode: none }
`;

/** Redis takes no write when the mention is acknowledged, and the web process is killed before it does. */
describe('a mention acknowledged while Redis takes no writes, then a crash', () => {
  let world: E2eWorld;
  let tasks: Queue;
  let admin: Redis;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'journal', { 'README.md': '# journal\n' });
    tasks = new Queue('tasks', { connection: { url: world.redis.url }, prefix: world.env.WRENCH_QUEUE_PREFIX });
    admin = new Redis(world.redis.url);
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await admin?.call('CLIENT', 'UNPAUSE').catch(() => undefined);
    admin?.disconnect();
    await tasks?.close();
    await world?.stop();
  });

  it('is kept on the local disk, stored in Redis and answered once after the restart', async () => {
    const agent = scriptByRun({ 'kept while redis paused': [createFileStep('src/kept.js', 'export const kept = 1;\n'), finishStep('Added kept.js.')] });
    world.anthropic.setScript(agent.items);
    await world.start({ WRENCH_MENTION_CLAIM_SECONDS: '2' });

    // Redis answers reads but holds every write (a Redis stuck in a failover, a full disk, a slow replica sync).
    await admin.call('CLIENT', 'PAUSE', '120000', 'WRITE');
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> kept while redis paused: add src/kept.js exporting `kept`' });
    const ts = (envelope.event as { ts: string }).ts;
    const started = Date.now();
    const answer = await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    // Acknowledged within Slack's 3 s, from the journal alone.
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3000);
    // The log line travels through the child's stdout pipe, which can be read after the 200 arrives.
    await pollFor(
      () => (/kept in the local journal/.test(world.wrench!.output()) ? true : undefined),
      5_000,
      () => 'the journal was not named in the log',
    );

    const { child } = world.wrench!;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    world.wrench = undefined;
    // The writes the dead process had sent are dropped with its connection: Redis never held the mention.
    await admin.call('CLIENT', 'UNPAUSE');
    expect(await admin.hlen(`${world.env.WRENCH_QUEUE_PREFIX}:slack-intake`)).toBe(0);
    expect(await tasks.getJobCountByTypes('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized')).toBe(0);

    await world.start({ WRENCH_MENTION_CLAIM_SECONDS: '2' });
    await threadReply(world, ts, /Opened PR #/, 90_000);
    expect(world.wrench!.output()).toMatch(/kept in the local journal while Redis did not answer is now stored in Redis/);
    expect(world.github.pulls('acme', 'journal')).toHaveLength(1);
    expect(await tasks.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized'])).toHaveLength(1);
    // Slack's retry of it is a duplicate.
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    await pollFor(
      () => (/duplicate event: already handled/.test(world.wrench!.output()) ? true : undefined),
      10_000,
      () => 'the redelivery was not seen',
    );
    // Handled and its run ended: the journal forgets it.
    const journal = path.join(world.env.WRENCH_DATA_DIR!, 'intake-journal');
    const files = async () => [
      ...(await readdir(path.join(journal, 'pending')).catch(() => [])),
      ...(await readdir(path.join(journal, 'stored')).catch(() => [])),
    ];
    const deadline = Date.now() + 15_000;
    while ((await files()).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await files()).toEqual([]);
    expect(world.github.pulls('acme', 'journal')).toHaveLength(1);
  });
});

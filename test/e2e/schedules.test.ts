import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope, blockActionsPayload } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/web, baseBranch: main }
repos: [acme/*]
sandbox: { mode: bwrap }
`;

/** Slack-made schedules allowed at seconds intervals, so a test sees several occurrences. */
const ENV = { WRENCH_SCHEDULE_MIN_SECONDS: '1' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(find: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await sleep(100);
  }
}

/**
 * A schedule made in Slack, confirmed with its button, run by BullMQ's job scheduler on a 3-second cron through Wrench
 * as a child process with the fakes, then Wrench stopped across several due times and started again: each occurrence
 * ran once, none doubled, and those due while Wrench was down gave one late run whose message says how many it skipped.
 */
describe('schedules, end to end', () => {
  let world: E2eWorld;
  let redis: Redis;
  let occurrences: Queue;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'web', {
      'package.json': JSON.stringify({ name: 'web', version: '1.0.0', scripts: { test: 'node -e "process.exit(0)"' } }, null, 2),
      'src/index.js': 'export const hello = () => "hello";\n',
    });
    world.anthropic.setScript(scriptByRun({ 'weekly notes': [createFileStep('NOTES.md', '# Notes\n'), finishStep('Added NOTES.md.')] }).items);
    world.slack.addUser({ id: 'U0ALICE', tz: 'Europe/Berlin' });
    await world.start(ENV);
    redis = new Redis(world.redis.url);
    occurrences = new Queue('schedules', { connection: redis.duplicate(), prefix: world.env.WRENCH_QUEUE_PREFIX as string });
  }, 120_000);

  afterAll(async () => {
    await occurrences?.close();
    redis?.disconnect();
    await world?.stop();
  });

  const runMessages = () =>
    world.slack.messages('C0DEV').filter((m) => (!m.thread_ts || m.thread_ts === m.ts) && m.text?.startsWith(':repeat: Scheduled run of *schedule 1*'));
  const runsAs = async (due: number) => {
    const record = await redis.get(`${world.env.WRENCH_QUEUE_PREFIX}:schedule-occurrence:1:${due}`);
    return record ? (JSON.parse(record) as { runsAs?: { due: number; skipped: number; first: number; takenAt: number } }).runsAs : undefined;
  };
  const handled = async () => {
    const jobs = await occurrences.getJobs(['completed']);
    return jobs.map((job) => ({ due: job.opts.prevMillis as number, processedOn: job.processedOn as number, outcome: job.returnvalue?.outcome as string }));
  };

  it('runs on time, never doubles an occurrence, and after a restart runs the latest missed occurrence once, saying how many it skipped', async () => {
    const { slack } = world;
    const mention = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> every 3 seconds: add the weekly notes file NOTES.md' });
    expect((await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, mention)).status).toBe(200);
    const threadTs = (mention.event as { ts: string }).ts;
    const card = await slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && JSON.stringify(c.args.blocks ?? '').includes('wrench_schedule_confirm'),
      20_000,
    );
    const blocks = card.args.blocks as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>;
    expect(JSON.stringify(blocks).match(/\d\d:\d\d(?::\d\d)? \(Europe\/Berlin\)/g)).toHaveLength(3);
    const confirm = blocks.find((b) => b.type === 'actions')?.elements?.find((e) => e.action_id === 'wrench_schedule_confirm');
    const cardTs = String(slack.messages('C0DEV', threadTs).find((m) => JSON.stringify(m.blocks ?? '').includes('wrench_schedule_confirm'))?.ts);
    await slack.deliverInteraction(
      world.eventsUrl(),
      SIGNING_SECRET,
      blockActionsPayload({
        user: 'U0ALICE',
        channel: 'C0DEV',
        message_ts: cardTs,
        thread_ts: threadTs,
        action_id: 'wrench_schedule_confirm',
        value: confirm?.value as string,
      }),
    );
    const scheduler = await until(async () => (await occurrences.getJobScheduler('schedule-1')) ?? undefined, 20_000, 'the job scheduler');
    expect(scheduler).toMatchObject({ pattern: '*/3 * * * * *', tz: 'Europe/Berlin' });

    // The first occurrence: a message of its own in the channel, and an ordinary run there that opens a pull request.
    await pollFor(
      () => runMessages()[0],
      30_000,
      () => JSON.stringify(slack.messages('C0DEV').map((m) => m.text)),
    );
    await pollFor(
      () => (world.github.pulls('acme', 'web').length > 0 ? true : undefined),
      120_000,
      () => 'no pull request',
    );
    const first = (await handled()).find((o) => o.outcome === 'started');
    expect(first).toBeTruthy();
    // On time: taken within a few seconds of when it was due (a loaded machine included).
    expect((first?.processedOn ?? 0) - (first?.due ?? 0)).toBeLessThan(5_000);

    // A real restart: Wrench stopped across several due times, then started again on the same Redis.
    await world.wrench?.stop();
    await sleep(9_000);
    const restartedAt = Date.now();
    await world.start(ENV);
    const late = await until(
      async () => {
        const done = (await handled()).filter((o) => o.due < restartedAt && o.processedOn >= restartedAt);
        return done.length ? done : undefined;
      },
      30_000,
      'the occurrence due while Wrench was down',
    );
    // Exactly one: BullMQ keeps the next occurrence waiting in Redis; those of the downtime are not made up one by one.
    expect(late).toHaveLength(1);
    // It ran as the latest occurrence due when it was taken, and said how many it skipped: counted here from the job's
    // own times (a due time every 3 s), the waiting one included.
    const waited = late[0] as { due: number; processedOn: number };
    const missed = Math.floor((waited.processedOn - waited.due) / 3_000);
    expect(missed).toBeGreaterThanOrEqual(2);
    expect(await runsAs(waited.due)).toEqual({ due: waited.due + missed * 3_000, skipped: missed, first: waited.due, takenAt: waited.processedOn });
    const lateLines = [...slack.messages('C0DEV'), ...slack.messages('C0DEV', threadTs)].filter((m) => m.text?.includes(':hourglass: Run late, once'));
    expect(lateLines).toHaveLength(1);
    expect(lateLines[0]?.text).toContain(`${missed} earlier occurrences (the first due `);
    const runsBefore = runMessages().length;
    // And it goes on after the restart: a later occurrence is handled too.
    await until(async () => ((await handled()).some((o) => o.due > restartedAt + 3_000) ? true : undefined), 30_000, 'an occurrence after the restart');
    await world.wrench?.stop();

    const all = await handled();
    const dues = all.map((o) => o.due);
    expect(new Set(dues).size).toBe(dues.length);
    // Each started occurrence posted one message and queued one run, with the occurrence as its key.
    // Each started occurrence's run is keyed by the occurrence it ran as (the late one: the latest due when taken).
    const started = await Promise.all(all.filter((o) => o.outcome === 'started').map(async (o) => (await runsAs(o.due))?.due ?? o.due));
    expect(runMessages().length).toBe(started.length);
    expect(runMessages().length).toBeGreaterThanOrEqual(runsBefore);
    const runJobs = (await redis.keys(`${world.env.WRENCH_QUEUE_PREFIX}:tasks:run-schedule-1-*`)).filter((k) => /run-schedule-1-\d+$/.test(k));
    expect(runJobs.map((k) => Number(k.split('-').at(-1))).sort()).toEqual([...started].sort());
    // The others were skipped while the run before them was still going, and the schedule's thread said so.
    const skipped = all.filter((o) => o.outcome === 'skipped').length;
    const notes = slack.messages('C0DEV', threadTs).filter((m) => m.text?.includes('Skipped the run due')).length;
    expect(notes).toBe(skipped);
    expect(all.every((o) => o.outcome === 'started' || o.outcome === 'skipped')).toBe(true);
    expect(started.length).toBeGreaterThanOrEqual(2);
  }, 300_000);
});

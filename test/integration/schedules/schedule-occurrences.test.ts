import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleWorker } from '../../../app/service/schedule-worker.js';
import type { HandlerDeps } from '../../../handlers/handler-deps.js';
import { FAILURES_BEFORE_PAUSE, runScheduleOccurrence } from '../../../handlers/schedule-occurrence.js';
import { configScheduleId, syncConfigSchedules } from '../../../src/schedules/config-schedules.js';
import { type ScheduleBook, schedulerIdOf } from '../../../src/schedules/schedule-queue.js';
import type { Schedule } from '../../../src/schedules/schedule-store.js';
import { configFileSchema } from '../../../src/config/config-file.js';
import { pollFor } from '../../fakes/shared/wait-for.js';
import { startHandlerWorld, type HandlerWorld } from '../../helpers/handler-world.js';
import { runMessagesOf, testSchedule, withScheduleBook } from './schedule-fixtures.js';

const EVERY_TWO_SECONDS = '*/2 * * * * *';

const schedule = (id: string, fields: Partial<Schedule> = {}) => testSchedule(id, { cron: EVERY_TWO_SECONDS, timezone: 'Europe/Berlin', ...fields });

/** Schedule occurrences with real Redis, BullMQ's job schedulers and the Slack fake: each one posts and queues a run once. */
describe('schedule occurrences', () => {
  let world: HandlerWorld;
  let deps: HandlerDeps & { schedules: ScheduleBook };
  const workers: Worker[] = [];

  beforeAll(async () => {
    world = await startHandlerWorld('schedules');
    deps = withScheduleBook(world);
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await deps?.schedules.close();
    await world?.stop();
  });

  const runMessages = (id: string) => runMessagesOf(world.slack, id);
  const startWorker = () => {
    const worker = startScheduleWorker(world.redis.duplicate(), world.client, deps);
    workers.push(worker);
    return worker;
  };

  it('fires on a seconds cron across two workers, once per occurrence, and skips while the previous run is still queued', async () => {
    const book = deps.schedules;
    await book.store.save(schedule('1'));
    await book.activate((await book.store.get('1')) as Schedule);
    expect(await book.nextRun('1')).toBeGreaterThan(Date.now() - 1000);
    const schedulers = await book.queue.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.pattern, s.tz])).toEqual([[schedulerIdOf('1'), EVERY_TWO_SECONDS, 'Europe/Berlin']]);
    // Two processes of the fleet: each occurrence goes to one of them.
    startWorker();
    startWorker();

    const first = await pollFor(
      () => runMessages('1')[0],
      10_000,
      () => JSON.stringify(world.slack.messages('C0DEV')),
    );
    const queuedRuns = async () => (await deps.queues.tasks.getJobs(['waiting', 'prioritized', 'delayed'])).filter((j) => j.id?.startsWith('run-schedule-1-'));
    for (let waited = 0; (await queuedRuns()).length === 0 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    const runs = await queuedRuns();
    expect(runs).toHaveLength(1);
    expect(runs[0]?.data).toMatchObject({
      instruction: 'update the minor versions of our npm dependencies and open a PR',
      requester: { slackUserId: 'U0ALICE' },
    });
    expect(runs[0]?.data.origin).toMatchObject({ channel: 'C0DEV', threadTs: first.ts });

    // No task worker here: the run stays queued, so the next occurrences are skipped, and said so in the schedule's thread.
    const skipped = await pollFor(
      () => world.slack.messages('C0DEV', '1700000000.000100').find((m) => m.text?.includes('Skipped the run due')),
      10_000,
      () => JSON.stringify(world.slack.messages('C0DEV', '1700000000.000100')),
    );
    expect(skipped.text).toMatch(/\(Europe\/Berlin\)/);
    expect(runMessages('1')).toHaveLength(1);
    const started = world.slack.messages('C0DEV', '1700000000.000100').filter((m) => m.text?.includes('started'));
    expect(started).toHaveLength(1);

    // Each occurrence was handled once across the two workers: no occurrence job ran twice.
    const done = await book.queue.getJobs(['completed']);
    const occurrences = done.map((j) => j.opts.prevMillis);
    expect(new Set(occurrences).size).toBe(occurrences.length);
    await book.deactivate('1');
    expect(await book.nextRun('1')).toBeUndefined();
  });

  it('a doubled occurrence makes one run, and three failed runs in a row pause the schedule with its reason in its thread', async () => {
    const book = deps.schedules;
    await book.store.save(schedule('2', { threadTs: '1700000000.000200' }));
    await book.activate((await book.store.get('2')) as Schedule);
    const base = Date.UTC(2026, 10, 30, 8, 0, 0);
    expect(await runScheduleOccurrence({ scheduleId: '2', occurrence: base, client: world.client }, deps)).toBe('started');
    expect(await runScheduleOccurrence({ scheduleId: '2', occurrence: base, client: world.client }, deps)).toBe('duplicate');
    expect(runMessages('2')).toHaveLength(1);

    for (let i = 0; i < FAILURES_BEFORE_PAUSE; i++) {
      // The run failed: its thread's record says so and its job is gone.
      const last = (await book.store.get('2'))?.lastRun;
      if (!last) throw new Error('no last run');
      await deps.sessions.update('C0DEV', last.threadTs, (s) => (s ? { ...s, runs: s.runs.map((r) => ({ ...r, status: 'failed' as const })) } : null));
      await (await deps.queues.tasks.getJob(last.jobId))?.remove();
      const outcome = await runScheduleOccurrence({ scheduleId: '2', occurrence: base + (i + 1) * 60_000, client: world.client }, deps);
      expect(outcome).toBe(i + 1 < FAILURES_BEFORE_PAUSE ? 'started' : 'paused');
    }
    const paused = await book.store.get('2');
    expect(paused).toMatchObject({ state: 'paused', failures: 3, pausedBecause: 'the last 3 runs failed' });
    expect(await book.queue.getJobScheduler(schedulerIdOf('2'))).toBeUndefined();
    const thread = world.slack.messages('C0DEV', '1700000000.000200');
    expect(thread.find((m) => m.text?.includes('Paused: the last 3 runs failed'))).toBeTruthy();
    expect(runMessages('2')).toHaveLength(3);
  });

  it('a process dying between posting the run message and recording it: its retry adopts the message, posts none again', async () => {
    const book = deps.schedules;
    await book.store.save(schedule('3', { threadTs: '1700000000.000300' }));
    const due = Date.UTC(2026, 10, 30, 9, 0, 0);
    // Slack has taken the message; the write that would record it in the occurrence's record never happens.
    const store = book.store;
    const record = store.updateOccurrence.bind(store);
    let died = false;
    store.updateOccurrence = (id, occurrence, change) => {
      const probe = change({});
      if (!died && probe?.threadTs) {
        died = true;
        return Promise.reject(new Error('the process died here'));
      }
      return record(id, occurrence, change);
    };
    try {
      await expect(runScheduleOccurrence({ scheduleId: '3', occurrence: due, client: world.client }, deps)).rejects.toThrow('the process died here');
    } finally {
      store.updateOccurrence = record;
    }
    expect(died).toBe(true);
    expect(runMessages('3')).toHaveLength(1);
    // BullMQ tries the occurrence again: the message in the channel is found by its metadata and the run goes there.
    expect(await runScheduleOccurrence({ scheduleId: '3', occurrence: due, client: world.client }, deps)).toBe('started');
    expect(runMessages('3')).toHaveLength(1);
    const [message] = runMessages('3');
    expect(message?.metadata).toEqual({ event_type: 'wrench_schedule_occurrence', event_payload: { schedule_id: '3', due } });
    const job = await deps.queues.tasks.getJob(`run-schedule-3-${due}`);
    expect(job?.data.origin).toMatchObject({ channel: 'C0DEV', threadTs: message?.ts });
    expect((await store.occurrence('3', due))?.threadTs).toBe(message?.ts);
  });

  it('two occurrences handled at once on two processes start one run: the later one waits its turn and skips', async () => {
    const book = deps.schedules;
    await book.store.save(schedule('4', { threadTs: '1700000000.000400' }));
    const due = Date.UTC(2026, 10, 30, 10, 0, 0);
    // On a short cron BullMQ adds the next occurrence's job as soon as one is taken: both can be in hand together.
    const outcomes = await Promise.all([
      runScheduleOccurrence({ scheduleId: '4', occurrence: due, client: world.client }, deps),
      runScheduleOccurrence({ scheduleId: '4', occurrence: due + 2000, client: world.client }, deps),
    ]);
    expect(outcomes.sort()).toEqual(['skipped', 'started']);
    expect(runMessages('4')).toHaveLength(1);
    expect(await world.redis.exists(`${world.deps.config.env.WRENCH_QUEUE_PREFIX}:schedule-turn:4`)).toBe(0);
  });

  it('puts wrench.config.yml schedules in Redis once, keeps a paused one paused, and removes one gone from the file', async () => {
    const entry = { channel: 'C0DEV', cron: '0 9 * * 1', timezone: 'Europe/Berlin', instruction: 'update the dependencies' };
    const file = configFileSchema.parse({ channels: { C0DEV: { repo: 'acme/web' } }, schedules: [entry] });
    const id = configScheduleId(file.schedules[0] as (typeof file.schedules)[number]);
    await syncConfigSchedules(deps.schedules, file, deps.logger);
    await syncConfigSchedules(deps.schedules, file, deps.logger);
    const scheduler = await deps.schedules.queue.getJobScheduler(schedulerIdOf(id));
    expect(scheduler).toMatchObject({ pattern: '0 9 * * 1', tz: 'Europe/Berlin' });
    expect(new Date(scheduler?.next ?? 0).getUTCDay()).toBe(1);
    expect(await deps.schedules.store.get(id)).toMatchObject({ source: 'config', repo: { owner: 'acme', name: 'web' }, state: 'active' });

    // Its first occurrence posts the schedule's own message (its thread, for notes) and queues a run for nobody in particular.
    const due = Date.UTC(2026, 10, 30, 8, 0, 0);
    expect(await runScheduleOccurrence({ scheduleId: id, occurrence: due, client: world.client }, deps)).toBe('started');
    const record = await deps.schedules.store.get(id);
    const intro = world.slack.messages('C0DEV').find((m) => m.ts === record?.threadTs);
    expect(intro?.text).toBe(`:repeat: *Schedule ${id}* from wrench.config.yml (_cron \`0 9 * * 1\`_, Europe/Berlin):\n>update the dependencies`);
    const job = await deps.queues.tasks.getJob(`run-schedule-${id}-${due}`);
    expect(job?.data).toMatchObject({ instruction: 'update the dependencies', requester: { slackUserId: `schedule:${id}` } });

    await deps.schedules.deactivate(id);
    await deps.schedules.store.update(id, (s) => ({ ...s, state: 'paused' }));
    await syncConfigSchedules(deps.schedules, file, deps.logger);
    expect(await deps.schedules.queue.getJobScheduler(schedulerIdOf(id))).toBeUndefined();

    await syncConfigSchedules(deps.schedules, configFileSchema.parse({ channels: { C0DEV: { repo: 'acme/web' } } }), deps.logger);
    expect(await deps.schedules.store.get(id)).toBeNull();
    expect((await deps.schedules.store.all()).map((s) => s.id)).not.toContain(id);
  });
});

import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleWorker } from '../../../app/service/schedule-worker.js';
import type { HandlerDeps } from '../../../handlers/handler-deps.js';
import { runScheduleOccurrence } from '../../../handlers/schedule-occurrence.js';
import { type ScheduleBook, schedulerIdOf } from '../../../src/schedules/schedule-queue.js';
import type { Schedule } from '../../../src/schedules/schedule-store.js';
import { formatRunTime } from '../../../src/schedules/schedule-times.js';
import { startHandlerWorld, type HandlerWorld } from '../../helpers/handler-world.js';
import { runMessagesOf, testSchedule, withScheduleBook } from './schedule-fixtures.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const schedule = (id: string, cron: string) => testSchedule(id, { cron, when: cron, threadTs: `1700000000.00${id}00` });

/**
 * Occurrences that came due while no Wrench process was there to take them: the one job BullMQ kept waiting is taken
 * late and runs once, as the latest occurrence due by then; its message says when it was due, when it was taken and how
 * many earlier ones it skipped. No make-up runs.
 */
describe('schedule occurrences due while Wrench was not running', () => {
  let world: HandlerWorld;
  let deps: HandlerDeps & { schedules: ScheduleBook };
  const workers: Worker[] = [];

  beforeAll(async () => {
    world = await startHandlerWorld('schedule-downtime');
    deps = withScheduleBook(world);
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await deps?.schedules.close();
    await world?.stop();
  });

  const runMessages = (id: string) => runMessagesOf(world.slack, id);

  it('runs the latest missed occurrence once, late, says how many were skipped, then goes on on time', async () => {
    const book = deps.schedules;
    await book.store.save(schedule('1', '*/2 * * * * *'));
    await book.activate((await book.store.get('1')) as Schedule);
    // No web process for a while: the scheduler's one job waits in Redis while two or more due times pass after it.
    await sleep(6_500);
    workers.push(startScheduleWorker(world.redis.duplicate(), world.client, deps));

    const completed = async () =>
      (await book.queue.getJobs(['completed']))
        .filter((job) => job.repeatJobKey === schedulerIdOf('1'))
        .sort((a, b) => (a.opts.prevMillis as number) - (b.opts.prevMillis as number));
    for (let waited = 0; (await completed()).length < 3 && waited < 20_000; waited += 100) await sleep(100);
    const [late, ...after] = await completed();
    if (!late?.processedOn) throw new Error('the waiting occurrence was not taken');
    const due = late.opts.prevMillis as number;
    // Measured here from the job's own times: a due time every two seconds after it, up to when a worker took it.
    const missed = Math.floor((late.processedOn - due) / 2000);
    expect(missed).toBeGreaterThanOrEqual(2);
    const runsAs = due + missed * 2000;
    expect(late.returnvalue).toEqual({ outcome: 'started' });

    // One run, as the latest occurrence due by then; none for the one that waited nor for those in between.
    const runs = (await deps.queues.tasks.getJobs(['waiting', 'prioritized', 'delayed'])).filter((j) => j.id?.startsWith('run-schedule-1-'));
    expect(runs.map((j) => j.id)).toEqual([`run-schedule-1-${runsAs}`]);
    expect(runMessages('1')).toHaveLength(1);
    const at = (ms: number) => formatRunTime(new Date(ms), 'UTC');
    expect(runMessages('1')[0]?.text).toContain(
      `:hourglass: Run late, once: due ${at(runsAs)}, taken ${at(late.processedOn)}. ${missed} earlier occurrences (the first due ${at(due)}) were skipped: no Wrench process took them when due. Missed occurrences are not made up.`,
    );
    // Then on time again: the next occurrences come after the late one was taken, one job each, no make-up burst.
    expect(after.length).toBeGreaterThanOrEqual(2);
    for (const job of after) expect(job.opts.prevMillis as number).toBeGreaterThan(late.processedOn);
    for (const job of after) expect((job.returnvalue as { outcome: string }).outcome).toBe('skipped');
    const notes = world.slack.messages('C0DEV', '1700000000.00100').map((m) => m.text ?? '');
    expect(notes.filter((text) => text.includes('Run late'))).toEqual([]);
    await book.deactivate('1');
  });

  it('a retry of a late occurrence runs as the same one; due times whose job was lost are counted by the next one', async () => {
    const book = deps.schedules;
    await book.store.save(schedule('2', '*/2 * * * * *'));
    const due = Date.UTC(2026, 10, 29, 6, 0, 0);
    const first = await runScheduleOccurrence({ scheduleId: '2', occurrence: due, takenAt: due + 5_000, client: world.client }, deps);
    expect(first).toBe('started');
    expect(await deps.queues.tasks.getJob(`run-schedule-2-${due + 4_000}`)).toBeTruthy();
    const again = await runScheduleOccurrence({ scheduleId: '2', occurrence: due, takenAt: due + 11_000, client: world.client }, deps);
    expect(again).toBe('duplicate');
    expect(runMessages('2')).toHaveLength(1);
    expect(runMessages('2')[0]?.text).toContain('2 earlier occurrences (the first due Sun, 29 Nov 2026, 06:00 (UTC)) were skipped');
    // The next occurrence handled comes a minute later (the jobs between were lost, as in a Redis failover): taken on
    // time, it counts the 27 due times since the last one handled (06:00:04) and says so with its skip.
    expect(await runScheduleOccurrence({ scheduleId: '2', occurrence: due + 60_000, takenAt: due + 60_300, client: world.client }, deps)).toBe('skipped');
    const note = world.slack.messages('C0DEV', '1700000000.00200').find((m) => m.text?.includes('Skipped the run due Sun, 29 Nov 2026, 06:01 (UTC)'));
    expect(note?.text).toBe(
      ':fast_forward: Skipped the run due Sun, 29 Nov 2026, 06:01 (UTC): the previous run is still going.\n:hourglass: 27 earlier occurrences (the first due Sun, 29 Nov 2026, 06:00:06 (UTC)) were skipped: no Wrench process took them when due. Missed occurrences are not made up.',
    );
  });
});

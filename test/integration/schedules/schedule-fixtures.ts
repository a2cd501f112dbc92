import type { HandlerDeps } from '../../../handlers/handler-deps.js';
import { ScheduleBook } from '../../../src/schedules/schedule-queue.js';
import { ScheduleStore, type Schedule } from '../../../src/schedules/schedule-store.js';
import type { RedisClient } from '../../../src/redis/redis-connection.js';
import type { SlackFake } from '../../fakes/slack-fake.js';

/** A schedule made in Slack in channel C0DEV for acme/web, active, with its own thread: tests change what they need. */
export function testSchedule(id: string, fields: Partial<Schedule> = {}): Schedule {
  return {
    id,
    source: 'slack',
    channel: 'C0DEV',
    cron: '*/2 * * * * *',
    timezone: 'UTC',
    when: 'every 2 seconds',
    instruction: 'update the minor versions of our npm dependencies and open a PR',
    repo: { owner: 'acme', name: 'web' },
    creator: 'U0ALICE',
    language: 'en',
    state: 'active',
    threadTs: '1700000000.000100',
    failures: 0,
    createdAt: new Date().toISOString(),
    ...fields,
  };
}

/** The handlers' dependencies with a schedule book on the same Redis and prefix. */
export function withScheduleBook(world: { deps: HandlerDeps; redis: RedisClient }, prefix = world.deps.config.env.WRENCH_QUEUE_PREFIX) {
  return { ...world.deps, schedules: new ScheduleBook(world.redis, prefix, new ScheduleStore(world.redis, prefix)) };
}

/** The channel messages that start a run of schedule `id` (each occurrence's own thread). */
export const runMessagesOf = (slack: SlackFake, id: string) =>
  slack.messages('C0DEV').filter((m) => (!m.thread_ts || m.thread_ts === m.ts) && m.text?.includes(`schedule ${id}*`));

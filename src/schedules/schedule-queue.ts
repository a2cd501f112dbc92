import { Queue, type ConnectionOptions } from 'bullmq';
import type { Logger } from '../logging/logger.js';
import { isConnectionError } from '../redis/redis-connection.js';
import type { Schedule, ScheduleStore } from './schedule-store.js';

/** The small queue of schedule occurrences: each job posts its run's message and queues an ordinary run (no run itself). */
export const SCHEDULE_QUEUE = 'schedules';

export interface OccurrenceJob {
  scheduleId: string;
}

/** BullMQ's job scheduler of a schedule: one per schedule across the fleet, kept in Redis under this id. */
export const schedulerIdOf = (scheduleId: string) => `schedule-${scheduleId}`;

/**
 * A scheduler's job: when it was due, from its options or its id (`repeat:<scheduler>:<ms>`), and when a worker took
 * it (BullMQ adds the scheduler's next job right after, for the first time due after that moment).
 */
export function occurrenceOf(job: { id?: string; processedOn?: number; opts: { repeatJobKey?: string; prevMillis?: number }; data: OccurrenceJob }): {
  occurrence: number;
  takenAt?: number;
} {
  const fromId = /:(\d+)$/.exec(job.id ?? '')?.[1];
  return { occurrence: job.opts.prevMillis ?? Number(fromId ?? Date.now()), ...(job.processedOn ? { takenAt: job.processedOn } : {}) };
}

/**
 * The schedules: records in Redis (ScheduleStore) and, for each active one, a BullMQ job scheduler (cron and time zone)
 * that adds one occurrence job at a time. Every process of every host sees the same schedulers, and BullMQ hands each
 * occurrence job to one worker, so an occurrence fires once across the fleet, through restarts and failovers.
 */
export class ScheduleBook {
  readonly queue: Queue<OccurrenceJob>;

  constructor(
    connection: ConnectionOptions,
    prefix: string,
    readonly store: ScheduleStore,
    logger?: Logger,
  ) {
    this.queue = new Queue<OccurrenceJob>(SCHEDULE_QUEUE, { connection, prefix });
    this.queue.on('error', (error) => {
      if (!isConnectionError(error)) logger?.error({ err: error, queue: SCHEDULE_QUEUE }, 'queue error');
    });
  }

  /** Creates or changes the schedule's job scheduler (resume too): its next occurrence is computed from now. */
  async activate(schedule: Schedule): Promise<void> {
    await this.queue.upsertJobScheduler(
      schedulerIdOf(schedule.id),
      { pattern: schedule.cron, tz: schedule.timezone },
      {
        name: 'occurrence',
        data: { scheduleId: schedule.id },
        opts: {
          // Slack or Redis failing for a moment: tried again; the occurrence's record keeps a retry from posting twice.
          attempts: 5,
          backoff: { type: 'exponential', delay: 2_000 },
          removeOnComplete: { age: 7 * 24 * 3600, count: 1000 },
          removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
        },
      },
    );
  }

  /** Removes the job scheduler (pause, delete); the schedule's record stays unless deleted. */
  async deactivate(scheduleId: string): Promise<void> {
    await this.queue.removeJobScheduler(schedulerIdOf(scheduleId));
  }

  /** When the scheduler will next fire (ms), or undefined when it has none (paused, proposed). */
  async nextRun(scheduleId: string): Promise<number | undefined> {
    const scheduler = await this.queue.getJobScheduler(schedulerIdOf(scheduleId));
    return scheduler?.next ?? undefined;
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.store.close();
  }
}

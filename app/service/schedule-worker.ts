import type { WebClient } from '@slack/web-api';
import { Worker, type ConnectionOptions } from 'bullmq';
import type { HandlerDeps } from '../../handlers/handler-deps.js';
import { runScheduleOccurrence } from '../../handlers/schedule-occurrence.js';
import { isConnectionError } from '../../src/redis/redis-connection.js';
import { occurrenceOf, SCHEDULE_QUEUE, type OccurrenceJob, type ScheduleBook } from '../../src/schedules/schedule-queue.js';

/**
 * The web process's worker of schedule occurrences: BullMQ's job schedulers add one job per occurrence, and one worker
 * of the fleet takes it. Each posts its run's message and queues an ordinary run (handlers/schedule-occurrence.ts).
 */
export function startScheduleWorker(connection: ConnectionOptions, client: WebClient, deps: HandlerDeps & { schedules: ScheduleBook }): Worker<OccurrenceJob> {
  const worker = new Worker<OccurrenceJob>(
    SCHEDULE_QUEUE,
    async (job) => {
      const scheduleId = typeof job.data?.scheduleId === 'string' ? job.data.scheduleId : '';
      if (!scheduleId) throw new Error(`occurrence job ${job.id} names no schedule`);
      return { outcome: await runScheduleOccurrence({ scheduleId, ...occurrenceOf(job), client }, deps) };
    },
    { connection, prefix: deps.config.env.WRENCH_QUEUE_PREFIX, concurrency: 4 },
  );
  worker.on('failed', (job, error) => deps.logger.error({ err: error, jobId: job?.id, attempts: job?.attemptsMade }, 'schedule occurrence failed'));
  worker.on('error', (error) => {
    if (!isConnectionError(error)) deps.logger.error({ err: error }, 'schedule worker error');
  });
  return worker;
}

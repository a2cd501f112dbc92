import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { describeError } from '../src/errors.js';
import { TASK_QUEUE, taskJobSchema, type TaskJob } from '../src/queue/task-job.js';
import type { RunReporter } from '../src/reporting/run-result.js';
import { failureMessage, isTransient } from './failure-message.js';
import type { RunnerDeps } from './runner-deps.js';
import { runTask } from './task-runner.js';

export interface ReporterContext {
  reporter: RunReporter;
  threadUrl?: string;
  requesterName?: string;
}

export interface TaskWorkerOptions {
  connection: ConnectionOptions;
  prefix: string;
  concurrency: number;
  /** Builds where a job reports to (its Slack thread). */
  reporterFor: (job: TaskJob) => Promise<ReporterContext>;
}

export interface TaskWorker {
  worker: Worker;
  /** Stops taking jobs; after `graceMs` running jobs are cancelled (their work kept) and awaited. */
  close(graceMs?: number): Promise<void>;
}

export function startTaskWorker(options: TaskWorkerOptions, deps: RunnerDeps): TaskWorker {
  const running = new Map<string, AbortController>();

  const processor = async (job: Job) => {
    const parsed = taskJobSchema.safeParse(job.data);
    if (!parsed.success) {
      deps.logger.error({ jobId: job.id, issues: parsed.error.issues }, 'malformed task job');
      throw new UnrecoverableError(`Malformed task job: ${parsed.error.message}`);
    }
    const payload = parsed.data;
    const { reporter, threadUrl, requesterName } = await options.reporterFor(payload);
    const controller = new AbortController();
    running.set(job.id!, controller);
    let agentStarted = false;
    try {
      return await runTask(
        payload,
        { jobId: job.id!, reporter, signal: controller.signal, threadUrl, requesterName, onAgentStarted: () => (agentStarted = true) },
        deps,
      );
    } catch (error) {
      const attempts = job.opts.attempts ?? 1;
      const final = agentStarted || !isTransient(error) || job.attemptsMade + 1 >= attempts;
      deps.logger.error({ jobId: job.id, err: error, final }, 'task failed');
      if (!final) {
        await reporter.phase('queued', `retrying shortly after a temporary problem: ${describeError(error).slice(0, 200)}`).catch(() => undefined);
        throw error;
      }
      await reporter.failed(failureMessage(error)).catch((e) => deps.logger.error({ err: e }, 'could not report the failure'));
      throw new UnrecoverableError(describeError(error));
    } finally {
      running.delete(job.id!);
    }
  };

  const worker = new Worker(TASK_QUEUE, processor, {
    connection: options.connection,
    prefix: options.prefix,
    concurrency: options.concurrency,
    maxStalledCount: 1,
  });
  worker.on('error', (error) => deps.logger.error({ err: error }, 'task worker error'));

  return {
    worker,
    async close(graceMs = 25_000) {
      const closing = worker.close();
      const timer = setTimeout(() => {
        for (const controller of running.values()) controller.abort(new Error('Wrench is shutting down'));
      }, graceMs);
      await closing;
      clearTimeout(timer);
    },
  };
}

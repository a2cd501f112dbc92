import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { describeError } from '../src/errors.js';
import { isConnectionError } from '../src/redis/redis-connection.js';
import { GITHUB_QUEUE, gitHubJobSchema } from '../src/queue/github-job.js';
import { isTransient } from './failure-message.js';
import { handleGitHubEvent, type GitHubEventDeps } from './github-event-runner.js';

export interface GitHubWorker {
  worker: Worker;
  close(): Promise<void>;
}

/**
 * The GitHub queue's processor: short jobs (API calls, a Slack message, queueing a change run on the task
 * queue), so they hold no run slot. Transient failures are retried with backoff; others are final and logged.
 */
export function startGitHubWorker(options: { connection: ConnectionOptions; concurrency?: number }, deps: GitHubEventDeps): GitHubWorker {
  const processor = async (job: Job) => {
    const parsed = gitHubJobSchema.safeParse(job.data);
    if (!parsed.success) {
      deps.runner.logger.error({ jobId: job.id, issues: parsed.error.issues }, 'malformed GitHub job');
      throw new UnrecoverableError(`Malformed GitHub job: ${parsed.error.message}`);
    }
    const payload = parsed.data;
    const event = payload.event;
    const log = deps.runner.logger.child({
      jobId: job.id,
      repo: `${event.repo.owner}/${event.repo.name}`,
      thread: payload.thread.threadTs,
      pull: event.pull,
      kind: event.kind,
    });
    try {
      const outcome = await handleGitHubEvent(payload, deps);
      log.info({ outcome }, 'GitHub event handled');
      return { outcome };
    } catch (error) {
      const final = !isTransient(error) || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      log.error({ err: error, final }, 'GitHub event failed');
      if (!final) throw error;
      throw new UnrecoverableError(describeError(error));
    }
  };
  const worker = new Worker(GITHUB_QUEUE, processor, { connection: options.connection, prefix: deps.prefix, concurrency: options.concurrency ?? 4 });
  worker.on('error', (error) => {
    if (!isConnectionError(error)) deps.runner.logger.error({ err: error }, 'GitHub worker error');
  });
  return { worker, close: () => worker.close() };
}

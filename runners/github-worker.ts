import type { ConnectionOptions, Job, Worker } from 'bullmq';
import { GITHUB_QUEUE, gitHubJobSchema, type GitHubJob } from '../src/queue/github-job.js';
import { handleGitHubEvent, type GitHubEventDeps, type GitHubEventOutcome } from './github-event-runner.js';
import { startQueueWorker, type JobContext } from './queue-worker.js';

export interface GitHubWorker {
  worker: Worker<GitHubJob, { outcome: GitHubEventOutcome }>;
  close(): Promise<void>;
}

/**
 * The GitHub queue's processor: short jobs (API calls, a Slack message, queueing a change run on the task
 * queue), so they hold no run slot and are not cancelled. Transient failures are retried with backoff; others
 * are final and logged.
 */
export async function startGitHubWorker(options: { connection: ConnectionOptions; concurrency?: number }, deps: GitHubEventDeps): Promise<GitHubWorker> {
  const processor = async (_job: Job<GitHubJob>, payload: GitHubJob, run: JobContext) => {
    const outcome = await handleGitHubEvent(payload, deps);
    run.log.info({ outcome }, 'GitHub event handled');
    return { outcome };
  };
  const github = await startQueueWorker({
    queue: GITHUB_QUEUE,
    schema: gitHubJobSchema,
    process: processor,
    connection: options.connection,
    prefix: deps.prefix,
    concurrency: options.concurrency ?? 4,
    logger: deps.runner.logger,
    logFields: ({ event, thread }) => ({ repo: `${event.repo.owner}/${event.repo.name}`, thread: thread.threadTs, pull: event.pull, kind: event.kind }),
  });
  return { worker: github.worker, close: () => github.close() };
}

import type { ConnectionOptions, Job, Worker } from 'bullmq';
import { GITHUB_QUEUE, gitHubQueueJobSchema, type GitHubIssueJob, type GitHubJob, type GitHubQueueJob } from '../src/queue/github-job.js';
import { ThreadPendingError, startFromGuestPull, startFromIssue, type IssueOutcome } from './github-new-threads.js';
import { isTransient } from './failure-message.js';
import { handleGitHubEvent, type GitHubEventDeps, type GitHubEventOutcome } from './github-event-runner.js';
import { startQueueWorker, type JobContext, type JobLockOptions } from './queue-worker.js';
import { describeError } from '../src/errors.js';
import { redisKeys } from '../src/redis/redis-keys.js';
import { escapeMrkdwn, mrkdwnLink } from '../src/slack/slack-escape.js';
import { stringsFor } from '../src/slack/strings/index.js';

export interface GitHubWorker {
  worker: Worker<GitHubQueueJob, { outcome: GitHubEventOutcome | IssueOutcome | 'fork' }>;
  /** Stops taking jobs; resolves once none runs (they are short: API calls, a message, a queued run). */
  stopJobs(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The GitHub queue's processor: short jobs (API calls, a Slack message, queueing a change run on the task
 * queue), so they hold no run slot and are not cancelled. Transient failures are retried with backoff; others
 * are final and logged.
 */
export async function startGitHubWorker(
  options: { connection: ConnectionOptions; concurrency?: number; jobLock?: JobLockOptions },
  deps: GitHubEventDeps,
): Promise<GitHubWorker> {
  const processor = async (_job: Job<GitHubQueueJob>, payload: GitHubQueueJob, run: JobContext) => {
    run.onFailure(async (error, final) => {
      if (!final) return;
      if (payload.kind === 'github-issue') await reportFailedIssue(payload, error, deps);
      else if (payload.kind === 'github-event') await reportFailedEvent(payload, error, deps);
      else deps.runner.logger.error({ err: error, pull: payload.event.pull }, 'could not act on a mention on a pull request Wrench did not open');
    });
    const outcome =
      payload.kind === 'github-issue'
        ? await startFromIssue(payload, deps)
        : payload.kind === 'github-guest-pull'
          ? await startFromGuestPull(payload, deps)
          : await handleGitHubEvent(payload, deps);
    run.log.info({ outcome }, 'GitHub event handled');
    return { outcome };
  };
  const github = await startQueueWorker({
    queue: GITHUB_QUEUE,
    schema: gitHubQueueJobSchema,
    // An issue's thread waits for Slack to take its first message, as an incident card does.
    isTransient: (error) => error instanceof ThreadPendingError || isTransient(error),
    process: processor,
    connection: options.connection,
    prefix: deps.prefix,
    concurrency: options.concurrency ?? 4,
    logger: deps.runner.logger,
    workerOptions: options.jobLock,
    logFields: (job) =>
      job.kind === 'github-issue'
        ? { repo: `${job.issue.repo.owner}/${job.issue.repo.name}`, issue: job.issue.number, kind: 'issue' }
        : job.kind === 'github-guest-pull'
          ? { repo: `${job.event.repo.owner}/${job.event.repo.name}`, pull: job.event.pull, kind: 'guest-pull' }
          : { repo: `${job.event.repo.owner}/${job.event.repo.name}`, thread: job.thread.threadTs, pull: job.event.pull, kind: job.event.kind },
  });
  return { worker: github.worker, stopJobs: () => github.stopJobs(), close: () => github.close() };
}

/**
 * A GitHub event Wrench could not act on (credentials refused after a fresh installation token, GitHub down): the
 * Slack thread it belongs to is told, in its language, and its delivery may come in again (redelivered from the App's
 * settings). Exported for tests.
 */
export async function reportFailedEvent(job: GitHubJob, error: unknown, deps: GitHubEventDeps): Promise<void> {
  await deps.redis.del(redisKeys(deps.prefix).githubDelivery(job.deliveryId));
  const event = job.event;
  // The thread's session may be gone (a closed pull request) or unreadable (Redis down): the thread is told in English then.
  const session = await deps.sessions.get(job.thread.channel, job.thread.threadTs).catch(() => null);
  const by = 'author' in event && event.author ? escapeMrkdwn(event.author) : undefined;
  const pull = { number: event.pull, link: (label: string) => mrkdwnLink(event.url, label) };
  await deps.outbox.post(job.thread, {
    text: deps.runner.redact(
      `:warning: *GitHub* · ${stringsFor(session?.language).github.couldNotAct(event.kind, by, pull, escapeMrkdwn(describeError(error)))}`,
    ),
  });
}

/** An issue Wrench could not start on: said on the issue (there is no thread yet), and its delivery may come in again. */
async function reportFailedIssue(job: GitHubIssueJob, error: unknown, deps: GitHubEventDeps): Promise<void> {
  await deps.redis.del(
    redisKeys(deps.prefix).githubDelivery(job.deliveryId),
    redisKeys(deps.prefix).issueRun(job.issue.repo.owner, job.issue.repo.name, job.issue.number),
  );
  deps.runner.logger.error({ err: error, issue: job.issue.number }, 'could not start on the GitHub issue');
  await deps.runner.github?.issues
    .createComment({
      owner: job.issue.repo.owner,
      repo: job.issue.repo.name,
      issue_number: job.issue.number,
      body: deps.runner.redact(
        `@${job.issue.author} I could not start on this issue: ${describeError(error)}. Remove the label (or the assignment) and add it again to retry.`,
      ),
    })
    .catch(() => undefined);
}

import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import type { Logger } from '../logging/logger.js';
import { WrenchError } from '../errors.js';
import { isConnectionError } from '../redis/redis-connection.js';
import { TASK_QUEUE, taskJobSchema, type TaskJob } from './task-job.js';
import { GITHUB_QUEUE, gitHubQueueJobSchema, type GitHubQueueJob } from './github-job.js';
import { INCIDENT_QUEUE, TRIAGE_QUEUE, triageJobSchema, type IncidentJob, type TriageJob } from './triage-job.js';

/** Failed jobs kept in each queue (WRENCH_QUEUE_FAILED_MAX): a week of failures at a few percent of 1,000 jobs a day. */
export const DEFAULT_FAILED_MAX = 1000;

/**
 * Job defaults. attempts: 3 with exponential backoff from 5 s for transient failures (Redis, git
 * fetch, GitHub 5xx before the agent starts); the runner fails permanent ones at once with
 * UnrecoverableError. Finished jobs are kept a day so a redelivered event id still finds them; failed
 * ones a week, and only the newest `failedMax` of them, so a burst of failures does not fill Redis.
 */
export function jobOptions(failedMax = DEFAULT_FAILED_MAX): JobsOptions {
  return {
    attempts: 3,
    backoff: { type: 'exponential', delay: 5_000 },
    removeOnComplete: { age: 24 * 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600, count: failedMax },
  };
}

export interface Queues {
  tasks: Queue<TaskJob>;
  /** Triage runs and reverts (runners/triage-worker.ts). */
  triage: Queue<TriageJob>;
  /** Incident events: card, lifecycle and notes (runners/triage-worker.ts), never behind a triage run. */
  incidents: Queue<IncidentJob>;
  /** Pull request events from the GitHub webhook (runners/github-worker.ts). */
  github: Queue<GitHubQueueJob>;
  close(): Promise<void>;
}

/** BullMQ's own default length of a queue's events stream. */
export const DEFAULT_EVENTS_MAX_LEN = 10_000;

/**
 * `eventsMaxLen`: the events kept in each queue's events stream (WRENCH_QUEUE_EVENTS_MAX_LEN); `failedMax`: the failed
 * jobs kept in each queue (WRENCH_QUEUE_FAILED_MAX), written into every job these queues add.
 */
export function createQueues(
  connection: ConnectionOptions,
  prefix: string,
  logger?: Logger,
  options: { eventsMaxLen?: number; failedMax?: number } = {},
): Queues {
  const queueOptions = {
    connection,
    prefix,
    defaultJobOptions: jobOptions(options.failedMax),
    streams: { events: { maxLen: options.eventsMaxLen ?? DEFAULT_EVENTS_MAX_LEN } },
  };
  const tasks = new Queue<TaskJob>(TASK_QUEUE, queueOptions);
  const triage = new Queue<TriageJob>(TRIAGE_QUEUE, queueOptions);
  const github = new Queue<GitHubQueueJob>(GITHUB_QUEUE, queueOptions);
  const incidents = new Queue<IncidentJob>(INCIDENT_QUEUE, queueOptions);
  // Without a listener BullMQ prints every reconnection error; an outage is logged once by the connection.
  for (const queue of [tasks, triage, github, incidents]) {
    queue.on('error', (error) => {
      if (!isConnectionError(error)) logger?.error({ err: error, queue: queue.name }, 'queue error');
    });
  }
  return {
    tasks,
    triage,
    github,
    incidents,
    close: async () => {
      await Promise.all([tasks.close(), triage.close(), github.close(), incidents.close()]);
    },
  };
}

/**
 * Validates the payload before it enters Redis, so a runner never meets a malformed job. The two
 * ways this fails are told apart: `invalid_job` (Wrench built a job its own schema refuses: a bug,
 * not worth retrying) and `queue_unavailable` (Redis did not take it: worth retrying in a minute).
 */
export async function enqueueTask(queues: Queues, jobId: string, payload: TaskJob) {
  const job = validJob(taskJobSchema, payload);
  return queues.tasks.add('task', job, { jobId }).catch(queueFailure);
}

/**
 * How many task jobs will start before a job queued now: those waiting, and those delayed for a free slot. A run
 * paused on a question to its requester (its resume job is delayed until the answer or the timeout, its reminder until
 * halfway) is not ahead of anyone. Counted from at most `limit` delayed jobs.
 */
export async function tasksAhead(queues: Queues, limit = 1000): Promise<number> {
  const [waiting, delayed] = await Promise.all([queues.tasks.getJobCountByTypes('waiting', 'prioritized'), queues.tasks.getJobs(['delayed'], 0, limit - 1)]);
  const runs = delayed.filter((job) => {
    const data = job?.data as Partial<TaskJob> | undefined;
    return job && !data?.resume && !data?.remind;
  });
  return waiting + runs.length;
}

/**
 * Same for triage runs and reverts, and for incident events (on their own queue); the job id (from the PagerDuty
 * event id, the incident, the button) makes redeliveries no-ops.
 */
export async function enqueueTriage(queues: Queues, jobId: string, payload: TriageJob) {
  const job = validJob(triageJobSchema, payload);
  if (job.kind === 'incident-triggered' || job.kind === 'incident-updated' || job.kind === 'incident-annotated') {
    return queues.incidents.add(job.kind, job, { jobId }).catch(queueFailure);
  }
  return queues.triage.add(job.kind, job, { jobId }).catch(queueFailure);
}

function validJob<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } } },
  payload: unknown,
): T {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || 'job'}: ${issue.message}`)
    .join('; ');
  throw new WrenchError('invalid_job', `the job Wrench built is malformed (${issues})`);
}

function queueFailure(error: unknown): never {
  if (isConnectionError(error)) throw new WrenchError('queue_unavailable', `Redis did not take the job: ${(error as Error).message}`, { cause: error });
  throw error;
}

/**
 * The delivery id is the job id: a redelivered webhook finds its job and adds nothing, unless that job failed
 * (the webhook lets a failed delivery in again): then the failed job makes way for the new one.
 */
export async function enqueueGitHubEvent(queues: Queues, jobId: string, payload: GitHubQueueJob) {
  const job = gitHubQueueJobSchema.parse(payload);
  const earlier = await queues.github.getJob(jobId);
  if (earlier && (await earlier.isFailed())) await earlier.remove();
  return queues.github.add(job.kind === 'github-issue' ? 'issue' : job.kind === 'github-guest-pull' ? 'guest-pull' : job.event.kind, job, { jobId });
}

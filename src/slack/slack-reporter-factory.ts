import type { WebClient } from '@slack/web-api';
import type { Logger } from '../logging/logger.js';
import type { TaskJob } from '../queue/task-job.js';
import { SlackMessageFiles } from './message-input-files.js';
import type { TriageRunJob } from '../queue/triage-job.js';
import type { JobClaim } from '../queue/job-claim.js';
import { SlackNameDirectory } from './slack-name-directory.js';
import { SlackRunReporter } from './slack-run-reporter.js';
import { SlackStreamRunReporter } from './slack-stream-run-reporter.js';
import { SlackTriageReporter } from './slack-triage-reporter.js';
import type { ThreadOutbox } from './thread-outbox.js';
import type { UpdateRateLimiter } from './update-rate-limiter.js';

/** The outbox key of a run's status card: the handler posts it under this key, the reporter edits it. */
export const statusCardKey = (jobId: string) => `status:${jobId}`;

/** Lookups that only add detail (permalink, name) never hold up a run for longer than this. */
const LOOKUP_MS = 3000;

/**
 * For a job from Slack: its thread reporter (through the thread's outbox), and the thread's permalink and the
 * requester's name as lookups under way (best effort: `client` should not retry for long, and a slow Slack is not
 * waited for). A run whose
 * handler started a streamed message instead of a status card (`origin.stream`, see `streamsRuns`) reports in that
 * message (SlackStreamRunReporter); where Slack turns out not to stream, the outbox makes it an ordinary message.
 */
export function slackReporterFactory(client: WebClient, outbox: ThreadOutbox, limiter: UpdateRateLimiter | undefined, log: Logger) {
  const names = new SlackNameDirectory(client, log);
  /** `claim`: the worker's hold on the job; every message of the run is queued only while it holds. */
  return async (job: TaskJob, jobId: string, links: { runPageUrl?: string } = {}, claim?: JobClaim) => {
    if (job.origin.type !== 'slack') throw new Error('slackReporterFactory only serves jobs from Slack');
    const origin = job.origin;
    const thread = { channel: origin.channel, threadTs: origin.threadTs };
    const key = statusCardKey(jobId);
    // A streamed run resumed after its question goes on in the message it paused in (its first job's key).
    const resumedKey = origin.stream ? job.resume?.statusKey : undefined;
    // Jobs queued before the outbox carried the card's ts in the job.
    if (origin.statusTs) await outbox.remember(thread, key, origin.statusTs);
    // Asked now, waited for only by what uses them (the run page's record, the commit, the pull request): a round trip to
    // Slack is not spent before the run starts.
    const lookups = Promise.all([
      within(LOOKUP_MS, client.chat.getPermalink({ channel: origin.channel, message_ts: origin.threadTs })),
      // A run asked for on GitHub (an issue) has no Slack requester to look up.
      job.requester.slackUserId.startsWith('github:') ? undefined : within(LOOKUP_MS, client.users.info({ user: job.requester.slackUserId })),
    ]).then(([permalink, user]) => ({
      threadUrl: permalink?.permalink,
      // A run asked for on GitHub is credited to that person ("@alice on GitHub"), not to the thread's starter.
      requesterName: (job.github && job.requester.name) || user?.user?.real_name || user?.user?.name || undefined,
      // A GitHub-asked run's requester is a GitHub login, not this Slack user: no email is credited then.
      requesterEmail: job.github ? undefined : user?.user?.profile?.email || undefined,
    }));
    const team = origin.teamId ?? 'default';
    const Reporter = origin.stream ? SlackStreamRunReporter : SlackRunReporter;
    const reporter = new Reporter(
      claim ? outbox.fencedBy(claim) : outbox,
      {
        team,
        recipient: origin.teamId ? { user: job.requester.slackUserId, team: origin.teamId } : undefined,
        channel: origin.channel,
        threadTs: origin.threadTs,
        statusKey: resumedKey ?? key,
        ...(resumedKey ? { resumed: true } : {}),
        jobId,
        repository: `${job.repo.owner}/${job.repo.name}`,
        reading: { category: job.category, complexity: job.complexity, elements: job.elements, summary: job.summary },
        language: job.language,
        runPageUrl: links.runPageUrl,
        // GitHub-asked runs have no Slack message of their own to react to.
        messageTs: job.github ? undefined : origin.messageTs,
      },
      limiter,
      log.child({ channel: origin.channel, thread: origin.threadTs }),
    );
    reporter.inputFiles = new SlackMessageFiles(client, origin.channel, origin.threadTs, origin.messageTs);
    if (reporter instanceof SlackStreamRunReporter) reporter.names = names;
    return { reporter, lookups };
  };
}

/**
 * Whether a new run in this workspace reports as one streamed message: `slack.streamRuns` is on and the team is known
 * (Slack addresses a stream in a channel to a person of a team). A workspace that refuses streams still gets the same
 * shape, one message per run: the outbox makes it an ordinary message (the plan, Cancel, the reply), run after run.
 */
export function streamsRuns(streamRuns: boolean, teamId: string | undefined): boolean {
  return streamRuns && !!teamId;
}

/** For a triage run: its thread's status line (posted by the handler under `statusCardKey`, or new), through the outbox. */
export function slackTriageReporterFactory(outbox: ThreadOutbox, limiter: UpdateRateLimiter | undefined, log: Logger) {
  return async (job: TriageRunJob, jobId: string, links: { runPageUrl?: string } = {}, claim?: JobClaim): Promise<SlackTriageReporter> => {
    const thread = { channel: job.channel, threadTs: job.threadTs };
    const key = statusCardKey(jobId);
    // Jobs queued before the outbox carried the status message's ts in the job.
    if (job.statusTs) await outbox.remember(thread, key, job.statusTs);
    return new SlackTriageReporter(
      claim ? outbox.fencedBy(claim) : outbox,
      {
        ...thread,
        statusKey: key,
        repository: `${job.repo.owner}/${job.repo.name}`,
        runPageUrl: links.runPageUrl,
        messageTs: job.source.type === 'manual' ? job.source.messageTs : undefined,
        language: job.language,
      },
      limiter,
      log.child({ channel: job.channel, thread: job.threadTs }),
    );
  };
}

/** The answer when it comes within `ms`, else undefined (failures too): for lookups that only add detail. */
export function within<T>(ms: number, promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([promise.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

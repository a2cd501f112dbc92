import type { WebClient } from '@slack/web-api';
import type { Logger } from '../logging/logger.js';
import type { TaskJob } from '../queue/task-job.js';
import type { Redactor } from '../security/redact.js';
import { SlackMessageFiles } from './message-input-files.js';
import { SlackRunReporter } from './slack-run-reporter.js';
import { ThreadPoster } from './thread-poster.js';
import type { UpdateRateLimiter } from './update-rate-limiter.js';

/** For a job from Slack: its thread reporter, the thread's permalink and the requester's name (best effort). */
export function slackReporterFactory(client: WebClient, redact: Redactor, limiter: UpdateRateLimiter | undefined, log: Logger) {
  const poster = new ThreadPoster(client, redact);
  return async (job: TaskJob, links: { runPageUrl?: string } = {}) => {
    if (job.origin.type !== 'slack') throw new Error('slackReporterFactory only serves jobs from Slack');
    const origin = job.origin;
    const [permalink, user] = await Promise.all([
      client.chat.getPermalink({ channel: origin.channel, message_ts: origin.threadTs }).catch(() => undefined),
      client.users.info({ user: job.requester.slackUserId }).catch(() => undefined),
    ]);
    const reporter = new SlackRunReporter(
      poster,
      {
        team: origin.teamId ?? 'default',
        channel: origin.channel,
        threadTs: origin.threadTs,
        statusTs: origin.statusTs,
        repository: `${job.repo.owner}/${job.repo.name}`,
        reading: { category: job.category, complexity: job.complexity, elements: job.elements },
        runPageUrl: links.runPageUrl,
      },
      limiter,
      log.child({ channel: origin.channel, thread: origin.threadTs }),
    );
    reporter.inputFiles = new SlackMessageFiles(client, origin.channel, origin.threadTs, origin.messageTs);
    return {
      reporter,
      threadUrl: permalink?.permalink,
      // A run asked for on GitHub is credited to that person ("@alice on GitHub"), not to the thread's starter.
      requesterName: (job.github && job.requester.name) || user?.user?.real_name || user?.user?.name || undefined,
    };
  };
}

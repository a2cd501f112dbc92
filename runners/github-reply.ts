import type { RedisClient } from '../src/redis/redis-connection.js';
import type { TaskJob } from '../src/queue/task-job.js';
import { redisKeys } from '../src/redis/redis-keys.js';
import { outcomeLine } from '../src/reporting/render-result-text.js';
import type { RunResult } from '../src/reporting/run-result.js';
import { type PostedReply, replyOnPull } from './github-event-runner.js';
import type { RunnerDeps } from './runner-deps.js';

/**
 * A run asked for on GitHub is answered there too: on the review comment's thread, or as a pull request comment
 * (fix rounds, reviews, mentions). The Slack thread has the full report; this says what changed and links it.
 */
export async function answerOnGitHub(
  job: TaskJob,
  outcome: { result: RunResult } | { failure: string },
  deps: RunnerDeps,
  threadUrl?: string,
  ack?: GitHubAck,
): Promise<void> {
  const trigger = job.github;
  if (!trigger || !deps.github) return;
  const to = trigger.author ? `@${trigger.author} ` : '';
  const lead = trigger.round ? `Fix round ${trigger.round.number} of ${trigger.round.of} for the failing check: ` : to;
  const thread = threadUrl ? `\n\nThe whole story is in the [Slack thread](${threadUrl}).` : '';
  let text: string;
  if ('failure' in outcome) {
    text = `${lead}I could not finish this: ${outcome.failure}${thread}`;
  } else {
    const result = outcome.result;
    // What Wrench measured first; the agent's words marked as its account.
    const measured = outcomeLine(result);
    const account = result.report?.summary
      ? `The agent's account (not checked by Wrench): ${result.report.summary}`
      : (result.answer ?? result.stopReason ?? '');
    const summary = [measured, account].filter(Boolean).join('\n\n');
    const files = result.filesChanged.length
      ? `\n\nFiles changed:\n${result.filesChanged
          .slice(0, 20)
          .map((f) => `- \`${f}\``)
          .join('\n')}`
      : '';
    // Asked on an issue, or on a fork's pull request: the change is in a pull request of its own, named here.
    const elsewhere = result.pullRequest && result.pullRequest.number !== trigger.pull;
    const pushed = elsewhere
      ? `I opened pull request #${result.pullRequest?.number} (${result.pullRequest?.url}) from \`${result.branch}\`. `
      : result.pullRequest && result.branch
        ? `I pushed a commit to \`${result.branch}\`. `
        : result.filesChanged.length === 0
          ? 'I changed nothing. '
          : '';
    const stopped = result.status === 'stopped' && result.stopReason ? `\n\n${result.stopReason}` : '';
    text = `${lead}${pushed}${summary}${files}${stopped}${thread}`;
  }
  const body = deps.redact(`${text.trim()}${ack?.runPageUrl ? `\n\n[Every step of this run](${ack.runPageUrl})` : ''}`).slice(0, 60_000);
  const where = { owner: job.repo.owner, repo: job.repo.name };
  const working = ack?.working;
  // The "working on it" note becomes the answer, and the 👀 on the request makes way for how it went.
  if (working?.on === 'comment') await deps.github.issues.updateComment({ ...where, comment_id: working.id, body });
  else if (working?.on === 'review-comment') await deps.github.pulls.updateReviewComment({ ...where, comment_id: working.id, body });
  else {
    const event = { repo: { owner: job.repo.owner, name: job.repo.name }, pull: trigger.pull, kind: trigger.kind, commentId: trigger.reviewCommentId };
    await replyOnPull(deps.github, event, body);
  }
  if (ack?.reaction) {
    await removeReaction(deps, job, ack.reaction).catch(() => undefined);
    await react(deps, job, 'failure' in outcome ? 'confused' : 'rocket');
  }
}

/** What Wrench put on GitHub when it picked a run up: 👀 on the comment that asked, and a "working on it" reply. */
export interface GitHubAck {
  reaction?: number;
  working?: PostedReply;
  runPageUrl?: string;
}

/**
 * At pickup, a run asked for on GitHub says so there, as the Slack thread does: 👀 on the comment that asked (reviews
 * and failing checks have no comment to react to) and a reply linking the run page, which the answer replaces at the
 * end. Done once per run (a retried job finds it in Redis).
 */
export async function acknowledgeOnGitHub(
  job: TaskJob,
  jobId: string,
  runPageUrl: string | undefined,
  deps: RunnerDeps,
  redis: RedisClient,
  prefix: string,
): Promise<GitHubAck> {
  const trigger = job.github;
  if (!trigger || !deps.github) return {};
  const key = redisKeys(prefix).githubAck(jobId);
  const known = await redis.get(key);
  if (known) return JSON.parse(known) as GitHubAck;
  const ack: GitHubAck = { runPageUrl };
  ack.reaction = await react(deps, job, 'eyes');
  const to = trigger.author ? `@${trigger.author} ` : '';
  const lead = trigger.round ? `Fix round ${trigger.round.number} of ${trigger.round.of} for the failing check: ` : to;
  const page = runPageUrl ? `: [every step as it happens](${runPageUrl})` : "; I'll answer here when I'm done";
  const event = { repo: { owner: job.repo.owner, name: job.repo.name }, pull: trigger.pull, kind: trigger.kind, commentId: trigger.reviewCommentId };
  ack.working = await replyOnPull(deps.github, event, deps.redact(`${lead}I'm working on it${page}.`));
  await redis.set(key, JSON.stringify(ack), 'EX', 7 * 24 * 3600);
  return ack;
}

type Reaction = 'eyes' | 'rocket' | 'confused';

/** Reacts on the comment that asked for the run; undefined when there is none (a review, a failing check). */
async function react(deps: RunnerDeps, job: TaskJob, content: Reaction): Promise<number | undefined> {
  const trigger = job.github;
  if (!trigger || !deps.github) return undefined;
  const where = { owner: job.repo.owner, repo: job.repo.name, content };
  if (trigger.reviewCommentId !== undefined)
    return (await deps.github.reactions.createForPullRequestReviewComment({ ...where, comment_id: trigger.reviewCommentId })).data.id;
  if (trigger.commentId !== undefined) return (await deps.github.reactions.createForIssueComment({ ...where, comment_id: trigger.commentId })).data.id;
  return undefined;
}

async function removeReaction(deps: RunnerDeps, job: TaskJob, reactionId: number): Promise<void> {
  const trigger = job.github;
  if (!trigger || !deps.github) return;
  const where = { owner: job.repo.owner, repo: job.repo.name, reaction_id: reactionId };
  if (trigger.reviewCommentId !== undefined) await deps.github.reactions.deleteForPullRequestComment({ ...where, comment_id: trigger.reviewCommentId });
  else if (trigger.commentId !== undefined) await deps.github.reactions.deleteForIssueComment({ ...where, comment_id: trigger.commentId });
}

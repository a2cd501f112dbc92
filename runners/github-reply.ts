import type { TaskJob } from '../src/queue/task-job.js';
import { outcomeLine } from '../src/reporting/render-result-text.js';
import type { RunResult } from '../src/reporting/run-result.js';
import { replyOnPull } from './github-event-runner.js';
import type { RunnerDeps } from './runner-deps.js';

/**
 * A run asked for on GitHub is answered there too: on the review comment's thread, or as a pull request comment
 * (fix rounds, reviews, mentions). The Slack thread has the full report; this says what changed and links it.
 */
export async function answerOnGitHub(job: TaskJob, outcome: { result: RunResult } | { failure: string }, deps: RunnerDeps, threadUrl?: string): Promise<void> {
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
    const pushed =
      result.pullRequest && result.branch ? `I pushed a commit to \`${result.branch}\`. ` : result.filesChanged.length === 0 ? 'I changed nothing. ' : '';
    const stopped = result.status === 'stopped' && result.stopReason ? `\n\n${result.stopReason}` : '';
    text = `${lead}${pushed}${summary}${files}${stopped}${thread}`;
  }
  const event = { repo: { owner: job.repo.owner, name: job.repo.name }, pull: trigger.pull, kind: trigger.kind, commentId: trigger.reviewCommentId };
  await replyOnPull(deps.github, event, deps.redact(text.trim()).slice(0, 60_000));
}

import type { KnownBlock } from '@slack/types';
import { formatUsageCompact, lineCounts, renderResultMarkdown } from '../reporting/render-result-text.js';
import type { RunResult } from '../reporting/run-result.js';
import { slackifyMarkdown } from 'slackify-markdown';
import { mrkdwnLink } from './slack-escape.js';
import { splitForSlack, type SlackMessagePart } from './split-message.js';

const HEADLINES: Record<RunResult['status'], (r: RunResult) => string> = {
  pr_opened: (r) => `:white_check_mark: Opened ${r.pullRequest?.draft ? 'draft ' : ''}${pullRequestLink(r)}${lineCounts(r)}`,
  pr_updated: (r) => `:arrows_counterclockwise: Updated ${r.pullRequest?.draft ? 'draft ' : ''}${pullRequestLink(r)}${lineCounts(r)}`,
  answered: () => ':speech_balloon: No files changed, so no pull request. My answer:',
  stopped: (r) =>
    r.pullRequest
      ? `:warning: Stopped early; the work so far is in ${r.pullRequest.draft ? 'draft ' : ''}${pullRequestLink(r)}${lineCounts(r)}`
      : ':warning: Stopped early without changes.',
  failed: () => ':x: The run failed.',
  waiting: () => ':question: Paused until my question above is answered.',
};

/** "PR #3: Add a health endpoint", the title linked to the pull request. */
function pullRequestLink(r: RunResult): string {
  const pr = r.pullRequest;
  if (!pr) throw new Error(`A run that ended "${r.status}" has no pull request to link.`);
  return `PR #${pr.number}: ${mrkdwnLink(pr.url, pr.title || pr.url)}`;
}

/** The final thread reply: a headline with the PR link, then the report, split within Slack's limits. */
export function renderRunResult(result: RunResult, links: { runPageUrl?: string } = {}): SlackMessagePart[] {
  const headline = result.headline ?? HEADLINES[result.status](result);
  // slackify-markdown wraps emphasis in zero-width spaces; headings stand on their own lines and need none.
  const body = slackifyMarkdown(renderResultMarkdown({ ...result, usage: undefined })).replace(/\u200B/g, '');
  const parts = splitForSlack(`${headline}\n\n${body}`.trim());
  const usage = [formatUsageCompact(result), links.runPageUrl ? mrkdwnLink(links.runPageUrl, 'Every step of this run') : ''].filter(Boolean).join(' · ');
  if (usage) {
    const last = parts.at(-1);
    const context: KnownBlock = { type: 'context', elements: [{ type: 'mrkdwn', text: usage }] };
    if (last && last.blocks.length < 50) last.blocks.push(context);
    else parts.push({ text: usage, blocks: [context] });
  }
  return parts;
}

/** The comment above the files shared with a result. */
export function attachmentsComment(result: RunResult): string {
  const names = (result.attachments ?? []).map((file) => `\`${file.filename}\``).join(', ');
  return `:paperclip: Files from this run: ${names}`;
}

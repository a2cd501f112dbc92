import type { KnownBlock } from '@slack/types';
import { formatUsageCompact, lineCounts, renderResultMarkdown } from '../reporting/render-result-text.js';
import type { RunResult } from '../reporting/run-result.js';
import { randomUUID } from 'node:crypto';
import { markdownToMrkdwn, mrkdwnLink, truncate } from './slack-escape.js';
import { splitForSlack, type SlackMessagePart } from './split-message.js';
import { en, type ThreadStrings } from './strings/en.js';

const HEADLINES: Record<RunResult['status'], (r: RunResult, t: ThreadStrings) => string> = {
  pr_opened: (r, t) => t.opened(!!r.pullRequest?.draft, pullRequestLink(r), lineCounts(r, t.report)),
  pr_updated: (r, t) => t.updated(!!r.pullRequest?.draft, pullRequestLink(r), lineCounts(r, t.report)),
  answered: (_r, t) => t.answeredNoChange,
  stopped: (r, t) => (r.pullRequest ? t.stoppedWithPull(r.pullRequest.draft, pullRequestLink(r), lineCounts(r, t.report)) : t.stoppedNoChanges),
  failed: (_r, t) => t.runFailed,
  waiting: (_r, t) => t.pausedOnQuestion,
};

/** "PR #3: Add a health endpoint", the title linked to the pull request. */
function pullRequestLink(r: RunResult): string {
  const pr = r.pullRequest;
  if (!pr) throw new Error(`A run that ended "${r.status}" has no pull request to link.`);
  return `PR #${pr.number}: ${mrkdwnLink(pr.url, pr.title || pr.url)}`;
}

/**
 * The final thread reply: a headline with the PR link, then the report, split within Slack's limits. Wrench's own words
 * are in `strings` (the thread's language); the measured figures, paths and the agent's words are as they are.
 */
export function renderRunResult(result: RunResult, links: { runPageUrl?: string } = {}, strings: ThreadStrings = en): SlackMessagePart[] {
  const headline = result.threadHeadline ?? result.headline ?? HEADLINES[result.status](result, strings);
  const body = markdownToMrkdwn(reportMarkdown(result, strings));
  const parts = splitForSlack(`${headline}\n\n${body}`.trim());
  const usage = [formatUsageCompact(result, strings.report), links.runPageUrl ? mrkdwnLink(links.runPageUrl, strings.everyStepOfThisRun) : '']
    .filter(Boolean)
    .join(' · ');
  if (usage) {
    const last = parts.at(-1);
    const context: KnownBlock = { type: 'context', elements: [{ type: 'mrkdwn', text: usage }] };
    if (last && last.blocks.length < 50) last.blocks.push(context);
    else parts.push({ text: usage, blocks: [context] });
  }
  return parts;
}

/**
 * A result's plain, short form (mrkdwn text, no blocks), said when Slack refuses the whole reply as written: the
 * outcome's headline with the pull request linked (the link added when a headline of its own has none), that Slack
 * would not take the whole reply, and the run page.
 */
export function shortReply(result: RunResult, links: { runPageUrl?: string } = {}, strings: ThreadStrings = en): string {
  // A result that says a pull request without one (a cancelled run's, say) has no headline to give: the rest still goes.
  const needsPull = !result.pullRequest && (result.status === 'pr_opened' || result.status === 'pr_updated');
  const headline = result.threadHeadline ?? result.headline ?? (needsPull ? '' : HEADLINES[result.status](result, strings));
  const pr = result.pullRequest;
  const pull = pr && !headline.includes(pr.url) ? mrkdwnLink(pr.url, `PR #${pr.number}`) : undefined;
  const page = links.runPageUrl ? mrkdwnLink(links.runPageUrl, strings.everyStepOfThisRun) : undefined;
  return [headline && truncate(headline, 1500), pull, strings.replyRefused, page].filter(Boolean).join('\n');
}

/** A failure's plain, short form, said when Slack refuses the whole failure reply (a very long reason) as written. */
export function shortFailure(message: string, links: { runPageUrl?: string } = {}, strings: ThreadStrings = en): string {
  const page = links.runPageUrl ? mrkdwnLink(links.runPageUrl, strings.everyStepOfThisRun) : undefined;
  return [`${strings.runFailed} ${truncate(message, 1500)}`, strings.replyRefused, page].filter(Boolean).join('\n');
}

/**
 * The result's report as the thread shows it, in Slack's Markdown: every `&` and `<` escaped, so the agent's and
 * people's words cannot form mentions, `<!channel>` or `<url|label>` links, except Wrench's own mention of who
 * cancelled the run, which its stop reason opens with: that one stays a mention (a name in Slack).
 */
export function reportMarkdown(result: RunResult, strings: ThreadStrings = en): string {
  const shown = threadShown(result);
  const mention = ownMention(shown.stopReason, strings);
  // Held by a token no outside text can guess while the rest is escaped.
  const token = `wrenchmention${randomUUID().replace(/-/g, '')}`;
  if (mention && shown.stopReason) shown.stopReason = shown.stopReason.replace(mention, token);
  const escaped = renderResultMarkdown(shown, { strings: strings.report }).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return mention ? escaped.replace(token, mention) : escaped;
}

/** The mention of who cancelled the run when `stopReason` opens with Wrench's own sentence saying so (in the thread's words or English). */
function ownMention(stopReason: string | undefined, strings: ThreadStrings): string | undefined {
  const mention = stopReason && /<@[A-Z0-9]+>/.exec(stopReason)?.[0];
  if (!mention) return undefined;
  const sentences = [strings, en].flatMap(({ stop }) => [
    stop.cancelledBy(mention),
    stop.cancelledBy(mention, 'page'),
    stop.cancelledBy(mention, 'home'),
    stop.cancelledWhileWaiting(mention),
  ]);
  return sentences.some((sentence) => stopReason.startsWith(sentence)) ? mention : undefined;
}

/** The result as the thread shows it: Wrench's checks, stop and draft reasons in the thread's language where it has them. */
export function threadShown(result: RunResult): RunResult {
  return {
    ...result,
    verification: result.threadVerification ?? result.verification,
    stopReason: result.threadStopReason ?? result.stopReason,
    answer: result.threadAnswer ?? result.answer,
    headline: result.threadHeadline ?? result.headline,
    sections: result.sections?.map(({ inThread, ...section }) => (inThread ? { ...section, ...inThread } : section)),
    draftReason: result.threadDraftReason ?? result.draftReason,
    usage: undefined,
  };
}

/** The comment above the files shared with a result. */
export function attachmentsComment(result: RunResult, strings: ThreadStrings = en): string {
  const names = (result.attachments ?? []).map((file) => `\`${file.filename}\``).join(', ');
  return strings.filesFromThisRun(names);
}

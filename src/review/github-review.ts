import { RequestError } from '@octokit/request-error';
import type { GitHubClient } from '../github/create-octokit.js';
import type { Redactor } from '../security/redact.js';
import { commentableLines } from './diff-lines.js';
import type { PullRequestFile } from './pull-request-data.js';
import { findingLocation, findingsCount } from './render-review.js';
import type { ReviewFinding, ReviewReport } from './review-report.js';

export interface InlineComment {
  path: string;
  line: number;
  side: 'RIGHT';
  body: string;
}

export interface GitHubReviewPayload {
  /** Always COMMENT: Wrench never approves (nor requests changes that would block a merge), and never merges. */
  event: 'COMMENT';
  body: string;
  comments: InlineComment[];
}

/**
 * The GitHub review for a report: findings on a line the diff shows go inline on that line; the others
 * (outside every hunk, or in a file the pull request does not change) are listed in the review body.
 */
export function githubReviewPayload(
  report: ReviewReport,
  labels: readonly string[],
  files: readonly PullRequestFile[],
  threadUrl?: string,
): GitHubReviewPayload {
  const shown = new Map(files.map((file) => [file.filename, commentableLines(file.patch)]));
  const inline: ReviewFinding[] = [];
  const outside: ReviewFinding[] = [];
  for (const finding of report.findings) {
    const file = normalisePath(finding.file);
    if (shown.get(file)?.has(finding.line)) inline.push({ ...finding, file });
    else outside.push(finding);
  }
  const body = [
    `**Wrench review** (${findingsCount(report, labels)})`,
    '',
    report.summary.trim(),
    ...(outside.length
      ? [
          '',
          '**Findings outside the lines of this diff**',
          ...outside.map(
            (f) => `- **${f.severity}** \`${findingLocation(f)}\`: ${f.problem.trim()}\n  Suggested fix: ${f.suggestedFix.trim().split('\n').join('\n  ')}`,
          ),
        ]
      : []),
    '',
    `_Automated review by Wrench${threadUrl ? ` ([Slack thread](${threadUrl}))` : ''}. It comments only: it never approves or merges._`,
  ].join('\n');
  return {
    event: 'COMMENT',
    body,
    comments: inline.map((finding) => ({
      path: finding.file,
      line: finding.line,
      side: 'RIGHT',
      body: `**${finding.severity}**: ${finding.problem.trim()}\n\n**Suggested fix:** ${finding.suggestedFix.trim()}`,
    })),
  };
}

export interface PostedReview {
  url?: string;
  inline: number;
  /** GitHub refused the inline comments (422: a line outside the diff); the review was posted body-only. */
  inlineRefused?: string;
}

/**
 * Posts the review on the pull request's head commit, every text redacted. Should GitHub refuse an
 * inline comment (the diff moved on), the review is posted again with every finding in its body.
 */
export async function postGitHubReview(
  github: GitHubClient,
  target: { owner: string; repo: string; number: number; headSha: string },
  payload: GitHubReviewPayload,
  redact: Redactor,
): Promise<PostedReview> {
  const base = { owner: target.owner, repo: target.repo, pull_number: target.number, commit_id: target.headSha, event: payload.event };
  try {
    const { data } = await github.pulls.createReview({
      ...base,
      body: redact(payload.body),
      comments: payload.comments.map((comment) => ({ ...comment, body: redact(comment.body) })),
    });
    return { url: data.html_url, inline: payload.comments.length };
  } catch (error) {
    if (!(error instanceof RequestError) || error.status !== 422 || payload.comments.length === 0) throw error;
    const inlineText = payload.comments.map((c) => `- \`${c.path}:${c.line}\`: ${c.body.replace(/\n+/g, ' ')}`).join('\n');
    const { data } = await github.pulls.createReview({ ...base, body: redact(`${payload.body}\n\n**Findings on the diff**\n${inlineText}`) });
    return { url: data.html_url, inline: 0, inlineRefused: error.message.split('\n')[0] };
  }
}

function normalisePath(file: string): string {
  return file.trim().replace(/^\.\//, '').replace(/:\d+$/, '');
}

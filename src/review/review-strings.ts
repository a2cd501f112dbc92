/**
 * Wrench's own words around a review, in English: the source the thread catalogues (src/slack/strings/) translate and
 * the fallback. The severity labels (the requester's or the default scale), locations and the agent's findings are
 * filled in as they are; the review posted on GitHub stays English.
 */
export const reviewEn = {
  reviewOf: (subject: string, count?: string) => `:mag: Review of ${subject}${count ? `: ${count}` : ''}`,
  /** `repository` and `branch` come in backticks. */
  onBranch: (repository: string, branch: string) => `${repository} on ${branch}`,
  noFindingsCount: 'no findings',
  findingsCount: (total: number, counts: string) => `${total} finding${total === 1 ? '' : 's'}: ${counts}`,
  countOf: (count: number, label: string) => `${count} ${label}`,
  findings: 'Findings',
  noFindings: 'No findings: I found nothing to flag.',
  none: 'None.',
  focusAreas: 'Focus areas',
  suggestedFix: 'Suggested fix:',
  onGitHub: 'On GitHub',
  posted: (inline: number, url?: string) => `Posted as a comment-only review with ${inline} inline comment${inline === 1 ? '' : 's'}${url ? `: ${url}` : '.'}`,
  couldNotPost: (error: string) => `I could not post the review on GitHub (${error}); the findings above are complete.`,
  noReport: 'The review ended without a report.',
  /** After why a review stopped early (a limit, a cancel). */
  incomplete: 'The review is incomplete.',
  noSuchPull: (repository: string, number: number) => `:grey_question: \`${repository}\` has no pull request #${number}, so there is nothing to review.`,
  checkNumber: (number: number) =>
    `Check the number, or name the repository if the pull request is elsewhere: \`review PR #${number} in owner/repo\` (or paste its URL).`,
};

export type ReviewStrings = typeof reviewEn;

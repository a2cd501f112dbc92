/**
 * The task categories, each with its own workflow: the vocabulary every layer shares. `question` is a question about the
 * code, answered read-only in the thread with citations (docs/questions.md), not a change.
 */
export const CATEGORIES = [
  'testing',
  'data-analysis',
  'web-scraping',
  'code-review',
  'bug-fixing',
  'feature',
  'refactoring',
  'incident-triage',
  'question',
] as const;
export type Category = (typeof CATEGORIES)[number];

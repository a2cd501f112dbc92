/** The task categories, each with its own workflow: the vocabulary every layer shares. */
export const CATEGORIES = ['testing', 'data-analysis', 'web-scraping', 'code-review', 'bug-fixing', 'feature', 'refactoring', 'incident-triage'] as const;
export type Category = (typeof CATEGORIES)[number];

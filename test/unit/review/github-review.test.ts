import { describe, expect, it } from 'vitest';
import { githubReviewPayload } from '../../../src/review/github-review.js';
import type { ReviewReport } from '../../../src/review/review-report.js';

const files = [
  { filename: 'src/login.js', status: 'modified', additions: 2, deletions: 1, patch: '@@ -10,3 +10,4 @@\n a\n-b\n+B\n+C\n d' },
  { filename: 'logo.png', status: 'added', additions: 0, deletions: 0 },
];

describe('githubReviewPayload', () => {
  const report: ReviewReport = {
    summary: 'One real problem.',
    focusAreas: [],
    findings: [
      { severity: 'Critical', file: 'src/login.js', line: 11, problem: 'Password logged.', suggestedFix: 'Drop the log line.' },
      { severity: 'Minor', file: './src/login.js', line: 13, problem: 'Naming.', suggestedFix: 'Rename.' },
      { severity: 'Major', file: 'src/login.js', line: 40, problem: 'Outside the diff.', suggestedFix: 'Fix there.' },
      { severity: 'Minor', file: 'src/other.js', line: 2, problem: 'Another file.', suggestedFix: 'Fix.' },
    ],
  };

  it('puts findings on lines of a hunk inline (RIGHT side), the others in the body, and only ever comments', () => {
    const payload = githubReviewPayload(report, ['Critical', 'Major', 'Minor'], files, 'https://slack.example/t');
    expect(payload.event).toBe('COMMENT');
    expect(payload.comments).toEqual([
      { path: 'src/login.js', line: 11, side: 'RIGHT', body: '**Critical**: Password logged.\n\n**Suggested fix:** Drop the log line.' },
      { path: 'src/login.js', line: 13, side: 'RIGHT', body: '**Minor**: Naming.\n\n**Suggested fix:** Rename.' },
    ]);
    expect(payload.body).toContain('4 findings: 1 Critical, 1 Major, 2 Minor');
    expect(payload.body).toContain('**Findings outside the lines of this diff**');
    expect(payload.body).toContain('`src/login.js:40`');
    expect(payload.body).toContain('`src/other.js:2`');
    expect(payload.body).toContain('never approves or merges');
  });
});

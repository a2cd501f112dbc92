import { describe, expect, it } from 'vitest';
import { findingsCount, reviewSections } from '../../../src/review/render-review.js';
import type { ReviewReport } from '../../../src/review/review-report.js';

const labels = ['Critical', 'Major', 'Minor'];
const report = (findings: ReviewReport['findings'], focusAreas: ReviewReport['focusAreas'] = []): ReviewReport => ({
  summary: 'Summary.',
  findings,
  focusAreas,
});

describe('reviewSections', () => {
  it('groups findings by severity in label order, each with file:line, problem and fix', () => {
    const sections = reviewSections(
      report([
        { severity: 'Minor', file: 'src/b.js', line: 9, problem: 'Unused variable.', suggestedFix: 'Remove it.' },
        {
          severity: 'Critical',
          file: 'src/a.js',
          line: 3,
          problem: 'SQL injection.',
          suggestedFix: 'Use a parameterised query:\n```js\ndb.query(sql, [id])\n```',
        },
      ]),
      labels,
    );
    expect(sections.map((s) => s.title)).toEqual(['Critical (1)', 'Major (0)', 'Minor (1)']);
    expect(sections[0]!.body).toContain('- `src/a.js:3`: SQL injection.\n  Suggested fix: Use a parameterised query:\n  ```js');
    expect(sections[1]!.body).toBe('None.');
    expect(sections[2]!.body).toContain('`src/b.js:9`');
  });

  it('says plainly when there are no findings, and lists focus areas', () => {
    const sections = reviewSections(report([], [{ area: 'security', assessment: 'Inputs are validated.' }]), labels);
    expect(sections).toEqual([
      { title: 'Findings', body: 'No findings: I found nothing to flag.' },
      { title: 'Focus areas', body: '- security: Inputs are validated.' },
    ]);
  });
});

describe('findingsCount', () => {
  it('counts by label', () => {
    expect(findingsCount(report([]), labels)).toBe('no findings');
    expect(
      findingsCount(
        report([
          { severity: 'Major', file: 'a', line: 1, problem: 'p', suggestedFix: 'f' },
          { severity: 'Critical', file: 'a', line: 2, problem: 'p', suggestedFix: 'f' },
        ]),
        labels,
      ),
    ).toBe('2 findings: 1 Critical, 1 Major');
  });
});

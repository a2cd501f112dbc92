import { describe, expect, it } from 'vitest';
import { reviewReportSchema } from '../../../src/review/review-report.js';

describe('reviewReportSchema', () => {
  const schema = reviewReportSchema(['Critical', 'High', 'Medium', 'Low']);

  it('accepts findings with a severity from the label set', () => {
    const parsed = schema.parse({ summary: 'ok', findings: [{ severity: 'High', file: 'src/a.js', line: 3, problem: 'p', suggestedFix: 'f' }] });
    expect(parsed.findings[0]!.severity).toBe('High');
    expect(parsed.focusAreas).toEqual([]);
  });

  it('refuses a severity outside the set and a finding without a line', () => {
    expect(schema.safeParse({ summary: 'ok', findings: [{ severity: 'Major', file: 'a', line: 1, problem: 'p', suggestedFix: 'f' }] }).success).toBe(false);
    expect(schema.safeParse({ summary: 'ok', findings: [{ severity: 'Low', file: 'a', problem: 'p', suggestedFix: 'f' }] }).success).toBe(false);
  });
});

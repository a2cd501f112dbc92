import { describe, expect, it } from 'vitest';
import { reviewedPullNumber } from '../../../src/review/review-target.js';

describe('reviewedPullNumber', () => {
  it('reads the PR number from references, then URLs, then the thread history', () => {
    expect(reviewedPullNumber({ references: { prNumbers: [12] } })).toBe(12);
    expect(reviewedPullNumber({ references: { urls: ['https://github.com/acme/web/pull/34/files'] } })).toBe(34);
    expect(reviewedPullNumber({}, 'Run 1 (done) asked: review PR #7 please')).toBe(7);
    expect(reviewedPullNumber({})).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { pullRequestTitle } from '../../../runners/publish-change.js';

describe('pullRequestTitle', () => {
  it('is the first line of what the person wrote, without emphasis or code marks', () => {
    expect(pullRequestTitle('only when `name && name.length > 0` (context in #eng-demo, cc @Bob)')).toBe(
      'Only when name && name.length > 0 (context in #eng-demo, cc @Bob)',
    );
    expect(pullRequestTitle('*Task:* fix `parse_date` in src/date_utils.ts\nmore')).toBe('Fix parse_date in src/date_utils.ts');
    expect(pullRequestTitle('_please_ add tests for __init__ handling')).toBe('Please add tests for __init__ handling');
  });
});

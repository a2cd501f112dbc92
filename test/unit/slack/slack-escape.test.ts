import { describe, expect, it } from 'vitest';
import { truncate } from '../../../src/slack/slack-escape.js';

describe('truncate', () => {
  it('cuts between graphemes: never inside an emoji, a family, a flag or an accented letter', () => {
    expect(truncate('🔥'.repeat(100), 150)).toBe(`${'🔥'.repeat(74)}…`);
    expect(truncate('ab👩‍👩‍👧cd', 8)).toBe('ab…');
    expect(truncate('🇺🇦🇺🇦', 6)).toBe('🇺🇦…');
    expect(truncate('e\u0301e\u0301e\u0301', 4)).toBe('e\u0301…');
  });

  it('leaves short text alone and makes any text well-formed', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('half \ud83d', 10)).toBe('half \ufffd');
    expect(truncate('\ud83d'.repeat(10), 5).isWellFormed()).toBe(true);
  });
});

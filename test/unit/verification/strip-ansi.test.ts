import { describe, expect, it } from 'vitest';
import { stripAnsi } from '../../../src/verification/strip-ansi.js';

describe('stripAnsi', () => {
  it('removes colours, character-set selection and hyperlinks', () => {
    expect(stripAnsi('\u001b[1m\u001b[31mFAILED\u001b(B\u001b[m ok')).toBe('FAILED ok');
    expect(stripAnsi('\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007')).toBe('link');
  });

  it('keeps only the last state of a line rewritten with carriage returns', () => {
    expect(stripAnsi('progress 10%\rprogress 100%\r\ndone\r\n')).toBe('progress 100%\ndone\n');
  });
});

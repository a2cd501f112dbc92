import { describe, expect, it } from 'vitest';
import { commentableLines } from '../../../src/review/diff-lines.js';

describe('commentableLines', () => {
  it('lists the added and context lines of the new side, hunk by hunk', () => {
    const patch = ['@@ -1,3 +1,4 @@', ' a', '-b', '+B', '+B2', ' c', '@@ -10,2 +11,2 @@', ' x', '-y', '+Y', '\\ No newline at end of file'].join('\n');
    expect([...commentableLines(patch)]).toEqual([1, 2, 3, 4, 11, 12]);
  });

  it('is empty for a binary file without a patch', () => {
    expect(commentableLines(undefined).size).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { OutputCapture } from '../../../src/sandbox/output-capture.js';

describe('OutputCapture', () => {
  it('keeps short output whole', () => {
    const capture = new OutputCapture(20);
    capture.push('hello ');
    capture.push('world');
    expect(capture.result()).toEqual({ output: 'hello world', elidedChars: 0 });
  });

  it('keeps exactly the limit without eliding', () => {
    const capture = new OutputCapture(10);
    capture.push('0123456789');
    expect(capture.result()).toEqual({ output: '0123456789', elidedChars: 0 });
  });

  it('keeps the head and the rolling tail and counts what is elided', () => {
    const capture = new OutputCapture(10);
    for (const chunk of ['abc', 'defgh', 'ijklmnop', 'qrstuvwxyz']) capture.push(chunk);
    expect(capture.result()).toEqual({ output: 'abcde\n\n[... 16 characters elided ...]\n\nvwxyz', elidedChars: 16 });
  });

  it('handles a single chunk larger than the tail', () => {
    const capture = new OutputCapture(4);
    capture.push('x'.repeat(1000) + 'END');
    expect(capture.result()).toEqual({ output: 'xx\n\n[... 999 characters elided ...]\n\nND', elidedChars: 999 });
  });

  it('keeps only the head count when the limit is one character', () => {
    const capture = new OutputCapture(1);
    capture.push('abc');
    expect(capture.result().elidedChars).toBe(2);
  });
});

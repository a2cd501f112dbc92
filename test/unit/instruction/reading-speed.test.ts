import { describe, expect, it } from 'vitest';
import { readInstruction } from '../../../src/instruction/read-instruction.js';
import { CASES } from './cases.js';

describe('reading speed', () => {
  it('reads 1000 instructions well within a second (a sanity bound, not a benchmark)', () => {
    const texts = CASES.map((c) => c.text);
    const started = performance.now();
    for (let i = 0; i < 1000; i += 1) readInstruction(texts[i % texts.length]!);
    // Measured figures come from bench/classify.ts; this only catches an accidental blow-up.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('stays linear on long, messy input', () => {
    const noisy = `<@U0BOT> ${'fix the thing in src/a.ts:1 `fn()` #12 https://x.example.com/a?b=c 1 req/s Critical/Major/Minor. '.repeat(400)}`;
    const started = performance.now();
    readInstruction(noisy);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

import { describe, expect, it } from 'vitest';
import { attemptDigest } from '../../../src/run-log/attempt-digest.js';
import type { RunEntry } from '../../../src/run-log/run-log-types.js';

const at = 1;

describe('attemptDigest', () => {
  it("lists the attempt's phases, commands, edits and checks, without the model's words", () => {
    const entries: RunEntry[] = [
      { kind: 'phase', at, phase: 'preparing', detail: 'Cloning acme/web' },
      { kind: 'text', at, step: 1, text: 'I will now fix everything' },
      { kind: 'turn', at, step: 1, latencyMs: 5, usage: { inputTokens: 1, outputTokens: 1, cacheWriteTokens: 0, cacheReadTokens: 0 } },
      { kind: 'edit', at, step: 1, path: 'src/a.js', diff: '+a' },
      { kind: 'tool', at, step: 2, name: 'bash', title: 'Running `npm test`', input: 'npm test', output: 'fail', isError: false, exitCode: 1 },
      { kind: 'tool', at, step: 3, name: 'bash', title: 'Running `ls`', input: 'ls', output: '', isError: false, exitCode: 0 },
      { kind: 'verification', at, text: 'ok', passed: true },
      { kind: 'phase', at, phase: 'publishing', detail: 'Pushing `wrench/a-1`' },
      { kind: 'note', at, text: 'a note', level: 'info' },
    ];
    expect(attemptDigest(entries)).toBe(
      [
        '- preparing: Cloning acme/web',
        '- edited src/a.js',
        '- Running `npm test` (exit 1)',
        '- Running `ls`',
        '- checks after the change: nothing that passed before fails',
        '- publishing: Pushing `wrench/a-1`',
      ].join('\n'),
    );
  });

  it('keeps the latest steps within its size and says how many it left out', () => {
    const entries: RunEntry[] = Array.from({ length: 100 }, (_, i) => ({ kind: 'edit', at, step: i, path: `src/file-${i}.js`, diff: '' }));
    const digest = attemptDigest(entries, 300)!;
    expect(digest.length).toBeLessThanOrEqual(300 + 40);
    expect(digest).toMatch(/^- \(\d+ earlier steps left out\)\n/);
    expect(digest.endsWith('- edited src/file-99.js')).toBe(true);
  });

  it('is undefined for a record with no step', () => {
    expect(attemptDigest([{ kind: 'text', at, step: 1, text: 'hello' }])).toBeUndefined();
  });
});

import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/create-sandbox.js';

describe('read-only runs (review, triage)', () => {
  it('can read the workspace but not write to it', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'wrench-ro-'));
    writeFileSync(path.join(root, 'a.txt'), 'hello');
    const sandbox = createSandbox({ mode: 'bwrap', root, readOnly: true });
    const read = await sandbox.exec('cat a.txt', { cwd: root, timeoutMs: 10_000 });
    expect(read.output).toContain('hello');
    const write = await sandbox.exec('echo changed > a.txt; touch b.txt', { cwd: root, timeoutMs: 10_000 });
    expect(write.exitCode).not.toBe(0);
    expect(write.output).toMatch(/Read-only file system/);
    expect(existsSync(path.join(root, 'b.txt'))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { WrenchError } from '../../../src/errors.js';
import type { ExecOptions, ExecResult, Sandbox } from '../../../src/sandbox/sandbox.js';
import { runSetup, runVerification } from '../../../src/verification/run-verification.js';

type Script = (command: string, options: ExecOptions) => Partial<ExecResult>;

function stubSandbox(script: Script): Sandbox & { calls: Array<{ command: string; options: ExecOptions }> } {
  const calls: Array<{ command: string; options: ExecOptions }> = [];
  return {
    mode: 'none',
    root: '/work/repo',
    calls,
    async exec(command, options) {
      calls.push({ command, options });
      return { output: '', exitCode: 0, timedOut: false, aborted: false, elidedChars: 0, durationMs: 5, ...script(command, options) };
    },
  };
}

const commands = { setup: 'npm ci', test: 'npm test', lint: 'npm run lint', sources: [] };
const TAP_FAILURE = '\u001b[31mnot ok 1 - formats 1024 as 1 KiB\u001b[39m\n# pass 3\n# fail 1\n';

describe('runVerification', () => {
  it('runs test then lint offline with the default timeout, and not setup', async () => {
    const sandbox = stubSandbox((command) => (command === 'npm test' ? { output: TAP_FAILURE, exitCode: 1 } : { output: 'clean' }));
    const run = await runVerification({ sandbox, dir: '/work/repo', commands });
    expect(sandbox.calls.map((call) => call.command)).toEqual(['npm test', 'npm run lint']);
    expect(sandbox.calls[0]!.options).toMatchObject({ cwd: '/work/repo', timeoutMs: 600_000, network: false });
    expect(run.test).toEqual({
      command: 'npm test',
      exitCode: 1,
      timedOut: false,
      passed: false,
      summary: { runner: 'tap', passed: 3, failed: 1, skipped: 0, failedTests: ['formats 1024 as 1 KiB'] },
      outputTail: 'not ok 1 - formats 1024 as 1 KiB\n# pass 3\n# fail 1',
      durationMs: 5,
    });
    expect(run.lint).toMatchObject({ command: 'npm run lint', passed: true, summary: { failedTests: [] }, outputTail: 'clean' });
  });

  it('runs only the commands there are', async () => {
    const sandbox = stubSandbox(() => ({}));
    expect(await runVerification({ sandbox, dir: '/work/repo', commands: { lint: 'make lint', sources: [] } })).toEqual({
      lint: expect.objectContaining({ command: 'make lint', passed: true }),
    });
    expect(await runVerification({ sandbox, dir: '/work/repo', commands: { sources: [] } })).toEqual({});
  });

  it('marks a timed-out command as not passed and keeps only the tail of the output', async () => {
    const long = `${'x'.repeat(5000)}\n${'line of output\n'.repeat(300)}`;
    const sandbox = stubSandbox(() => ({ output: long, exitCode: null, timedOut: true, durationMs: 1000 }));
    const run = await runVerification({ sandbox, dir: '/work/repo', commands: { test: 'npm test', sources: [] }, timeoutMs: 1000 });
    expect(sandbox.calls[0]!.options.timeoutMs).toBe(1000);
    expect(run.test).toMatchObject({ passed: false, timedOut: true, exitCode: null });
    expect(run.test!.outputTail.length).toBeLessThanOrEqual(3000);
    expect(run.test!.outputTail.startsWith('line of output')).toBe(true);
  });

  it('throws verification_cancelled when cancelled', async () => {
    const controller = new AbortController();
    const sandbox = stubSandbox(() => (controller.abort(), { aborted: true, exitCode: null }));
    const run = runVerification({ sandbox, dir: '/work/repo', commands, signal: controller.signal });
    await expect(run).rejects.toBeInstanceOf(WrenchError);
    await expect(run).rejects.toMatchObject({ code: 'verification_cancelled' });
    expect(sandbox.calls).toHaveLength(1);
  });
});

describe('runSetup', () => {
  it('runs the setup command with network access', async () => {
    const sandbox = stubSandbox(() => ({ output: 'added 12 packages' }));
    const outcome = await runSetup({ sandbox, dir: '/work/repo', commands });
    expect(sandbox.calls).toEqual([{ command: 'npm ci', options: expect.objectContaining({ network: true, timeoutMs: 600_000 }) }]);
    expect(outcome).toMatchObject({ command: 'npm ci', passed: true, outputTail: 'added 12 packages' });
  });

  it('does nothing without a setup command', async () => {
    const sandbox = stubSandbox(() => ({}));
    expect(await runSetup({ sandbox, dir: '/work/repo', commands: { test: 'npm test', sources: [] } })).toBeUndefined();
    expect(sandbox.calls).toEqual([]);
  });
});

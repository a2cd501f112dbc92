import { describe, expect, it } from 'vitest';
import { bashToolDefinition, createBashTool } from '../../../src/agent/tools/bash-tool.js';
import type { ExecOptions, ExecResult, Sandbox } from '../../../src/sandbox/sandbox.js';

/** A sandbox that records calls and answers from a script. */
function fakeSandbox(
  answer: (command: string, options: ExecOptions) => Partial<ExecResult> | Error,
): Sandbox & { calls: { command: string; options: ExecOptions }[] } {
  const calls: { command: string; options: ExecOptions }[] = [];
  return {
    mode: 'none',
    root: '/ws',
    calls,
    async exec(command, options) {
      calls.push({ command, options });
      const result = answer(command, options);
      if (result instanceof Error) throw result;
      return { output: '', exitCode: 0, timedOut: false, aborted: false, elidedChars: 0, durationMs: 1, ...result };
    },
  };
}

describe('bash tool', () => {
  it('is defined as bash_20250124 named bash', () => {
    expect(bashToolDefinition()).toEqual({ type: 'bash_20250124', name: 'bash' });
  });

  it('runs the command through the sandbox with the defaults', async () => {
    const sandbox = fakeSandbox(() => ({ output: 'hello\n' }));
    const tool = createBashTool({ sandbox, root: '/ws' });
    expect(await tool.execute({ command: 'echo hello' })).toMatchObject({ content: 'hello', isError: false });
    const [call] = sandbox.calls;
    expect(call!.command).toContain('echo hello');
    expect(call!.options).toMatchObject({ cwd: '/ws', timeoutMs: 120_000, maxOutputChars: 10_000, network: false });
  });

  it('reports a non-zero exit code, a timeout and a cancellation', async () => {
    const answers: Partial<ExecResult>[] = [
      { output: 'bash: line 1: nonexistentcommand: command not found\n', exitCode: 127 },
      { output: 'partial\n', exitCode: null, timedOut: true },
      { output: '', exitCode: null, aborted: true },
      { output: '', exitCode: 0 },
    ];
    const tool = createBashTool({ sandbox: fakeSandbox(() => answers.shift()!), root: '/ws', defaultTimeoutMs: 30_000 });
    expect(await tool.execute({ command: 'nonexistentcommand' })).toMatchObject({
      content: 'bash: line 1: nonexistentcommand: command not found\n[exit code 127]',
      isError: true,
      exitCode: 127,
    });
    expect(await tool.execute({ command: 'sleep 100' })).toMatchObject({
      content: 'partial\nError: Command timed out after 30 seconds and was killed.',
      isError: true,
    });
    expect(await tool.execute({ command: 'sleep 100' })).toMatchObject({ content: '(no output)\nError: Command was cancelled and killed.', isError: true });
    expect(await tool.execute({ command: 'true' })).toMatchObject({ content: '(no output)', isError: false });
  });

  it('restarts, and needs a command otherwise', async () => {
    const tool = createBashTool({ sandbox: fakeSandbox(() => ({})), root: '/ws' });
    expect(await tool.execute({ restart: true })).toMatchObject({ content: 'tool has been restarted.', isError: false });
    expect(await tool.execute({})).toMatchObject({ content: 'Error: no command provided.', isError: true });
    expect(await tool.execute({ command: '   ' })).toMatchObject({ isError: true });
  });

  it('turns a sandbox failure into an error result', async () => {
    const tool = createBashTool({ sandbox: fakeSandbox(() => new Error('Could not start bwrap: spawn bwrap ENOENT')), root: '/ws' });
    expect(await tool.execute({ command: 'ls' })).toMatchObject({ content: 'Error: Could not start bwrap: spawn bwrap ENOENT', isError: true });
  });

  it('passes the network setting, the environment and an abort signal', async () => {
    const sandbox = fakeSandbox(() => ({}));
    const controller = new AbortController();
    const tool = createBashTool({ sandbox, root: '/ws', network: true, env: { NODE_ENV: 'test' }, signal: controller.signal });
    await tool.execute({ command: 'ls' }, { signal: new AbortController().signal });
    const { options } = sandbox.calls[0]!;
    expect(options).toMatchObject({ network: true, env: { NODE_ENV: 'test' } });
    controller.abort();
    expect(options.signal?.aborted).toBe(true);
  });
});

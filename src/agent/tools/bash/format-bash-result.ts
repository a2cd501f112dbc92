import type { ExecResult } from '../../../sandbox/sandbox.js';
import type { ToolResult } from '../tool-result.js';

/** What the model sees of a command: its output, then the exit code, a timeout or a cancellation when there was one. */
export function formatBashResult(result: ExecResult, output: string, timeoutMs: number): ToolResult {
  const lines = [output === '' ? '(no output)' : output.replace(/\n$/, '')];
  if (result.timedOut) lines.push(`Error: Command timed out after ${seconds(timeoutMs)} and was killed.`);
  else if (result.aborted) lines.push('Error: Command was cancelled and killed.');
  else if (result.exitCode === null) lines.push('[killed by a signal]');
  else if (result.exitCode !== 0) lines.push(`[exit code ${result.exitCode}]`);
  const isError = result.timedOut || result.aborted || result.exitCode !== 0;
  return { content: lines.join('\n'), isError };
}

function seconds(ms: number): string {
  const value = ms / 1000;
  const text = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${text} ${value === 1 ? 'second' : 'seconds'}`;
}

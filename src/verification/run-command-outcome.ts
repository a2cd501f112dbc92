import { WrenchError } from '../errors.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { stripAnsi } from './strip-ansi.js';
import { goJsonText, readMachineReport, withMachineReport } from './machine-report.js';
import { parseTestOutput } from './parse-test-output.js';
import type { CommandOutcome, TestSummary } from './verification-types.js';

export const DEFAULT_VERIFICATION_TIMEOUT_MS = 10 * 60 * 1000;
/** Enough to keep every failing name of a large suite; the sandbox keeps head and tail beyond it. */
const MAX_OUTPUT_CHARS = 400_000;

export interface RunCommandOptions {
  sandbox: Sandbox;
  dir: string;
  command: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  network?: boolean;
  /** Whether to read test counts and names from the output. */
  parse?: boolean;
  /** Extra environment and a writable host directory (the setup step's shared download caches). */
  env?: Record<string, string>;
  writableDir?: string;
  /** Host directories the command reads (provisioned runtimes). */
  readOnlyDirs?: readonly string[];
  /** Shell run before the command, not part of what is reported (the setup step's virtualenv). */
  prelude?: string;
}

/** Runs one verification command in the sandbox; cancelling throws `verification_cancelled`. */
export async function runCommandOutcome(options: RunCommandOptions): Promise<CommandOutcome> {
  throwIfCancelled(options.signal);
  const exec = async (command: string) => {
    const result = await options.sandbox.exec(command, {
      cwd: options.dir,
      timeoutMs: options.timeoutMs ?? DEFAULT_VERIFICATION_TIMEOUT_MS,
      signal: options.signal,
      network: options.network ?? false,
      maxOutputChars: MAX_OUTPUT_CHARS,
      env: options.env,
      writableDir: options.writableDir,
      readOnlyDirs: options.readOnlyDirs,
    });
    if (result.aborted) throwIfCancelled(options.signal, true);
    return result;
  };
  const report = options.parse === false ? undefined : await withMachineReport(options.command, options.dir);
  let result = await exec(`${options.prelude ?? ''}${report?.command ?? options.command}`);
  let summary: TestSummary | undefined = report && (await readMachineReport(report, options.dir, result.output));
  if (report?.format === 'go-json') result = { ...result, output: goJsonText(result.output) };
  // No report from a failed run: the added reporter may be what failed (an old runner), so the command runs as given.
  if (report && !summary && result.exitCode !== 0 && !result.timedOut) result = await exec(options.command);
  summary ??= options.parse === false ? { failedTests: [] } : parseTestOutput(result.output, result.exitCode);
  return {
    command: options.command,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    passed: result.exitCode === 0 && !result.timedOut,
    summary,
    outputTail: outputTail(result.output),
    durationMs: result.durationMs,
    ...(result.egressRefused?.length ? { egressRefused: result.egressRefused } : {}),
  };
}

function throwIfCancelled(signal: AbortSignal | undefined, aborted = false): void {
  if (aborted || signal?.aborted) throw new WrenchError('verification_cancelled', 'Verification was cancelled before it finished.');
}

const OUTPUT_TAIL_CHARS = 3000;

/** The end of a command's output as a person reads it: no colour codes, starting at a line boundary. */
function outputTail(output: string, maxChars = OUTPUT_TAIL_CHARS): string {
  const plain = stripAnsi(output).trimEnd();
  if (plain.length <= maxChars) return plain;
  const tail = plain.slice(-maxChars);
  const firstBreak = tail.indexOf('\n');
  return firstBreak >= 0 && firstBreak < maxChars / 4 ? tail.slice(firstBreak + 1) : tail;
}

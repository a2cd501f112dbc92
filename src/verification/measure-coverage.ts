import type { Sandbox } from '../sandbox/sandbox.js';
import type { CommandRunEnv } from './command-env.js';
import { parseCoverage } from './parse-coverage.js';
import type { CoverageMeasurement } from './render-coverage.js';
import { DEFAULT_VERIFICATION_TIMEOUT_MS } from './run-command-outcome.js';

/** Runs the coverage command in the sandbox (offline) and reads its total. */
export async function measureCoverage(options: {
  sandbox: Sandbox;
  dir: string;
  command: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The runtimes and CI variables the checks run with. */
  environment?: CommandRunEnv;
}): Promise<CoverageMeasurement> {
  const result = await options.sandbox.exec(options.command, {
    cwd: options.dir,
    timeoutMs: options.timeoutMs ?? DEFAULT_VERIFICATION_TIMEOUT_MS,
    signal: options.signal,
    network: false,
    maxOutputChars: 400_000,
    env: options.environment?.env,
    readOnlyDirs: options.environment?.readOnlyDirs,
  });
  return { command: options.command, total: parseCoverage(result.output), passed: result.exitCode === 0 && !result.timedOut };
}

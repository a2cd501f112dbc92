import type { Sandbox } from '../sandbox/sandbox.js';
import { commandRunEnv, pythonVenvPrelude, usesPythonVenv } from './command-env.js';
import { runCommandOutcome } from './run-command-outcome.js';
import type { CommandOutcome, VerificationCommands, VerificationRun } from './verification-types.js';

/** A repository's package-manager download caches, bound writable into its setup step (made by warm-cache). */
export interface DownloadCache {
  /** Bound writable into the setup step's sandbox. */
  dir: string;
  /** The variables that point each package manager at its folder. */
  env: Record<string, string>;
}

export interface RunVerificationOptions {
  sandbox: Sandbox;
  /** The checkout to verify, inside the sandbox's root. */
  dir: string;
  commands: VerificationCommands;
  /** Per command. Default 10 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Default false: tests and lint run offline. */
  network?: boolean;
  /** The package managers' download caches shared between jobs: given to the setup step only. */
  downloadCache?: DownloadCache;
}

/** Runs the repository's test and lint commands (not setup) in the sandbox, one after the other. */
export async function runVerification(options: RunVerificationOptions): Promise<VerificationRun> {
  const run: VerificationRun = {};
  const { commands, downloadCache: _setupOnly, ...rest } = options;
  const environment = commandRunEnv(commands, options.dir);
  if (commands.test) run.test = await runCommandOutcome({ ...rest, ...environment, command: commands.test });
  if (commands.lint) run.lint = await runCommandOutcome({ ...rest, ...environment, command: commands.lint, parse: false });
  return run;
}

/** Runs the setup command (installing dependencies), with network unless `network: false`; undefined when there is none. */
export async function runSetup(options: RunVerificationOptions): Promise<CommandOutcome | undefined> {
  const { commands, downloadCache, ...rest } = options;
  if (!commands.setup) return undefined;
  const environment = commandRunEnv(commands, options.dir);
  return runCommandOutcome({
    ...rest,
    network: options.network ?? true,
    command: commands.setup,
    parse: false,
    env: { ...environment.env, ...downloadCache?.env },
    readOnlyDirs: environment.readOnlyDirs,
    writableDir: downloadCache?.dir,
    prelude: usesPythonVenv(commands) ? pythonVenvPrelude(options.dir) : undefined,
  });
}

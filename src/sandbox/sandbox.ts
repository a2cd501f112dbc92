import type { EgressScope } from './egress/egress-policy.js';
import type { EgressRefusal } from './egress/egress-proxy.js';

/**
 * The one seam through which every command of the agent and of verification runs.
 * Implementations: `process-sandbox.ts` (mode none: a plain child process) and
 * `bwrap-sandbox.ts` (bubblewrap).
 */
export interface ExecOptions {
  /** Working directory; must be inside the workspace. */
  cwd: string;
  /** Kill the whole process group after this many milliseconds. */
  timeoutMs: number;
  /** Aborting kills the command's whole process group. */
  signal?: AbortSignal;
  /** Extra environment on top of the sandbox's scrubbed allowlist. */
  env?: Record<string, string>;
  /** Whether the command may reach the network (bwrap: through the egress proxy only; none has the host's network either way and gives one the setup CA and the operator's proxy). */
  network?: boolean;
  /** With network, what the egress proxy lets through: the allow list (default) or any public host. */
  egress?: EgressScope;
  /** Keep at most this many characters of merged output (head and tail kept). Default 10 000. */
  maxOutputChars?: number;
  /** A host directory the command may write besides the workspace (the setup step's shared download caches). */
  writableDir?: string;
  /** Host directories the command may read (bwrap: bound read-only even where the host is hidden), e.g. provisioned runtimes. */
  readOnlyDirs?: readonly string[];
}

export interface ExecResult {
  /** stdout and stderr merged in order, cut to head and tail when longer than maxOutputChars. */
  output: string;
  /** null when the process was killed by a signal. */
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  /** Characters removed from the middle of the output. */
  elidedChars: number;
  durationMs: number;
  /** Destinations the egress proxy refused during the command (bwrap with network). */
  egressRefused?: EgressRefusal[];
}

export interface Sandbox {
  readonly mode: 'bwrap' | 'none';
  /** The workspace root: the only writable directory. */
  readonly root: string;
  exec(command: string, options: ExecOptions): Promise<ExecResult>;
}

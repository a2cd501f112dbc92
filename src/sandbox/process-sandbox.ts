import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { directProxyEnv } from './egress/direct-proxy-env.js';
import type { UpstreamProxy } from './egress/upstream-proxy.js';
import { resolveCwd } from './resolve-cwd.js';
import { runCaptured } from './run-captured.js';
import type { ExecOptions, ExecResult, Sandbox } from './sandbox.js';
import { buildSandboxEnv, caFileEnv } from './sandbox-env.js';
import { DEFAULT_LIMITS } from './sandbox-limits.js';
import { mergedShellArgs } from './shell-command.js';

export interface ProcessSandboxOptions {
  /** The workspace: every command's working directory must be inside it. */
  root: string;
  /** Values never passed to a command's environment. */
  secrets?: readonly string[];
  /** HOME of the commands, kept between them. Default: a fresh private directory per command, as under bwrap. */
  home?: string;
  /** A CA bundle (PEM) commands with network trust (`sandbox.setupCaFile`). */
  setupCaFile?: string;
  /** The operator's proxy (`sandbox.egress.upstreamProxy`, else Wrench's `HTTPS_PROXY`): commands with network are pointed at it. */
  upstream?: UpstreamProxy;
}

/**
 * Mode `none`: each command is a plain `bash -c` child in its own process group, with a scrubbed
 * environment but no isolation of the file system or network. A command with network gets the setup CA and the
 * operator's proxy, as a bwrap one does through its egress proxy.
 */
export function createProcessSandbox(options: ProcessSandboxOptions): Sandbox {
  return {
    mode: 'none',
    root: options.root,
    async exec(command: string, exec: ExecOptions): Promise<ExecResult> {
      const cwd = await resolveCwd(options.root, exec.cwd);
      return withPrivateHome(options.home, (home) =>
        runCaptured({
          file: 'bash',
          args: mergedShellArgs(command),
          cwd,
          env: commandEnv(options, exec, home),
          timeoutMs: exec.timeoutMs,
          signal: exec.signal,
          maxOutputChars: exec.maxOutputChars,
          maxProcesses: DEFAULT_LIMITS.maxProcesses,
        }),
      );
    },
  };
}

/**
 * The scrubbed environment, with the setup CA for a command with network and then the proxy settings: after the
 * scrubbing, as the proxy's URL holds its password, a secret that is refused in any other value.
 */
function commandEnv(options: ProcessSandboxOptions, exec: ExecOptions, home: string): Record<string, string> {
  const network = exec.network ?? false;
  const env = buildSandboxEnv(network && options.setupCaFile ? { ...caFileEnv(options.setupCaFile), ...exec.env } : exec.env, {
    home,
    secrets: options.secrets,
  });
  return network && options.upstream ? { ...env, ...directProxyEnv(options.upstream) } : env;
}

/** Run `work` with a fresh private HOME directory, removed afterwards (the given one is kept as is). */
async function withPrivateHome<T>(given: string | undefined, work: (home: string) => Promise<T>): Promise<T> {
  if (given) return work(given);
  const home = await mkdtemp(path.join(tmpdir(), 'wrench-home-'));
  try {
    return await work(home);
  } finally {
    await rm(home, { recursive: true, force: true }).catch(() => undefined);
  }
}

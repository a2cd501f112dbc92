import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { bwrapArgs, SANDBOX_TMP_HOME } from './bwrap-args.js';
import { defaultHiddenPaths, resolveHiddenPaths } from './hidden-paths.js';
import { resolveCwd } from './resolve-cwd.js';
import { runCaptured } from './run-captured.js';
import type { ExecOptions, ExecResult, Sandbox } from './sandbox.js';
import { buildSandboxEnv } from './sandbox-env.js';
import { ulimitPrelude, withDefaults, type SandboxLimits } from './sandbox-limits.js';
import { mergedShellArgs } from './shell-command.js';
import { isInside } from './workspace-path.js';

export interface BwrapSandboxOptions {
  /** The workspace: the only writable directory. */
  root: string;
  /** Values never passed to a command's environment. */
  secrets?: readonly string[];
  /** More places to hide behind an empty tmpfs (e.g. the mirror cache), on top of the defaults. */
  hiddenPaths?: readonly string[];
  limits?: SandboxLimits;
  /** A host directory bound writable as HOME (kept between commands). Default: a fresh one in the private /tmp. */
  home?: string;
  /** Mount the workspace read-only as well (review and triage runs). */
  readOnly?: boolean;
  /** The bubblewrap executable. Default: `bwrap` on PATH. */
  bwrapPath?: string;
}

/**
 * Mode `bwrap`: each command runs under bubblewrap with the host read-only, the workspace writable,
 * a private /tmp, its own PID, IPC and UTS namespaces (and network unless allowed), no capabilities,
 * a scrubbed environment and resource limits.
 */
export function createBwrapSandbox(options: BwrapSandboxOptions): Sandbox {
  const limits = withDefaults(options.limits);
  let prepared: Promise<{ root: string; hidden: string[]; reexposed: string[]; ownRuntime: string[] }> | undefined;
  const prepare = () => (prepared ??= prepareMounts(options));

  return {
    mode: 'bwrap',
    root: options.root,
    async exec(command: string, exec: ExecOptions): Promise<ExecResult> {
      const cwd = await resolveCwd(options.root, exec.cwd);
      const mounts = await prepare();
      const env = buildSandboxEnv(exec.env, { home: options.home ?? SANDBOX_TMP_HOME, secrets: options.secrets });
      const network = exec.network ?? false;
      const args = bwrapArgs({
        readOnly: options.readOnly,
        root: mounts.root,
        cwd,
        env,
        network,
        hidden: mounts.hidden,
        reexposed: network ? mounts.reexposed : [],
        home: options.home,
        writable: exec.writableDir,
        readOnlyDirs: [...mounts.ownRuntime, ...(exec.readOnlyDirs ?? [])],
        command: ['bash', ...mergedShellArgs(command, ulimitPrelude(limits))],
      });
      return runCaptured({
        file: options.bwrapPath ?? 'bwrap',
        args,
        cwd,
        // bwrap itself is PID 1 inside, so its own environment is readable there: it gets nothing but Wrench's own PATH.
        // The command's PATH may name folders of the workspace (a setup step's virtualenv, npm's global bin): never
        // the place `bwrap` is looked up on the host. The command gets its environment through --setenv.
        env: launcherEnv(),
        timeoutMs: exec.timeoutMs,
        signal: exec.signal,
        maxOutputChars: exec.maxOutputChars,
        maxProcesses: limits.maxProcesses,
      });
    },
  };
}

async function prepareMounts(options: BwrapSandboxOptions) {
  const root = await realpath(options.root);
  const defaults = (await resolveHiddenPaths(defaultHiddenPaths())).filter((dir) => !isInside(root, dir));
  const hidden = [...new Set([...defaults, ...(await resolveHiddenPaths(options.hiddenPaths ?? []))])].sort();
  const resolv = await realpath('/etc/resolv.conf').catch(() => undefined);
  const reexposed = resolv && hidden.some((dir) => isInside(dir, resolv)) ? [resolv] : [];
  // Wrench's own Node.js (the one on its PATH) stays usable when it is installed under a hidden place (a project
  // folder's .tools, a home directory's version manager): its installation only, read-only.
  const runtime = path.dirname(path.dirname(await realpath(process.execPath)));
  const ownRuntime = hidden.some((dir) => isInside(dir, runtime)) ? [runtime] : [];
  return { root, hidden, reexposed, ownRuntime };
}

/** The environment bwrap (and the shell that puts it in its cgroup) starts with on the host. */
function launcherEnv(): Record<string, string> {
  return { PATH: process.env.PATH || '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' };
}

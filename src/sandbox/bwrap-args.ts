import type { HostSocketScan } from './host-sockets.js';
import { isInside } from './workspace-path.js';

/** One entry of the sandbox's root taken from the host: a directory bound read-only, or a symlink made again (`/bin -> usr/bin`). */
export interface RootEntry {
  path: string;
  symlinkTo?: string;
}

export interface BwrapPlan {
  /**
   * What of the host the sandbox's root holds, read-only at the same paths: the system directories and
   * `sandbox.visible`. Nothing else of the host is there (no /var, /srv, /home, /run, /mnt), so no socket a host service
   * listens on outside these is reachable.
   */
  system: readonly RootEntry[];
  /** Real path of the workspace: bound writable at the same path. */
  root: string;
  /** Real path of the working directory. */
  cwd: string;
  env: Record<string, string>;
  /**
   * The directory of the egress proxy's Unix socket, bound read-only at the same path: the command's only way out.
   * The sandbox always has a network namespace of its own (only `lo`); without this directory it has no network at all.
   */
  egressSocketDir?: string;
  /**
   * Real paths covered by an empty tmpfs (the workspace is bound again on top when inside one). Only those inside a
   * `system` entry or the workspace need it: anything else is absent from the sandbox's root anyway.
   */
  hidden: readonly string[];
  /** Real paths of files shown as empty (/dev/null bound over them): a secret file in a directory that cannot be hidden. */
  hiddenFiles?: readonly string[];
  /** A host directory bound writable as HOME; without it HOME is a fresh directory in the private /tmp. */
  home?: string;
  /** A host directory bound writable at the same path (the setup step's shared download caches). */
  writable?: string;
  /** Host directories bound read-only at the same path (provisioned runtimes), on top of any hidden place. */
  readOnlyDirs?: readonly string[];
  /**
   * Socket files found under the shown host directories (each masked by /dev/null bound over it, so connect() on its
   * path is refused), and directories there that could not be listed (behind an empty tmpfs). See host-sockets.ts.
   */
  hostSockets?: HostSocketScan;
  /** Review and triage runs: the workspace is mounted read-only too. */
  readOnly?: boolean;
  /** The program and its arguments inside the sandbox. */
  command: readonly string[];
}

export const SANDBOX_TMP_HOME = '/tmp/home';

/**
 * The bubblewrap arguments for one command: a root of its own holding the host's system directories read-only, the
 * workspace writable, a private /tmp and /var/tmp, no host processes or network.
 */
export function bwrapArgs(plan: BwrapPlan): string[] {
  const shown = plan.system.filter((entry) => entry.symlinkTo === undefined).map((entry) => entry.path);
  const inShown = (place: string) => shown.some((dir) => isInside(dir, place));
  const outside = plan.hidden.filter((dir) => !isInside(plan.root, dir) && inShown(dir));
  const within = plan.hidden.filter((dir) => isInside(plan.root, dir) && dir !== plan.root);
  const args: string[] = [];
  for (const entry of plan.system)
    if (entry.symlinkTo === undefined) args.push('--ro-bind', entry.path, entry.path);
    else args.push('--symlink', entry.symlinkTo, entry.path);
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp');
  for (const dir of outside) args.push('--tmpfs', dir);
  for (const file of plan.hiddenFiles ?? []) if (inShown(file)) args.push('--ro-bind', '/dev/null', file);
  args.push(plan.readOnly ? '--ro-bind' : '--bind', plan.root, plan.root);
  // The tree's pack files are the pool's, reused by later jobs: no command in the sandbox may change them (git then
  // writes loose objects, which the pool drops when it resets the tree).
  if (!plan.readOnly) args.push('--ro-bind-try', `${plan.root}/.git/objects/pack`, `${plan.root}/.git/objects/pack`);
  for (const dir of within) args.push('--tmpfs', dir);
  if (plan.writable) args.push('--bind', plan.writable, plan.writable);
  for (const dir of plan.readOnlyDirs ?? []) args.push('--ro-bind', dir, dir);
  if (plan.egressSocketDir) args.push('--ro-bind', plan.egressSocketDir, plan.egressSocketDir);
  if (plan.home) args.push('--bind', plan.home, plan.home);
  else args.push('--dir', SANDBOX_TMP_HOME);
  // Last, so no bind above shows a host socket again: a read-only mount does not refuse connect(), /dev/null in its place does.
  for (const dir of plan.hostSockets?.unlisted ?? []) args.push('--tmpfs', dir);
  for (const file of plan.hostSockets?.sockets ?? []) args.push('--ro-bind', '/dev/null', file);
  // The root itself (a tmpfs bwrap made, holding the mount points above) is read-only like the host's was.
  args.push('--remount-ro', '/');
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--hostname', 'wrench-sandbox');
  args.push('--unshare-net');
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--clearenv');
  for (const [name, value] of Object.entries(plan.env)) args.push('--setenv', name, value);
  args.push('--chdir', plan.cwd, '--', ...plan.command);
  return args;
}

import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { bwrapArgs, type RootEntry, SANDBOX_TMP_HOME } from './bwrap-args.js';
import { defaultRegistryEntries, type EgressAllowEntry, loopbackServices } from './egress/egress-policy.js';
import { type EgressLimits, type EgressProxy, type EgressRefusal, startEgressProxy } from './egress/egress-proxy.js';
import { hostRegistries } from './egress/host-registries.js';
import { forwardedCommand } from './egress/sandbox-forwarder.js';
import type { UpstreamProxy } from './egress/upstream-proxy.js';
import { configFile, defaultHiddenPaths, resolveHiddenPaths } from './hidden-paths.js';
import { createHostSocketScanner, type HostSocketScan } from './host-sockets.js';
import { resolveCwd } from './resolve-cwd.js';
import { runCaptured } from './run-captured.js';
import type { ExecOptions, ExecResult, Sandbox } from './sandbox.js';
import { buildSandboxEnv, caFileEnv, certificatePaths } from './sandbox-env.js';
import { ulimitPrelude, withDefaults, type SandboxLimits } from './sandbox-limits.js';
import { mergedShellArgs } from './shell-command.js';
import { type UsrSocketWatch, usrMasks, usrSocketWatch } from './usr-sockets.js';
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
  /** Hosts commands with network may reach besides the default registries and the host's own registry settings. */
  egressAllow?: readonly EgressAllowEntry[];
  /** Told of every destination the egress proxy refuses (once per host, port and reason per command). */
  onEgressRefused?: (refusal: EgressRefusal) => void;
  /** Connections at once and idle time of each command's egress proxy (defaults: DEFAULT_EGRESS_LIMITS). */
  egressLimits?: EgressLimits;
  /** Told once per command when its proxy closed a connection because the most allowed were open. */
  onEgressCapped?: (maxConnections: number) => void;
  /** The operator's proxy the egress proxy sends allowed destinations through (`sandbox.egress.upstreamProxy`); none: directly. */
  egressUpstream?: UpstreamProxy;
  /** Host directories shown read-only besides the system ones (`sandbox.visible`): a toolchain under /nix or /srv. */
  visible?: readonly string[];
  /** A CA bundle (PEM) commands with network trust, shown read-only (`sandbox.setupCaFile`). */
  setupCaFile?: string;
  /** The background scan of /usr outside /usr/local whose sockets every command masks. Default: the process's own. */
  usrSockets?: UsrSocketWatch;
  /** false: commands mask nothing of that scan, and neither start nor wait for it. Only for Wrench's own check. */
  waitForUsrScan?: boolean;
  /** Finds the sockets under the shown directories before each command. Default: the process's own, cached scanner. */
  scanSockets?: (roots: readonly string[], skip: readonly string[]) => Promise<HostSocketScan>;
}

/**
 * Mode `bwrap`: each command runs under bubblewrap with the host read-only, the workspace writable,
 * a private /tmp, its own PID, IPC, UTS and network namespaces, no capabilities, a scrubbed environment and
 * resource limits. A command with network reaches out only through an egress proxy Wrench runs for it on the host
 * (see egress/egress-proxy.ts), by way of a Unix socket bound into the sandbox.
 */
export function createBwrapSandbox(options: BwrapSandboxOptions): Sandbox {
  const limits = withDefaults(options.limits);
  let prepared: Promise<Awaited<ReturnType<typeof prepareMounts>>> | undefined;
  const prepare = () => (prepared ??= prepareMounts(options));
  const usrWatch = options.usrSockets ?? usrSocketWatch;
  const scanSockets = options.scanSockets ?? scanHostSockets;

  return {
    mode: 'bwrap',
    root: options.root,
    async exec(command: string, exec: ExecOptions): Promise<ExecResult> {
      const cwd = await resolveCwd(options.root, exec.cwd);
      const mounts = await prepare();
      const ownPlaces = [...mounts.hidden, mounts.root, ...(options.home ? [options.home] : []), ...(exec.writableDir ? [exec.writableDir] : [])];
      // Every command, not once per job: a host service may have made its socket since the last one. The rest of /usr is
      // scanned in the background: its latest scan (the first command of the process waits for the first one).
      const socketMasks = async (): Promise<HostSocketScan> => {
        const [scanned, usr] = await Promise.all([
          scanSockets(mounts.socketRoots, ownPlaces),
          options.waitForUsrScan === false ? NO_SOCKETS : usrWatch.latest().then((scan) => usrMasks(scan, mounts.shownDirs, ownPlaces)),
        ]);
        return {
          sockets: [...new Set([...scanned.sockets, ...usr.sockets])],
          unlisted: [...new Set([...scanned.unlisted, ...usr.unlisted])],
        };
      };
      let hostSockets = await socketMasks();
      const network = exec.network ?? false;
      const env = buildSandboxEnv(network ? { ...mounts.registryEnv, ...exec.env } : exec.env, {
        home: options.home ?? SANDBOX_TMP_HOME,
        secrets: options.secrets,
      });
      const shell = ['bash', ...mergedShellArgs(command, ulimitPrelude(limits))];
      const allow = [...mounts.registryAllow, ...(options.egressAllow ?? [])];
      let proxy: EgressProxy | undefined;
      if (network)
        proxy = await startEgressProxy({
          policy: { scope: exec.egress ?? 'registries', allow },
          onRefused: options.onEgressRefused,
          limits: options.egressLimits,
          onCapped: options.onEgressCapped,
          upstream: options.egressUpstream,
        });
      const attempt = () => {
        const args = bwrapArgs({
          readOnly: options.readOnly,
          root: mounts.root,
          cwd,
          env,
          system: mounts.system,
          hidden: mounts.hidden,
          hiddenFiles: mounts.hiddenFiles,
          hostSockets,
          egressSocketDir: proxy && path.dirname(proxy.socketPath),
          home: options.home,
          writable: exec.writableDir,
          readOnlyDirs: [...mounts.ownRuntime, ...(exec.readOnlyDirs ?? [])],
          command: proxy ? forwardedCommand(mounts.node, proxy.socketPath, shell, loopbackServices(allow)) : shell,
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
      };
      try {
        let result = await attempt();
        // A socket found by the scan and gone before bwrap started leaves it no mount point to make in a read-only system
        // directory, and bwrap stops before the command runs: scanned again, the command gets its one start.
        if (result.exitCode === 1 && vanishedSocket(result.output, hostSockets.sockets)) {
          hostSockets = await socketMasks();
          result = await attempt();
        }
        return proxy ? { ...result, egressRefused: [...proxy.refusals] } : result;
      } finally {
        await proxy?.close();
      }
    },
  };
}

async function prepareMounts(options: BwrapSandboxOptions) {
  const root = await realpath(options.root);
  const defaults = (await resolveHiddenPaths(defaultHiddenPaths())).filter((dir) => !isInside(root, dir));
  const hidden = [...new Set([...defaults, ...(await resolveHiddenPaths(options.hiddenPaths ?? []))])].sort();
  const config = await realpath(configFile() ?? '').catch(() => undefined);
  const hiddenFiles = config && !hidden.some((dir) => isInside(dir, config)) ? [config] : [];
  // Wrench's own Node.js (the one on its PATH) stays usable wherever it is installed (a project folder's .tools, a
  // home directory's version manager, outside the system directories or under a hidden place): its installation only,
  // read-only. It also runs the egress forwarder inside the sandbox.
  const node = await realpath(process.execPath);
  const runtime = path.dirname(path.dirname(node));
  const system = await rootEntries(options.visible ?? []);
  const shownDirs = system.filter((entry) => entry.symlinkTo === undefined).map((entry) => entry.path);
  const shown = (place: string) => shownDirs.some((dir) => isInside(dir, place)) && !hidden.some((dir) => isInside(dir, place));
  // The host's certificate files named by NODE_EXTRA_CA_CERTS and the like (a TLS-intercepting proxy's CA) are
  // passed to commands: shown read-only where they are when no system directory holds them (never from a hidden place).
  const unseen = (file: string) => !shown(file) && !hidden.some((dir) => isInside(dir, file));
  const registries = await hostRegistries();
  // The operator's CA bundle and the host npm's `cafile` are shown wherever they are: the setup step is told to use them.
  const named = [
    ...certificatePaths().filter(unseen),
    ...[...registries.files, ...(options.setupCaFile ? [options.setupCaFile] : [])].filter((file) => !shown(file)),
  ];
  const certificates = await existingPaths([...new Set(named)]);
  const ownRuntime = [...(runtime !== '/' && !shown(runtime) ? [runtime] : []), ...certificates];
  return {
    root,
    system,
    shownDirs,
    socketRoots: socketScanRoots(shownDirs),
    hidden,
    hiddenFiles,
    ownRuntime,
    node,
    registryAllow: [...defaultRegistryEntries(), ...registries.allow],
    registryEnv: { ...registries.env, ...(options.setupCaFile ? caFileEnv(options.setupCaFile) : {}) },
  };
}

/**
 * What of the host a command needs to run at all: the programs and libraries (/usr and the top-level directories
 * that are symlinks into it on merged-/usr systems, or real ones elsewhere), /etc, /opt (toolchains installed there)
 * and /sys (read by runtimes for CPU and cgroup limits; sysfs holds no sockets). /var, /srv, /home, /root, /run, /mnt,
 * /media and the rest are not there at all: a socket a host service listens on there (a database's, a container
 * runtime's, a cluster agent's) has no path in the sandbox to connect() to. See docs/security.md.
 */
export const SYSTEM_ROOT = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/sys'];

/** Shared by every sandbox of the process: a directory unchanged since the last command is not read again. */
const scanHostSockets = createHostSocketScanner();

/** Whether bwrap stopped at its start because one of the masked sockets was gone (its message, the whole output). */
function vanishedSocket(output: string, sockets: readonly string[]): boolean {
  const match = /^bwrap: Can't create file at (.+?): [^\n]*\n?$/.exec(output);
  return match?.[1] !== undefined && sockets.includes(match[1]);
}

const NO_SOCKETS: HostSocketScan = { sockets: [], unlisted: [] };

/**
 * Where a host socket could be in the sandbox's root, looked for before every command: every shown directory but /sys
 * (sysfs holds none) and, of /usr, only /usr/local. The rest of /usr took 0.25 to 0.7 s to check on every command on a
 * 2-core host: it is scanned in the background instead (usr-sockets.ts); see docs/security.md.
 */
export function socketScanRoots(shown: readonly string[]): string[] {
  return shown.flatMap((dir) => (dir === '/sys' ? [] : dir === '/usr' ? ['/usr/local'] : [dir]));
}

export async function rootEntries(visible: readonly string[]): Promise<RootEntry[]> {
  const entries = await Promise.all(
    [...SYSTEM_ROOT, ...visible].map(async (place): Promise<RootEntry | undefined> => {
      const stat = await lstat(place).catch(() => undefined);
      if (!stat) return undefined;
      if (stat.isSymbolicLink() && SYSTEM_ROOT.includes(place)) return { path: place, symlinkTo: await readlink(place) };
      const real = await realpath(place).catch(() => undefined);
      return real && real !== '/' ? { path: real } : undefined;
    }),
  );
  const seen = new Set<string>();
  return entries.filter((entry): entry is RootEntry => !!entry && !seen.has(entry.path) && !!seen.add(entry.path));
}

async function existingPaths(places: readonly string[]): Promise<string[]> {
  const real = await Promise.all(places.map((place) => realpath(place).catch(() => undefined)));
  return [...new Set(real.filter((place): place is string => !!place && place !== '/'))];
}

/** The environment bwrap (and the shell that puts it in its cgroup) starts with on the host. */
function launcherEnv(): Record<string, string> {
  return { PATH: process.env.PATH || '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' };
}

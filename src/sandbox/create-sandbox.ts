import { createBwrapSandbox } from './bwrap-sandbox.js';
import { createProcessSandbox } from './process-sandbox.js';
import type { EgressAllowEntry } from './egress/egress-policy.js';
import type { EgressLimits, EgressRefusal } from './egress/egress-proxy.js';
import type { UpstreamProxy } from './egress/upstream-proxy.js';
import type { Sandbox } from './sandbox.js';
import type { SandboxLimits } from './sandbox-limits.js';

export interface CreateSandboxOptions {
  mode: 'bwrap' | 'none';
  /** The workspace: the only writable directory (bwrap) and where every command starts. */
  root: string;
  /** Values never passed to a command's environment. */
  secrets?: readonly string[];
  /** bwrap only: more places to hide (e.g. the mirror cache). */
  hiddenPaths?: readonly string[];
  /** bwrap only: CPU, memory, process and file-size limits. */
  limits?: SandboxLimits;
  /** bwrap only: the workspace is read-only too (review and triage runs have no write tools). */
  readOnly?: boolean;
  /** HOME of the commands (bwrap: bound writable). Default: a private directory. */
  home?: string;
  /** bwrap only: hosts commands with network may reach besides the default registries and the host's registry settings. */
  egressAllow?: readonly EgressAllowEntry[];
  /** bwrap only: host directories shown read-only besides the system ones (`sandbox.visible`). */
  visible?: readonly string[];
  /** A CA bundle (PEM) the commands with network (the setup step) trust (`sandbox.setupCaFile`). */
  setupCaFile?: string;
  /** bwrap only: connections at once and idle time of each command's egress proxy. */
  egressLimits?: EgressLimits;
  /** bwrap only: told when a command's egress proxy closed a connection over its cap. */
  onEgressCapped?: (maxConnections: number) => void;
  /** bwrap only: told of every destination the egress proxy refuses. */
  onEgressRefused?: (refusal: EgressRefusal) => void;
  /** The operator's proxy (`sandbox.egress.upstreamProxy`, else `HTTPS_PROXY`): bwrap's egress proxy goes through it; none points commands with network at it. */
  egressUpstream?: UpstreamProxy;
}

export function createSandbox(options: CreateSandboxOptions): Sandbox {
  if (options.mode === 'none')
    return createProcessSandbox({
      root: options.root,
      secrets: options.secrets,
      home: options.home,
      setupCaFile: options.setupCaFile,
      upstream: options.egressUpstream,
    });
  return createBwrapSandbox(options);
}

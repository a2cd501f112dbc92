import path from 'node:path';
import type { Config } from '../src/config/load-config.js';
import type { Logger } from '../src/logging/logger.js';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { parseAllowEntry } from '../src/sandbox/egress/egress-policy.js';
import { describeRefusal, type EgressRefusal } from '../src/sandbox/egress/egress-proxy.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { upstreamProxyFor } from '../src/sandbox/egress/upstream-proxy.js';
import { warmCacheDir } from '../src/warm-cache/warm-cache-dir.js';
import { heldWorkDir } from '../src/workspace/hold-refused-work.js';
import { treePoolRoot } from '../src/workspace/tree-pool.js';

/**
 * The sandbox of one job's workspace, as every runner needs it: mode from the config, credentials kept
 * out, the mirror cache, the warm-start caches, the other pooled trees, Redis data and `sandbox.hidden` hidden, network only through
 * the egress proxy (refusals logged), read-only for reviews and triage. Mode `none` is logged
 * as a warning on every job.
 */
export function jobSandbox(
  deps: { config: Config; secrets: string[] },
  workspaceDir: string,
  options: { readOnly: boolean; log: Logger; onEgressRefused?: (refusal: EgressRefusal) => void },
): Sandbox {
  const sandbox = createSandbox({
    mode: deps.config.file.sandbox.mode,
    root: workspaceDir,
    readOnly: options.readOnly,
    secrets: deps.secrets,
    hiddenPaths: [
      path.join(deps.config.dataDir, 'mirrors'),
      path.join(deps.config.dataDir, 'redis'),
      heldWorkDir(deps.config.dataDir),
      warmCacheDir(deps.config.dataDir),
      treePoolRoot(deps.config.dataDir),
      ...deps.config.file.sandbox.hidden,
    ],
    visible: deps.config.file.sandbox.visible,
    setupCaFile: deps.config.file.sandbox.setupCaFile,
    egressLimits: { maxConnections: deps.config.env.WRENCH_EGRESS_MAX_CONNECTIONS, idleMs: deps.config.env.WRENCH_EGRESS_IDLE_SECONDS * 1000 },
    onEgressCapped: (maxConnections) =>
      options.log.warn(
        { maxConnections },
        `egress connection cap reached: a sandboxed command held ${maxConnections} connections through the egress proxy at once; more were closed (WRENCH_EGRESS_MAX_CONNECTIONS)`,
      ),
    egressAllow: deps.config.file.sandbox.egress.allow.map(parseAllowEntry),
    egressUpstream: upstreamProxyFor({ ...deps.config.file.sandbox.egress, caFile: deps.config.file.sandbox.setupCaFile }, deps.config.env),
    onEgressRefused: (refusal) => {
      options.log.warn(
        {
          host: refusal.host,
          port: refusal.port,
          reason: refusal.reason,
          address: refusal.address,
          upstream: refusal.upstream,
          upstreamAnswer: refusal.upstreamAnswer,
        },
        `egress refused: ${describeRefusal(refusal)}`,
      );
      options.onEgressRefused?.(refusal);
    },
  });
  if (sandbox.mode === 'none') options.log.warn('sandbox mode is none: agent commands run without isolation');
  return sandbox;
}

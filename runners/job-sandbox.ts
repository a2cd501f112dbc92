import path from 'node:path';
import type { Config } from '../src/config/load-config.js';
import type { Logger } from '../src/logging/logger.js';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { warmCacheDir } from '../src/warm-cache/warm-cache-dir.js';
import { treePoolRoot } from '../src/workspace/tree-pool.js';

/**
 * The sandbox of one job's workspace, as every runner needs it: mode from the config, credentials kept
 * out, the mirror cache, the warm-start caches, the other pooled trees and Redis data hidden, read-only for reviews and triage. Mode `none` is logged
 * as a warning on every job.
 */
export function jobSandbox(deps: { config: Config; secrets: string[] }, workspaceDir: string, options: { readOnly: boolean; log: Logger }): Sandbox {
  const sandbox = createSandbox({
    mode: deps.config.file.sandbox.mode,
    root: workspaceDir,
    readOnly: options.readOnly,
    secrets: deps.secrets,
    hiddenPaths: [
      path.join(deps.config.dataDir, 'mirrors'),
      path.join(deps.config.dataDir, 'redis'),
      warmCacheDir(deps.config.dataDir),
      treePoolRoot(deps.config.dataDir),
    ],
  });
  if (sandbox.mode === 'none') options.log.warn('sandbox mode is none: agent commands run without isolation');
  return sandbox;
}

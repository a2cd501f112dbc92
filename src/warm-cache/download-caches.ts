import { mkdir, utimes } from 'node:fs/promises';
import path from 'node:path';

/**
 * Package managers' download caches, shared by the setup steps of every job on this machine (read-write for setup
 * only: the agent's commands and the checks never see them). Each manager gets its own folder, so eviction can drop
 * one without the others.
 */
export const DOWNLOAD_CACHE_VARIABLES = {
  npm: 'npm_config_cache',
  yarn: 'YARN_CACHE_FOLDER',
  pnpm: 'npm_config_store_dir',
  pip: 'PIP_CACHE_DIR',
  go: 'GOMODCACHE',
} as const;

export interface DownloadCache {
  /** Bound writable into the setup step's sandbox. */
  dir: string;
  /** The variables that point each package manager at its folder. */
  env: Record<string, string>;
}

/** Makes the folders and marks them used now (their age decides eviction). */
export async function openDownloadCache(dir: string): Promise<DownloadCache> {
  const env: Record<string, string> = {};
  const now = new Date();
  for (const [manager, variable] of Object.entries(DOWNLOAD_CACHE_VARIABLES)) {
    const folder = path.join(dir, manager);
    await mkdir(folder, { recursive: true });
    await utimes(folder, now, now);
    env[variable] = folder;
  }
  return { dir, env };
}

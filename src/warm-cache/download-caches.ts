import { mkdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { repositoryFolder } from './dependency-snapshots.js';
import type { DownloadCache } from '../verification/run-verification.js';

/**
 * Package managers' download caches, shared by the setup steps of every job on one repository on this machine
 * (read-write for setup only: the agent's commands and the checks never see them). Not shared between repositories:
 * a setup step runs the repository's own code (install scripts), and some caches (pip's) are not checked against a
 * lock file when read, so one repository could plant a package another would install. Each manager gets its own folder.
 */
export const DOWNLOAD_CACHE_VARIABLES = {
  npm: 'npm_config_cache',
  yarn: 'YARN_CACHE_FOLDER',
  pnpm: 'npm_config_store_dir',
  pip: 'PIP_CACHE_DIR',
  go: 'GOMODCACHE',
} as const;

/** Makes the repository's folders under `root` and marks them used now (the repository folder's age decides eviction). */
export async function openDownloadCache(root: string, repository: string): Promise<DownloadCache> {
  const dir = path.join(root, repositoryFolder(repository));
  const env: Record<string, string> = {};
  const now = new Date();
  for (const [manager, variable] of Object.entries(DOWNLOAD_CACHE_VARIABLES)) {
    const folder = path.join(dir, manager);
    await mkdir(folder, { recursive: true });
    await utimes(folder, now, now);
    env[variable] = folder;
  }
  await utimes(dir, now, now);
  return { dir, env };
}

import path from 'node:path';

/** Where this machine keeps baselines and dependency snapshots; never visible inside a sandbox. */
export function warmCacheDir(dataDir: string): string {
  return path.join(dataDir, 'cache');
}

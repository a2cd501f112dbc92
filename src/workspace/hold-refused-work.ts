import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from './run-git.js';

/** Where a push refused for a secret keeps the run's commits, under WRENCH_DATA_DIR. */
export function heldWorkDir(dataDir: string): string {
  return join(dataDir, 'held');
}

/**
 * Keeps the commits a push refused as a git bundle, `<heldDir>/<branch>-<shortsha>.bundle` (mode 0600: it holds the
 * secret), so the work survives the workspace's reset. The bundle holds only the commits the remote lacks: it needs
 * a clone of the repository (`git fetch <bundle> <ref>`). Returns its path and the ref it carries.
 */
export async function holdRefusedWork(dir: string, branch: string, known: readonly string[], heldDir: string): Promise<{ path: string; ref: string }> {
  const head = (await runGit(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd: dir })).trim();
  const symbolic = await runGit(['symbolic-ref', '--quiet', 'HEAD'], { cwd: dir }).then(
    (out) => out.trim(),
    () => '',
  );
  const ref = symbolic === `refs/heads/${branch}` ? symbolic : 'HEAD';
  await mkdir(heldDir, { recursive: true, mode: 0o700 });
  const path = join(heldDir, `${branch.replace(/[^A-Za-z0-9._-]+/g, '-')}-${head.slice(0, 12)}.bundle`);
  const input = known.map((sha) => `^${sha}\n`).join('');
  await runGit(['bundle', 'create', '--quiet', path, ref, '--stdin'], { cwd: dir, input });
  await chmod(path, 0o600);
  return { path, ref };
}

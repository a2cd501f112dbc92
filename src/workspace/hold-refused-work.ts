import type { Stats } from 'node:fs';
import { chmod, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from './run-git.js';

/** Where a push refused for a secret keeps the run's commits, under WRENCH_DATA_DIR. */
export function heldWorkDir(dataDir: string): string {
  return join(dataDir, 'held');
}

/** A refused push's commits: named in its thread by `id` (the file `<id>.bundle` in the held directory), never by path. */
export interface HeldWork {
  id: string;
  ref: string;
}

/** A bundle in the held directory, for `wrench doctor` and pruning. */
export interface HeldBundle {
  id: string;
  bytes: number;
  /** When it was written (ms). */
  keptAt: number;
}

/**
 * Keeps the commits a push refused as a git bundle, `<heldDir>/<branch>-<shortsha>.bundle` (mode 0600: it holds the
 * secret), so the work survives the workspace's reset. The bundle holds only the commits the remote lacks: it needs
 * a clone of the repository (`git fetch <bundle> <ref>`). Returns its id and the ref it carries.
 */
export async function holdRefusedWork(dir: string, branch: string, known: readonly string[], heldDir: string): Promise<HeldWork> {
  const head = (await runGit(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd: dir })).trim();
  const symbolic = await runGit(['symbolic-ref', '--quiet', 'HEAD'], { cwd: dir }).then(
    (out) => out.trim(),
    () => '',
  );
  const ref = symbolic === `refs/heads/${branch}` ? symbolic : 'HEAD';
  await mkdir(heldDir, { recursive: true, mode: 0o700 });
  const id = `${branch.replace(/[^A-Za-z0-9._-]+/g, '-')}-${head.slice(0, 12)}`;
  const path = join(heldDir, `${id}.bundle`);
  const input = known.map((sha) => `^${sha}\n`).join('');
  await runGit(['bundle', 'create', '--quiet', path, ref, '--stdin'], { cwd: dir, input });
  await chmod(path, 0o600);
  return { id, ref };
}

/** The bundles kept in `heldDir`, oldest first (none when it does not exist). */
export function listHeldWork(heldDir: string): Promise<HeldBundle[]> {
  return listHeld(heldDir, '.bundle', (stats) => (stats.isFile() ? stats.size : undefined));
}

/**
 * The working trees kept whole in `heldDir` (`<id>.tree`: a run stopped by a full disk keeps its tree there, committed
 * and uncommitted work alike), oldest first; `bytes` is not measured (0).
 */
export function listHeldTrees(heldDir: string): Promise<HeldBundle[]> {
  return listHeld(heldDir, '.tree', (stats) => (stats.isDirectory() ? 0 : undefined));
}

/** The entries of `heldDir` named `<id><suffix>` that `bytesOf` accepts (a number), oldest first. */
async function listHeld(heldDir: string, suffix: string, bytesOf: (stats: Stats) => number | undefined): Promise<HeldBundle[]> {
  const names = await readdir(heldDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const held = await Promise.all(
    names
      .filter((name) => name.endsWith(suffix))
      .map(async (name) => {
        const stats = await lstat(join(heldDir, name)).catch(() => undefined);
        const bytes = stats ? bytesOf(stats) : undefined;
        return stats && bytes !== undefined ? { id: name.slice(0, -suffix.length), bytes, keptAt: stats.mtimeMs } : undefined;
      }),
  );
  return held.filter((entry) => entry !== undefined).sort((a, b) => a.keptAt - b.keptAt);
}

/** Removes the bundles and kept trees written longer than `maxAgeMs` ago; returns them. */
export async function pruneHeldWork(heldDir: string, maxAgeMs: number, now = Date.now()): Promise<HeldBundle[]> {
  const old = (await listHeldWork(heldDir)).filter((bundle) => now - bundle.keptAt > maxAgeMs);
  const oldTrees = (await listHeldTrees(heldDir)).filter((tree) => now - tree.keptAt > maxAgeMs);
  await Promise.all([
    ...old.map((bundle) => rm(join(heldDir, `${bundle.id}.bundle`), { force: true })),
    ...oldTrees.map((tree) => rm(join(heldDir, `${tree.id}.tree`), { recursive: true, force: true })),
  ]);
  return [...old, ...oldTrees];
}

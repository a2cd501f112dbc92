import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, rm } from 'node:fs/promises';
import path from 'node:path';

/** Caches that tools write inside `node_modules` while tests run (vite, vitest, babel...): dropped between jobs, never kept. */
export const TOOL_CACHE_DIRS = ['node_modules/.vite', 'node_modules/.cache'];

/** Removes the tools' caches from the dependency directories of `dir`. */
export async function dropToolCaches(dir: string): Promise<void> {
  await Promise.all(TOOL_CACHE_DIRS.map((name) => rm(path.join(dir, name), { recursive: true, force: true })));
}

/**
 * A hash of every entry under the named directories of `dir`: path, type, mode, and for files and links the inode,
 * size, modification and change times. Any write to a file changes its change time (which no unprivileged process
 * can set back), so an equal fingerprint means nothing was added, removed or edited. undefined when none exist.
 */
export async function dependencyFingerprint(dir: string, names: readonly string[]): Promise<string | undefined> {
  const present: string[] = [];
  for (const name of names) {
    if (
      await access(path.join(dir, name)).then(
        () => true,
        () => false,
      )
    )
      present.push(name);
  }
  if (present.length === 0) return undefined;
  const prune = TOOL_CACHE_DIRS.flatMap((name, i) => (i === 0 ? ['-path', name] : ['-o', '-path', name]));
  const args = [...present, '(', ...prune, ')', '-prune', '-o', '(', '-type', 'd', '-printf', 'd %m %p\\n', ')', '-o', '-printf', '%y %m %i %s %T@ %C@ %p\\n'];
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const child = spawn('find', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => hash.update(chunk));
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(hash.digest('hex')) : reject(new Error(`find in ${dir} failed (${code}): ${stderr.trim()}`))));
  });
}

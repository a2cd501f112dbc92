import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

export type WorkspacePath = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Resolve `target` (relative to `root`, or absolute) to a real path inside the workspace. Symlinks
 * are followed through the nearest existing ancestor, so a link pointing out of the workspace is
 * refused like `..` or an absolute path elsewhere. The target itself need not exist.
 */
export async function resolveWorkspacePath(root: string, target: string): Promise<WorkspacePath> {
  const realRoot = await realpath(root);
  const lexical = path.resolve(realRoot, target);
  if (!isInside(realRoot, lexical) && !isInside(path.resolve(root), path.resolve(root, target)))
    return { ok: false, reason: `${target} is outside the workspace ${root}` };

  const missing: string[] = [];
  let current = isInside(realRoot, lexical) ? lexical : path.resolve(root, target);
  for (;;) {
    try {
      const real = await realpath(current);
      const resolved = path.join(real, ...missing);
      if (!isInside(realRoot, resolved)) return { ok: false, reason: `${target} resolves to ${resolved}, outside the workspace ${root}` };
      return { ok: true, path: resolved };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return { ok: false, reason: `${target}: ${(error as Error).message}` };
      if (await isDanglingLink(current)) return { ok: false, reason: `${target} is a symbolic link to a missing target` };
      const parent = path.dirname(current);
      if (parent === current) return { ok: false, reason: `${target} is outside the workspace ${root}` };
      missing.unshift(path.basename(current));
      current = parent;
    }
  }
}

export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

async function isDanglingLink(file: string): Promise<boolean> {
  try {
    return (await lstat(file)).isSymbolicLink();
  } catch {
    return false;
  }
}

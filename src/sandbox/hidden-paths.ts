import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from './workspace-path.js';

/** Places a sandboxed command never sees: home directories, runtime sockets and secrets, Wrench's own files. */
export function defaultHiddenPaths(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string[] {
  return ['/root', '/home', '/run', '/var/run', path.resolve(cwd, env.WRENCH_DATA_DIR || '.wrench'), cwd];
}

/** Directories whose hiding would break the sandbox itself. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc', '/dev', '/proc', '/tmp'];

/** Real, existing, de-duplicated paths to cover with a tmpfs; the root and system directories are never hidden. */
export async function resolveHiddenPaths(paths: readonly string[]): Promise<string[]> {
  const real = await Promise.all(paths.map((dir) => realpath(path.resolve(dir)).catch(() => undefined)));
  const kept = real.filter((dir): dir is string => !!dir && !SYSTEM_DIRS.some((system) => isInside(dir, system)));
  return [...new Set(kept)].sort();
}

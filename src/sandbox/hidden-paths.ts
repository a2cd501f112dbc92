import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { isInside } from './workspace-path.js';

/**
 * Places a sandboxed command never sees: home directories (the service's own HOME wherever it is), runtime sockets and
 * secrets, Wrench's own files (its working directory, its data directory, the directory of WRENCH_CONFIG).
 */
export function defaultHiddenPaths(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), home = homedir()): string[] {
  const paths = ['/root', '/home', '/run', '/var/run', home, path.resolve(cwd, env.WRENCH_DATA_DIR || '.wrench'), cwd];
  const config = configFile(env, cwd);
  if (config) paths.push(path.dirname(config));
  return paths;
}

/** The config file itself, hidden on its own when its directory cannot be (a system directory such as /etc). */
export function configFile(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | undefined {
  return env.WRENCH_CONFIG ? path.resolve(cwd, env.WRENCH_CONFIG) : undefined;
}

/** Directories whose hiding would break the sandbox itself. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc', '/dev', '/proc', '/tmp'];

/** Real, existing, de-duplicated paths to cover with a tmpfs; the root and system directories are never hidden. */
export async function resolveHiddenPaths(paths: readonly string[]): Promise<string[]> {
  const real = await Promise.all(paths.map((dir) => realpath(path.resolve(dir)).catch(() => undefined)));
  const kept = real.filter((dir): dir is string => !!dir && !SYSTEM_DIRS.some((system) => isInside(dir, system)));
  return [...new Set(kept)].sort();
}

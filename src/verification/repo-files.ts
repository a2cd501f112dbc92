import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Read-only looks into a checked-out repository, tolerant of anything missing or unreadable. */
export interface RepoFiles {
  exists(path: string): Promise<boolean>;
  isDirectory(path: string): Promise<boolean>;
  /** The file's text, or undefined when absent or unreadable. */
  read(path: string): Promise<string | undefined>;
  /** Names in a directory, or [] when absent. */
  list(path: string): Promise<string[]>;
}

export function repoFiles(dir: string): RepoFiles {
  return {
    exists: async (path) => (await stat(join(dir, path)).catch(() => undefined)) !== undefined,
    isDirectory: async (path) => (await stat(join(dir, path)).catch(() => undefined))?.isDirectory() ?? false,
    read: (path) => readFile(join(dir, path), 'utf8').catch(() => undefined),
    list: (path) => readdir(join(dir, path)).catch(() => []),
  };
}

/** The first of `paths` that exists. */
export async function firstExisting(files: RepoFiles, paths: readonly string[]): Promise<string | undefined> {
  for (const path of paths) if (await files.exists(path)) return path;
  return undefined;
}

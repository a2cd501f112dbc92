import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Free and total space of the file system holding a directory, in bytes (what an unprivileged writer may use). */
export interface DiskSpace {
  freeBytes: number;
  totalBytes: number;
}

const MB = 1024 * 1024;

/** The space of the file system `dir` is on (its nearest existing ancestor, when it does not exist yet). */
export async function diskSpace(dir: string): Promise<DiskSpace> {
  for (let at = dir; ; at = dirname(at)) {
    try {
      const stats = await statfs(at);
      return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) throw error;
    }
  }
}

/** Whole megabytes, rounded down, for people. */
export function megabytes(bytes: number): number {
  return Math.floor(bytes / MB);
}

/**
 * Whether the data dir has less than `minFreeMb` free: new runs wait for space then, rather than fail at `git add`
 * after all their model calls. `minFreeMb` 0 never waits.
 */
export async function dataDirLow(dataDir: string, minFreeMb: number): Promise<{ low: boolean; freeMb: number; totalMb: number }> {
  const space = await diskSpace(dataDir);
  const freeMb = megabytes(space.freeBytes);
  return { low: minFreeMb > 0 && space.freeBytes < minFreeMb * MB, freeMb, totalMb: megabytes(space.totalBytes) };
}

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
const FULL_WORDS = /No space left on device|Out of diskspace|Disk quota exceeded/i;

/**
 * Whether an error (or one of its causes) says the disk is full: Node's ENOSPC / EDQUOT, or a child process's words
 * for them (git's `No space left on device` in its stderr or message).
 */
export function isDiskFull(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; stderr?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 6; depth++) {
    if (typeof e.code === 'string' && FULL_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && FULL_WORDS.test(e.message)) return true;
    if (typeof e.stderr === 'string' && FULL_WORDS.test(e.stderr)) return true;
    e = typeof e.cause === 'object' && e.cause !== null ? (e.cause as typeof e) : undefined;
  }
  return false;
}

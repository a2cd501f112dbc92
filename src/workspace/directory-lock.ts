import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { WrenchError } from '../errors.js';

export interface DirectoryLockOptions {
  /** A lock not refreshed for this long is taken over (its holder died or hangs). Default 30 s; at least 2 s. */
  staleMs?: number;
  /** Give up waiting after this long. Default 30 minutes. */
  timeoutMs?: number;
  /** Wait between attempts. Default 100 ms (with jitter). */
  pollMs?: number;
}

const tails = new Map<string, Promise<void>>();

/**
 * Runs `fn` while holding an exclusive lock on `lockDir`: calls in this process queue up in order, and other
 * processes (on any host sharing the directory) are kept out by proper-lockfile's `mkdir` lock, refreshed while
 * `fn` runs. A lock whose holder stopped refreshing it is taken over.
 */
export async function withDirectoryLock<T>(lockDir: string, fn: () => Promise<T>, options: DirectoryLockOptions = {}): Promise<T> {
  const previous = tails.get(lockDir) ?? Promise.resolve();
  let release!: () => void;
  const current = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => current);
  tails.set(lockDir, tail);
  try {
    await previous;
    return await holdingFileLock(lockDir, fn, options);
  } finally {
    release();
    if (tails.get(lockDir) === tail) tails.delete(lockDir);
  }
}

async function holdingFileLock<T>(lockDir: string, fn: () => Promise<T>, options: DirectoryLockOptions): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const pollMs = options.pollMs ?? 100;
  const lockOptions = {
    lockfilePath: lockDir,
    realpath: false,
    retries: 0,
    stale: Math.max(2000, options.staleMs ?? 30_000),
    // Another process took the lock over (this one hung past `stale`): its work goes on; the next caller waits for it.
    onCompromised: () => undefined,
  };
  await mkdir(dirname(lockDir), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let unlock: () => Promise<void>;
  for (;;) {
    try {
      unlock = await lockfile.lock(lockDir, lockOptions);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    }
    if (Date.now() > deadline) {
      throw new WrenchError('lock_timeout', `Timed out after ${timeoutMs} ms waiting for ${lockDir}; if no Wrench worker is running, delete that directory.`);
    }
    await sleep(pollMs * (0.5 + Math.random()));
  }
  try {
    return await fn();
  } finally {
    await unlock().catch(() => undefined);
  }
}

import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WrenchError } from '../errors.js';

export interface DirectoryLockOptions {
  /** A lock whose heartbeat is older than this is taken over. Default 2 minutes. */
  staleMs?: number;
  /** Give up waiting after this long. Default 30 minutes. */
  timeoutMs?: number;
  /** Wait between attempts. Default 100 ms (with jitter). */
  pollMs?: number;
}

interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

const OWNER_FILE = 'owner.json';
const tails = new Map<string, Promise<void>>();

/**
 * Runs `fn` while holding an exclusive lock on `lockDir`: calls in this process queue up in order, and other
 * processes are kept out by an atomic `mkdir` of the lock directory, refreshed by a heartbeat. A lock left by a
 * dead process on this host, or whose heartbeat stopped, is taken over.
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
  const staleMs = options.staleMs ?? 120_000;
  const owner: LockOwner = { pid: process.pid, host: hostname(), token: randomUUID() };
  await acquire(lockDir, owner, staleMs, options.timeoutMs ?? 30 * 60_000, options.pollMs ?? 100);
  const heartbeat = setInterval(
    () => {
      const now = new Date();
      utimes(lockDir, now, now).catch(() => undefined);
    },
    Math.max(10, Math.floor(staleMs / 4)),
  );
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    if ((await readOwner(lockDir))?.token === owner.token) await rm(lockDir, { recursive: true, force: true });
  }
}

async function acquire(lockDir: string, owner: LockOwner, staleMs: number, timeoutMs: number, pollMs: number) {
  await mkdir(dirname(lockDir), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(lockDir);
      await writeFile(join(lockDir, OWNER_FILE), JSON.stringify(owner));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await isStale(lockDir, staleMs)) {
      const aside = `${lockDir}.stale-${randomUUID()}`;
      try {
        await rename(lockDir, aside);
        await rm(aside, { recursive: true, force: true });
      } catch {
        // Someone else recovered it first.
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new WrenchError('lock_timeout', `Timed out after ${timeoutMs} ms waiting for ${lockDir}; if no Wrench worker is running, delete that directory.`);
    }
    await sleep(pollMs * (0.5 + Math.random()));
  }
}

async function isStale(lockDir: string, staleMs: number): Promise<boolean> {
  let modifiedMs: number;
  try {
    modifiedMs = (await stat(lockDir)).mtimeMs;
  } catch {
    return false;
  }
  if (Date.now() - modifiedMs > staleMs) return true;
  const owner = await readOwner(lockDir);
  return owner !== undefined && owner.host === hostname() && !isAlive(owner.pid);
}

async function readOwner(lockDir: string): Promise<LockOwner | undefined> {
  try {
    return JSON.parse(await readFile(join(lockDir, OWNER_FILE), 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

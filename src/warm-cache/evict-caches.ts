import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../logging/logger.js';
import { discardTree, lockTree, readTreeState, treePoolRoot } from '../workspace/tree-pool.js';
import { warmCacheDir } from './warm-cache-dir.js';

const run = promisify(execFile);

export type CacheName = 'trees' | 'dependencies' | 'baselines' | 'downloads';
export const CACHE_NAMES: readonly CacheName[] = ['trees', 'dependencies', 'baselines', 'downloads'];

/** One entry of a cache: a working tree, a dependency snapshot, a baseline. */
export interface CacheEntry {
  path: string;
  bytes: number;
  lastUsed: number;
  /** Removes it; false when it is in use (a locked tree) and was left alone. */
  remove(): Promise<boolean>;
}

export interface EvictionLimits {
  maxAgeMs: number;
  maxBytes: Record<CacheName, number>;
}

/** The entries of one cache on this machine, with their size on disk. */
export async function cacheEntries(dataDir: string, cache: CacheName, log: Logger): Promise<CacheEntry[]> {
  if (cache === 'trees') return treeEntries(treePoolRoot(dataDir), log);
  const root = path.join(warmCacheDir(dataDir), cache);
  if (cache === 'baselines') {
    const names = (await readdir(root).catch(() => [] as string[])).filter((name) => name.endsWith('.json'));
    return Promise.all(
      names.map(async (name) => {
        const file = path.join(root, name);
        const stats = await stat(file);
        return { path: file, bytes: stats.size, lastUsed: stats.mtimeMs, remove: async () => (await rm(file, { force: true }), true) };
      }),
    );
  }
  if (cache === 'downloads') {
    // One entry per repository; its folder's time is set each time a setup step opens it.
    const names = await readdir(root).catch(() => [] as string[]);
    return Promise.all(
      names.map(async (name) => {
        const dir = path.join(root, name);
        return { path: dir, bytes: await diskBytes(dir), lastUsed: (await stat(dir)).mtimeMs, remove: () => removeSnapshot(dir) };
      }),
    );
  }
  const entries: CacheEntry[] = [];
  for (const repository of await readdir(root).catch(() => [] as string[])) {
    for (const key of await readdir(path.join(root, repository)).catch(() => [] as string[])) {
      if (!/^[0-9a-f]{64}$/.test(key)) continue;
      const dir = path.join(root, repository, key);
      entries.push({ path: dir, bytes: await diskBytes(dir), lastUsed: (await stat(dir)).mtimeMs, remove: () => removeSnapshot(dir) });
    }
  }
  return entries;
}

async function treeEntries(root: string, log: Logger): Promise<CacheEntry[]> {
  const entries: CacheEntry[] = [];
  for (const pool of await readdir(root).catch(() => [] as string[])) {
    for (const name of await readdir(path.join(root, pool)).catch(() => [] as string[])) {
      if (!/^\d+$/.test(name)) continue;
      const slot = path.join(root, pool, name);
      const state = await readTreeState(slot);
      entries.push({
        path: slot,
        bytes: await diskBytes(slot),
        lastUsed: state?.lastUsed ?? (await stat(slot)).mtimeMs,
        remove: async () => {
          const unlock = await lockTree(slot, log);
          if (!unlock) return false;
          try {
            await discardTree(slot);
            return true;
          } finally {
            await unlock();
          }
        },
      });
    }
  }
  return entries;
}

/** A snapshot is renamed away first, so a job never starts restoring a half-deleted one. */
async function removeSnapshot(dir: string): Promise<boolean> {
  const aside = `${dir}.evicted-${randomBytes(4).toString('hex')}.tmp`;
  await rename(dir, aside);
  await run('chmod', ['-R', 'u+w', aside]);
  await rm(aside, { recursive: true, force: true });
  return true;
}

async function diskBytes(dir: string): Promise<number> {
  const { stdout } = await run('du', ['-sk', dir]).catch(() => ({ stdout: '0' }));
  return Number(stdout.split('\t')[0]) * 1024 || 0;
}

export interface EvictionResult {
  cache: CacheName;
  removed: string[];
  keptBytes: number;
}

/**
 * Removes what was not used for `maxAgeMs`, then, newest first, everything beyond each cache's size cap: the least
 * recently used go. Trees in use are left alone.
 */
export async function evictCaches(dataDir: string, limits: EvictionLimits, log: Logger, now = Date.now()): Promise<EvictionResult[]> {
  const results: EvictionResult[] = [];
  for (const cache of CACHE_NAMES) {
    const entries = (await cacheEntries(dataDir, cache, log)).sort((a, b) => b.lastUsed - a.lastUsed);
    const removed: string[] = [];
    let keptBytes = 0;
    for (const entry of entries) {
      const tooOld = now - entry.lastUsed > limits.maxAgeMs;
      if (!tooOld && keptBytes + entry.bytes <= limits.maxBytes[cache]) {
        keptBytes += entry.bytes;
        continue;
      }
      const gone = await entry.remove().catch((error) => {
        log.warn({ err: error, entry: entry.path }, 'could not evict a cache entry');
        return false;
      });
      if (gone) removed.push(entry.path);
      else keptBytes += entry.bytes;
    }
    if (removed.length) log.info({ cache, removed: removed.length, keptBytes }, 'evicted old cache entries');
    results.push({ cache, removed, keptBytes });
  }
  return results;
}

/** The limits of the config file's `cache` section. */
export function evictionLimits(cache: { maxAgeDays: number; maxSizeGb: Record<CacheName, number> }): EvictionLimits {
  const gb = 1024 ** 3;
  return {
    maxAgeMs: cache.maxAgeDays * 86_400_000,
    maxBytes: {
      trees: cache.maxSizeGb.trees * gb,
      dependencies: cache.maxSizeGb.dependencies * gb,
      baselines: cache.maxSizeGb.baselines * gb,
      downloads: cache.maxSizeGb.downloads * gb,
    },
  };
}

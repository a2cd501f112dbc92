import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheSizes } from '../../../app/cli/cache-sizes.js';
import { configFileSchema } from '../../../src/config/config-file.js';
import type { Config } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/logger.js';
import { BaselineCache } from '../../../src/warm-cache/baseline-cache.js';
import { DependencySnapshots } from '../../../src/warm-cache/dependency-snapshots.js';
import { cacheEntries, evictCaches, type EvictionLimits } from '../../../src/warm-cache/evict-caches.js';
import { warmCacheDir } from '../../../src/warm-cache/warm-cache-dir.js';
import { updateMirror } from '../../../src/workspace/mirror-cache.js';
import { takeTree, treePoolRoot } from '../../../src/workspace/tree-pool.js';
import { createBareRemote } from '../workspace/helpers/bare-remote.js';
import { isolateGitConfig, makeScratchDir } from '../workspace/helpers/git-sandbox.js';

isolateGitConfig();

const DAY = 86_400_000;
const log = createLogger({ level: 'silent' });
const key = (n: number) => String(n).repeat(64);
const ageBy = (path: string, days: number) => {
  const when = new Date(Date.now() - days * DAY);
  utimesSync(path, when, when);
};

describe('cache eviction by age and size', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let dataDir: string;
  const limits = (maxBytes: Partial<EvictionLimits['maxBytes']>, maxAgeDays = 14): EvictionLimits => ({
    maxAgeMs: maxAgeDays * DAY,
    maxBytes: { trees: 1e12, dependencies: 1e12, baselines: 1e12, downloads: 1e12, ...maxBytes },
  });

  beforeEach(async () => {
    scratch = await makeScratchDir();
    dataDir = join(scratch.path, 'data');
  });
  afterEach(() => scratch.remove());

  it('removes baselines unused too long, then the least recently used beyond the cap', async () => {
    const baselines = new BaselineCache(join(warmCacheDir(dataDir), 'baselines'));
    const run = { test: { command: 'x'.repeat(900), exitCode: 0, timedOut: false, passed: true, summary: { failedTests: [] }, outputTail: '', durationMs: 1 } };
    for (const n of [1, 2, 3, 4]) await baselines.put(key(n), run);
    const file = (n: number) => join(warmCacheDir(dataDir), 'baselines', `${key(n)}.json`);
    ageBy(file(1), 30);
    ageBy(file(2), 3);
    ageBy(file(3), 2);
    ageBy(file(4), 1);
    expect(await baselines.get(key(2))).toBeDefined(); // a hit counts as a use: 2 is now the newest
    const size = readFileSync(file(2)).length;

    const [, , result] = await evictCaches(dataDir, limits({ baselines: size * 2 + 10 }), log);
    expect(result!.removed.sort()).toEqual([file(1), file(3)].sort());
    expect(await baselines.get(key(2))).toBeDefined();
    expect(await baselines.get(key(4))).toBeDefined();
    expect(await baselines.get(key(3))).toBeUndefined();
  });

  it('removes the oldest read-only dependency snapshots beyond the cap', async () => {
    const snapshots = new DependencySnapshots(join(warmCacheDir(dataDir), 'dependencies'));
    const work = join(scratch.path, 'work');
    mkdirSync(join(work, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(work, 'node_modules', 'dep', 'index.js'), 'x'.repeat(64 * 1024));
    for (const n of [1, 2, 3]) await snapshots.save('acme/web', key(n), work);
    const dir = (n: number) => join(warmCacheDir(dataDir), 'dependencies', 'acme+web', key(n));
    ageBy(dir(1), 3);
    ageBy(dir(2), 1);
    ageBy(dir(3), 2);
    const [one] = await cacheEntries(dataDir, 'dependencies', log);

    const [, result] = await evictCaches(dataDir, limits({ dependencies: one!.bytes * 2 }), log);
    expect(result!.removed.sort()).toEqual([dir(1)]);
    mkdirSync(join(scratch.path, 'job'));
    expect(await snapshots.restore('acme/web', key(1), join(scratch.path, 'job'))).toBe(false);
    expect(await snapshots.restore('acme/web', key(2), join(scratch.path, 'job'))).toBe(true);
    expect(await snapshots.restore('acme/web', key(3), join(scratch.path, 'job'))).toBe(true);
  });

  it('removes the least recently used free working tree beyond the cap and never one in use; doctor prints the sizes', async () => {
    const remote = createBareRemote(join(scratch.path, 'remotes'));
    const mirror = await updateMirror({ dataDir, gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web' });
    const take = (branch: string) =>
      takeTree({
        root: treePoolRoot(dataDir),
        repository: 'acme/web',
        source: mirror.dir,
        originUrl: `${remote.gitBaseUrl}/acme/web.git`,
        label: 'acme/web',
        branch,
        size: 3,
        keep: [],
        log,
      });
    const older = (await take('wrench/a-1'))!;
    const newer = (await take('wrench/b-2'))!;
    const busy = (await take('wrench/c-3'))!;
    await older.release();
    await newer.release();
    const stateFile = `${older.workspace.dir}.json`;
    writeFileSync(stateFile, JSON.stringify({ ...JSON.parse(readFileSync(stateFile, 'utf8')), lastUsed: Date.now() - 5 * DAY }));
    const busyState = `${busy.workspace.dir}.json`;
    writeFileSync(busyState, JSON.stringify({ ...JSON.parse(readFileSync(busyState, 'utf8')), lastUsed: Date.now() - 9 * DAY }));
    const entries = await cacheEntries(dataDir, 'trees', log);
    expect(entries).toHaveLength(3);

    const config = { dataDir, file: configFileSchema.parse({}) } as unknown as Config;
    expect(await cacheSizes(config, log)).toMatch(
      /^trees \d+(\.\d)? (KB|MB) in 3 \(cap 20 GB\); dependencies 0 B in 0 \(cap 10 GB\); baselines 0 B in 0 \(cap 1 GB\)/,
    );

    const [trees] = await evictCaches(dataDir, limits({ trees: entries.find((e) => e.path === newer.workspace.dir)!.bytes + 1 }), log);
    expect(trees!.removed).toEqual([older.workspace.dir]);
    expect((await cacheEntries(dataDir, 'trees', log)).map((e) => e.path).sort()).toEqual([newer.workspace.dir, busy.workspace.dir].sort());
    await busy.release();
    const again = (await take('wrench/d-4'))!;
    expect(again.reused).toBe(true);
    await again.release();
  });
});

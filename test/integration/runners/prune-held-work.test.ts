import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pruneHeldWorkDaily } from '../../../runners/prune-held-work.js';
import { createLogger } from '../../../src/logging/logger.js';
import { heldWorkDir, listHeldTrees, listHeldWork } from '../../../src/workspace/hold-refused-work.js';
import { pollFor } from '../../fakes/shared/wait-for.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const DAY_MS = 86_400_000;

describe('pruneHeldWorkDaily', () => {
  let dataDir: TempDir;
  const bundle = (id: string) => join(heldWorkDir(dataDir.path), `${id}.bundle`);
  const hold = async (id: string, daysAgo: number) => {
    await writeFile(bundle(id), 'bundle');
    const at = new Date(Date.now() - daysAgo * DAY_MS);
    await utimes(bundle(id), at, at);
  };

  beforeEach(async () => {
    dataDir = await makeTempDir('wrench-held-');
    await mkdir(heldWorkDir(dataDir.path), { recursive: true });
    // Only the daily timer is faked: the files' ages are real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await dataDir.remove();
  });

  it('removes bundles held longer than the retention at once, and those that age past it a day later', async () => {
    await hold('wrench-old-000000000001', 15);
    await hold('wrench-aging-000000000002', 13.5);
    await hold('wrench-new-000000000003', 0);
    const stop = pruneHeldWorkDaily(dataDir.path, 14, createLogger({ level: 'silent' }));
    await pollFor(
      () => (existsSync(bundle('wrench-old-000000000001')) ? undefined : true),
      5000,
      () => 'the 15-day-old bundle to go',
    );
    expect(existsSync(bundle('wrench-aging-000000000002'))).toBe(true);
    // A day on, the 13.5-day-old one is 14.5 days old.
    await hold('wrench-aging-000000000002', 14.5);
    vi.advanceTimersByTime(DAY_MS);
    await stop();
    expect(existsSync(bundle('wrench-aging-000000000002'))).toBe(false);
    expect(existsSync(bundle('wrench-new-000000000003'))).toBe(true);
  });

  it('a missing held directory is nothing to prune', async () => {
    await dataDir.remove();
    await pruneHeldWorkDaily(dataDir.path, 14, createLogger({ level: 'silent' }))();
    expect(existsSync(heldWorkDir(dataDir.path))).toBe(false);
  });
});

describe('listing held work', () => {
  it('lists bundles (files, their size) and whole trees (directories) apart, oldest first, and nothing else', async () => {
    const dataDir = await makeTempDir('wrench-held-list-');
    try {
      const held = heldWorkDir(dataDir.path);
      await mkdir(join(held, 'run-b.tree'), { recursive: true });
      await mkdir(join(held, 'run-a.tree'));
      await writeFile(join(held, 'run-c.bundle'), 'twelve bytes');
      await writeFile(join(held, 'not-a-tree.tree'), 'a file');
      await mkdir(join(held, 'not-a-bundle.bundle'));
      await writeFile(join(held, 'other.txt'), '');
      const old = new Date(Date.now() - DAY_MS);
      await utimes(join(held, 'run-a.tree'), old, old);
      expect(await listHeldTrees(held)).toMatchObject([
        { id: 'run-a', bytes: 0 },
        { id: 'run-b', bytes: 0 },
      ]);
      expect(await listHeldWork(held)).toMatchObject([{ id: 'run-c', bytes: 12 }]);
      expect(await listHeldWork(join(held, 'missing'))).toEqual([]);
    } finally {
      await dataDir.remove();
    }
  });
});

import { spawn } from 'node:child_process';
import { mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withDirectoryLock } from '../../../src/workspace/directory-lock.js';
import { makeScratchDir } from './helpers/git-sandbox.js';

describe('withDirectoryLock', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  beforeEach(async () => {
    scratch = await makeScratchDir();
  });
  afterEach(async () => {
    await scratch.remove();
  });

  it('serializes callers in one process', async () => {
    const lock = join(scratch.path, 'repo.lock');
    let inside = 0;
    let maxInside = 0;
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3].map((i) =>
        withDirectoryLock(lock, async () => {
          inside += 1;
          maxInside = Math.max(maxInside, inside);
          await sleep(20);
          order.push(i);
          inside -= 1;
        }),
      ),
    );
    expect(maxInside).toBe(1);
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('releases after a failure', async () => {
    const lock = join(scratch.path, 'repo.lock');
    await expect(withDirectoryLock(lock, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(withDirectoryLock(lock, async () => 'ok')).resolves.toBe('ok');
  });

  it('waits while another process holds the lock, and goes in once it is released', async () => {
    const lock = join(scratch.path, 'repo.lock');
    const events: string[] = [];
    // Held the way another Wrench process holds it: proper-lockfile's refreshed mkdir lock.
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import lockfile from 'proper-lockfile'; await lockfile.lock(${JSON.stringify(lock)}, { lockfilePath: ${JSON.stringify(lock)}, realpath: false, stale: 2000 }); console.log('held'); process.stdin.on('data', () => process.exit(0));`,
      ],
      { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const exited = new Promise((resolve) => holder.on('exit', resolve));
    // A caller that cannot get in within its time limit proves the lock is held right now.
    await expect(withDirectoryLock(lock, async () => 'never', { timeoutMs: 100 })).rejects.toMatchObject({ code: 'lock_timeout' });
    const waiting = withDirectoryLock(lock, async () => void events.push('acquired'), { pollMs: 20 });
    events.push('holder told to release');
    holder.stdin.write('release\n');
    await Promise.all([exited, waiting]);
    expect(events).toEqual(['holder told to release', 'acquired']);
  });

  it('takes over a lock whose holder stopped refreshing it (it died or hangs)', async () => {
    const lock = join(scratch.path, 'repo.lock');
    mkdirSync(lock);
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, old, old);
    await expect(withDirectoryLock(lock, async () => 'recovered', { timeoutMs: 2_000 })).resolves.toBe('recovered');
  });

  it('times out with lock_timeout while a fresh lock is held', async () => {
    const lock = join(scratch.path, 'repo.lock');
    mkdirSync(lock);
    await expect(withDirectoryLock(lock, async () => 'never', { timeoutMs: 200 })).rejects.toMatchObject({
      code: 'lock_timeout',
    });
  });
});

import { spawn } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
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

  it('waits while another live process holds the lock', async () => {
    const lock = join(scratch.path, 'repo.lock');
    const holder = spawn('sleep', ['30']);
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner.json'), JSON.stringify({ pid: holder.pid, host: hostname(), token: 'other' }));
    try {
      let acquired = false;
      const waiting = withDirectoryLock(lock, async () => {
        acquired = true;
      });
      await sleep(300);
      expect(acquired).toBe(false);
      const { rmSync } = await import('node:fs');
      rmSync(lock, { recursive: true });
      await waiting;
      expect(acquired).toBe(true);
    } finally {
      holder.kill();
    }
  });

  it('takes over a lock left by a dead process', async () => {
    const lock = join(scratch.path, 'repo.lock');
    const dead = spawn('true');
    await new Promise((resolve) => dead.on('exit', resolve));
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner.json'), JSON.stringify({ pid: dead.pid, host: hostname(), token: 'dead' }));
    await expect(withDirectoryLock(lock, async () => 'recovered', { timeoutMs: 2_000 })).resolves.toBe('recovered');
  });

  it('takes over a lock whose heartbeat stopped, even from another host', async () => {
    const lock = join(scratch.path, 'repo.lock');
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner.json'), JSON.stringify({ pid: 1, host: 'elsewhere', token: 'old' }));
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, old, old);
    await expect(withDirectoryLock(lock, async () => 'recovered', { timeoutMs: 2_000 })).resolves.toBe('recovered');
  });

  it('times out with lock_timeout', async () => {
    const lock = join(scratch.path, 'repo.lock');
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner.json'), JSON.stringify({ pid: process.pid, host: hostname(), token: 'mine' }));
    await expect(withDirectoryLock(lock, async () => 'never', { timeoutMs: 200 })).rejects.toMatchObject({
      code: 'lock_timeout',
    });
  });
});

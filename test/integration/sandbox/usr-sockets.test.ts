import { lstatSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUsrSocketWatch, usrMasks } from '../../../src/sandbox/usr-sockets.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

describe('background scan of /usr', () => {
  let usr: TempDir;
  const servers: Server[] = [];
  const listen = async (file: string) => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(file, resolve));
    servers.push(server);
    return file;
  };
  const until = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('the scan never saw it');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  beforeEach(async () => {
    // Stands in for /usr, with its /usr/local.
    usr = await makeTempDir('wrench-usrscan-');
    await mkdir(path.join(usr.path, 'lib', 'daemon', 'run'), { recursive: true });
    await mkdir(path.join(usr.path, 'local', 'bin'), { recursive: true });
  });

  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
    await usr.remove();
  });

  it('the first look waits for the first scan; a socket made later is found by the next scan, /usr/local is left out', async () => {
    const early = await listen(path.join(usr.path, 'lib', 'daemon', 'run', 'early.sock'));
    await listen(path.join(usr.path, 'local', 'bin', 'local.sock'));
    const watch = createUsrSocketWatch({ roots: [usr.path], skip: [path.join(usr.path, 'local')], intervalMs: 100 });
    expect(await watch.latest()).toEqual({ sockets: [early], unlisted: [] });

    const late = await listen(path.join(usr.path, 'lib', 'late.sock'));
    await until(async () => (await watch.latest()).sockets.includes(late));
    expect((await watch.latest()).sockets).toEqual([early, late].sort());
  });

  it('a command masks only what is still a socket, in a shown directory, outside its own places', async () => {
    const kept = await listen(path.join(usr.path, 'lib', 'kept.sock'));
    const own = await listen(path.join(usr.path, 'lib', 'daemon', 'own.sock'));
    const gone = path.join(usr.path, 'lib', 'gone.sock');
    const lostDir = path.join(usr.path, 'lib', 'lost');
    const scan = { sockets: [kept, own, gone, '/elsewhere/x.sock'], unlisted: [path.join(usr.path, 'lib', 'daemon'), lostDir] };
    const masks = await usrMasks(scan, [usr.path], [path.join(usr.path, 'lib', 'daemon')]);
    expect(masks).toEqual({ sockets: [kept], unlisted: [] });
    await rm(kept);
    expect((await usrMasks(scan, [usr.path], [])).sockets).toEqual([own]);
  });

  it('scans the real /usr to the end and finds only socket files, none under /usr/local', { timeout: 120_000 }, async () => {
    const watch = createUsrSocketWatch({ intervalMs: 3_600_000 });
    const started = Date.now();
    const found = await watch.latest();
    console.info(`real /usr scan: ${Date.now() - started} ms, ${found.sockets.length} sockets, ${found.unlisted.length} unlisted`);
    for (const file of found.sockets) {
      expect(lstatSync(file, { throwIfNoEntry: false })?.isSocket() ?? true).toBe(true);
      expect(file.startsWith('/usr/') && !file.startsWith('/usr/local/')).toBe(true);
    }
    for (const dir of found.unlisted) expect(dir.startsWith('/usr/') && !dir.startsWith('/usr/local/')).toBe(true);
  });
});

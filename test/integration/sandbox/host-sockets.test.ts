import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHostSocketScanner } from '../../../src/sandbox/host-sockets.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

describe('host socket scan', () => {
  let tree: TempDir;
  const servers: Server[] = [];
  const listen = async (file: string) => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(file, resolve));
    servers.push(server);
    return server;
  };
  const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

  beforeEach(async () => {
    tree = await makeTempDir('wrench-sockscan-');
    await mkdir(path.join(tree.path, 'etc', 'deep', 'er'), { recursive: true });
    await mkdir(path.join(tree.path, 'opt', 'tool'), { recursive: true });
    await mkdir(path.join(tree.path, 'skipped'), { recursive: true });
    await writeFile(path.join(tree.path, 'etc', 'plain.conf'), 'x');
  });

  afterEach(async () => {
    for (const server of servers.splice(0)) if (server.listening) await close(server);
    await tree.remove();
  });

  it('finds socket files at any depth, not files or symlinks, and leaves out what it is told to skip', async () => {
    const deep = path.join(tree.path, 'etc', 'deep', 'er', 'db.sock');
    await listen(deep);
    await listen(path.join(tree.path, 'skipped', 'own.sock'));
    await symlink(deep, path.join(tree.path, 'opt', 'link.sock'));
    const scan = createHostSocketScanner();
    expect(await scan([tree.path], [path.join(tree.path, 'skipped')])).toEqual({ sockets: [deep], unlisted: [] });
  });

  it('reuses listings of unchanged directories, yet finds a socket that appeared, moved or went since', async () => {
    // The clock ten seconds ahead: every directory counts as settled, so only a changed ctime makes it be read again.
    const scan = createHostSocketScanner(() => Date.now() + 10_000);
    expect((await scan([tree.path])).sockets).toEqual([]);

    const inCached = path.join(tree.path, 'etc', 'deep', 'er', 'new.sock');
    const server = await listen(inCached);
    expect((await scan([tree.path])).sockets).toEqual([inCached]);

    await mkdir(path.join(tree.path, 'opt', 'tool', 'run'));
    const inNewDir = path.join(tree.path, 'opt', 'tool', 'run', 'agent.sock');
    await listen(inNewDir);
    expect((await scan([tree.path])).sockets).toEqual([inCached, inNewDir].sort());

    await close(server);
    expect((await scan([tree.path])).sockets).toEqual([inNewDir]);
  });
});

import { execFile } from 'node:child_process';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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

  it('goes past a directory it can list but not enter (a command cannot reach inside it either) instead of failing the scan', async () => {
    const listable = path.join(tree.path, 'etc', 'listable');
    await mkdir(path.join(listable, 'inner', 'deeper'), { recursive: true });
    const outside = path.join(tree.path, 'opt', 'tool', 'db.sock');
    await listen(outside);
    await chmod(tree.path, 0o755);
    await chmod(listable, 0o744); // read, no search: its entries are listed, never reached
    // As root every directory can be entered: the scan is run as nobody then, in a child process.
    const scanner = fileURLToPath(new URL('../../../src/sandbox/host-sockets.ts', import.meta.url));
    const script = `const { createHostSocketScanner } = await import(${JSON.stringify(scanner)}); console.log(JSON.stringify(await createHostSocketScanner()([${JSON.stringify(tree.path)}])));`;
    const asNobody = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
    const command = [...asNobody, process.execPath, '--import', 'tsx', '--input-type=module', '-e', script];
    const { stdout } = await promisify(execFile)(command[0]!, command.slice(1), { env: { ...process.env, HOME: tree.path } });
    expect(JSON.parse(stdout)).toEqual({ sockets: [outside], unlisted: [] });
  });
});

import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBwrapSandbox } from '../../../src/sandbox/bwrap-sandbox.js';
import { checkSandbox } from '../../../src/sandbox/check-sandbox.js';
import { pidsCgroupAvailable } from '../../../src/sandbox/pids-cgroup.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { createUsrSocketWatch } from '../../../src/sandbox/usr-sockets.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { describeSandboxContract } from './sandbox-contract.js';

const cgroupAvailable = await pidsCgroupAvailable();

describeSandboxContract('bwrap sandbox', (root, secrets) => createBwrapSandbox({ root, secrets }));

describe('bwrap sandbox: isolation', () => {
  let workspace: TempDir;
  let outside: TempDir;
  let hidden: TempDir;
  let sandbox: Sandbox;
  const run = (command: string, options: { network?: boolean; timeoutMs?: number } = {}) =>
    sandbox.exec(command, { cwd: workspace.path, timeoutMs: options.timeoutMs ?? 20_000, network: options.network });

  beforeAll(async () => {
    workspace = await makeTempDir('wrench-bwrap-ws-');
    outside = await varTempDir('wrench-bwrap-outside-');
    hidden = await makeTempDir('wrench-bwrap-hidden-');
    await writeFile(path.join(hidden.path, 'mirror-secret'), 'do not read me');
    sandbox = createBwrapSandbox({ root: workspace.path, hiddenPaths: [hidden.path], limits: { fileSizeBytes: 16 * 1024 * 1024, maxProcesses: 256 } });
  });

  afterAll(async () => {
    await Promise.all([workspace.remove(), outside.remove(), hidden.remove()]);
  });

  it('passes the sandbox check', async () => {
    expect(await checkSandbox()).toEqual({ ok: true });
  });

  it('writes inside the workspace and nowhere else', async () => {
    const target = path.join(outside.path, 'escaped');
    const result = await run(`echo in > inside.txt && echo out > ${target}; echo rc=$?; touch /etc/wrench-escape; echo rc=$?`);
    // The outside directory is not in the sandbox's root at all; /etc is there, read-only.
    expect(result.output).toMatch(new RegExp(`${target}: No such file or directory\nrc=1\n`));
    expect(result.output).toMatch(/wrench-escape.*Read-only file system\nrc=1\n/);
    expect(readFileSync(path.join(workspace.path, 'inside.txt'), 'utf8')).toBe('in\n');
    expect(existsSync(target)).toBe(false);
    expect(existsSync('/etc/wrench-escape')).toBe(false);
  });

  it("cannot change the tree's pack files, but git still commits (as loose objects)", async () => {
    const git = `git -c user.name=a -c user.email=a@b.c`;
    await run(`git init -q . && echo one > a.txt && git add a.txt && ${git} commit -qm one && git repack -adq`);
    const packs = path.join(workspace.path, '.git', 'objects', 'pack');
    const pack = readdirSync(packs).find((name) => name.endsWith('.pack'))!;
    const size = statSync(path.join(packs, pack)).size;
    const result = await run(
      `chmod u+w .git/objects/pack/${pack}; echo rc=$?; echo x >> .git/objects/pack/${pack}; echo rc=$?; echo two > a.txt && git add a.txt && ${git} commit -qm two; echo rc=$?`,
    );
    expect(result.output).toMatch(/^chmod: .*Read-only file system\nrc=1\n.*\nrc=1\nrc=0\n$/);
    expect(statSync(path.join(packs, pack)).size).toBe(size);
    expect(readdirSync(packs).filter((name) => name.endsWith('.pack'))).toEqual([pack]);
    await rm(path.join(workspace.path, '.git'), { recursive: true, force: true });
  });

  it('has a private /tmp', async () => {
    const hostMarker = path.join('/tmp', `wrench-host-marker-${process.pid}`);
    await writeFile(hostMarker, 'host');
    try {
      const result = await run(`ls -A /tmp; test -e ${hostMarker} && echo visible; echo sandbox > /tmp/wrench-inside-${process.pid}; echo wrote=$?`);
      expect(result.output).not.toContain('visible');
      expect(result.output).toContain('wrote=0');
      expect(existsSync(`/tmp/wrench-inside-${process.pid}`)).toBe(false);
    } finally {
      await rm(hostMarker, { force: true });
    }
  });

  it('hides /root, /home, /run and the given hidden paths', async () => {
    const result = await run(
      `for d in /root /home /run ${hidden.path}; do echo "$d: $(ls -A $d | wc -l)"; done; cat /root/.ssh/id_rsa; cat ${hidden.path}/mirror-secret`,
    );
    expect(result.output).not.toContain('do not read me');
    for (const dir of ['/root', '/home', '/run', hidden.path]) expect(result.output).toContain(`${dir}: 0\n`);
    expect(result.output).toContain('/root/.ssh/id_rsa: No such file or directory');
  });

  it("runs Wrench's own Node.js, read-only, even when it is installed under a hidden place (a project's .tools)", async () => {
    const runtime = path.dirname(path.dirname(realpathSync(process.execPath)));
    const hiding = createBwrapSandbox({ root: workspace.path, hiddenPaths: [path.dirname(runtime)] });
    const result = await hiding.exec(`node -p process.version && touch ${runtime}/bin/planted`, { cwd: workspace.path, timeoutMs: 20_000 });
    expect(result.output).toMatch(new RegExp(`^${process.version.replaceAll('.', '\\.')}\n`));
    expect(result.output).toMatch(/Read-only file system/);
  });

  it("cannot see the host's processes: PID 1 is bubblewrap", async () => {
    const result = await run(
      `cat /proc/1/cmdline | tr '\\0' ' '; echo; ls /proc | grep -c '^[0-9]'; test -e /proc/${process.pid} && echo SEES_HOST_$((40+2)); cat /proc/1/environ | tr '\\0' '\\n'`,
    );
    const [cmdline, count] = result.output.split('\n');
    expect(cmdline!.startsWith('bwrap ')).toBe(true);
    expect(Number(count)).toBeLessThan(10);
    expect(result.output).not.toContain('SEES_HOST_42');
    for (const key of Object.keys(process.env).filter((name) => /TOKEN|SECRET|KEY/.test(name))) expect(result.output).not.toContain(`${key}=`);
  });

  describe('network', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer((socket) => socket.end('hello from host\n'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('is off by default: a server on the host loopback is unreachable', async () => {
      const result = await run(`exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3; echo rc=$?`);
      expect(result.output).not.toContain('hello from host');
      expect(result.output).toContain('rc=1');
    });

    it('with network, still never reaches the host loopback: the way out is the egress proxy', async () => {
      const result = await run(`exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3; echo rc=$?; echo "proxy=$HTTPS_PROXY"`, { network: true });
      expect(result.output).not.toContain('hello from host');
      expect(result.output).toMatch(/proxy=http:\/\/127\.0\.0\.1:\d+/);
    });
  });

  describe('host Unix sockets under the shown system directories', () => {
    const dirs: string[] = [];
    const servers: Server[] = [];
    const seen: string[] = [];
    const listenUnder = async (parent: string) => {
      const dir = await mkdtemp(path.join(parent, 'wrench-sock-'));
      dirs.push(dir);
      const file = path.join(dir, 'service.sock');
      const server = createServer((socket) => {
        seen.push(file);
        socket.end('hello from host\n');
      });
      await new Promise<void>((resolve) => server.listen(file, resolve));
      servers.push(server);
      return file;
    };
    const probe = (file: string) =>
      `node -e 'const s = require("net").connect(process.argv[1]); s.on("connect", () => console.log("CONNECTED")); s.on("error", (e) => console.log(e.code)); s.on("data", (d) => process.stdout.write(String(d)))' ${file}; ls -l ${file}`;

    afterAll(async () => {
      for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    });

    // Tests run as root here; a host where /etc and /opt cannot be written has no place to put the listeners.
    it.skipIf(!writable('/etc') || !writable('/opt'))(
      'connect() on a socket under /etc or /opt is refused, also one made after the sandbox ran a command',
      async () => {
        const early = await listenUnder('/opt');
        expect((await run(probe(early))).output).toContain('ECONNREFUSED');
        const late = [await listenUnder('/etc'), await listenUnder('/opt')];
        for (const file of [early, ...late]) {
          const result = await run(probe(file), { network: true });
          expect(result.output).toContain('ECONNREFUSED');
          expect(result.output).not.toContain('hello from host');
          // What stands in its place: /dev/null, a character device, not the host's socket.
          expect(result.output).toMatch(new RegExp(`^c.* ${file.replace(/[.]/g, '\\.')}$`, 'm'));
        }
        expect(seen).toEqual([]);
      },
    );

    // The rest of /usr is scanned in the background: a watch of the real /usr of its own, scanning again every 200 ms.
    it.skipIf(!writable('/usr/lib'))(
      'connect() on a socket under /usr outside /usr/local is refused once the background scan has seen it; one gone since stops no command',
      { timeout: 120_000 },
      async () => {
        const watch = createUsrSocketWatch({ intervalMs: 200 });
        const usrSandbox = createBwrapSandbox({ root: workspace.path, usrSockets: watch });
        const runHere = (command: string) => usrSandbox.exec(command, { cwd: workspace.path, timeoutMs: 20_000 });
        const early = await listenUnder('/usr/lib');
        // The first command waits for the first scan.
        expect((await runHere(probe(early))).output).toContain('ECONNREFUSED');

        const late = await listenUnder('/usr/share');
        await until(async () => (await watch.latest()).sockets.includes(late));
        for (const file of [early, late]) {
          const result = await runHere(probe(file));
          expect(result.output).toContain('ECONNREFUSED');
          expect(result.output).toMatch(new RegExp(`^c.* ${file.replace(/[.]/g, '\\.')}$`, 'm'));
        }
        expect(seen).toEqual([]);

        // Closed (its file removed) after the latest scan, which a watch that never scans again keeps: the command
        // still starts, with no mount point to make for it in the read-only /usr.
        const once = createUsrSocketWatch({ intervalMs: 3_600_000 });
        expect((await once.latest()).sockets).toContain(late);
        await new Promise<void>((resolve) => servers[servers.length - 1]!.close(() => resolve()));
        expect(existsSync(late)).toBe(false);
        const after = await createBwrapSandbox({ root: workspace.path, usrSockets: once }).exec('echo started', { cwd: workspace.path, timeoutMs: 20_000 });
        expect(after.output).toContain('started');
        expect(after.exitCode).toBe(0);
      },
    );
  });

  it('a socket found by the scan and gone before bwrap starts costs the command nothing: scanned again, it runs once', async () => {
    const gone = `/etc/wrench-gone-${process.pid}.sock`;
    expect(existsSync(gone)).toBe(false);
    const scans: number[] = [];
    // The first scan names a socket that is no longer there (closed between the scan and bwrap's start).
    const scanSockets = async () => {
      scans.push(scans.length);
      return scans.length === 1 ? { sockets: [gone], unlisted: [] } : { sockets: [], unlisted: [] };
    };
    const sandbox = createBwrapSandbox({ root: workspace.path, scanSockets, waitForUsrScan: false });
    const marker = path.join(workspace.path, 'runs.txt');
    const result = await sandbox.exec(`echo ran >> ${marker}; echo started`, { cwd: workspace.path, timeoutMs: 20_000 });
    expect(result.output).toContain('started');
    expect(result.exitCode).toBe(0);
    expect(scans).toHaveLength(2);
    expect(readFileSync(marker, 'utf8')).toBe('ran\n');
    // A command that fails by itself, even with bwrap's words, is not run again.
    const own = await sandbox.exec(`echo ran >> ${marker}; echo "bwrap: Can't create file at /etc/other: x"; exit 1`, {
      cwd: workspace.path,
      timeoutMs: 20_000,
    });
    expect(own.exitCode).toBe(1);
    expect(readFileSync(marker, 'utf8')).toBe('ran\nran\n');
  });

  // Without a pids cgroup only the timeout and the host-pressure watchdog stop a fork bomb: too rough for a shared test host.
  it.skipIf(!cgroupAvailable)('contains a fork bomb and kills it on timeout, leaving the host fine', async () => {
    const tasksBefore = hostTasks();
    const result = await run(':(){ :|:& };:; sleep 60', { timeoutMs: 3_000 });
    expect(result.timedOut).toBe(true);
    expect(result.durationMs).toBeLessThan(10_000);
    // The process table, not a pause: every forked process is gone soon after the timeout.
    const deadline = Date.now() + 5_000;
    while (hostTasks() >= tasksBefore + 100 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(hostTasks()).toBeLessThan(tasksBefore + 100);
    expect(spawnSync('true').status).toBe(0);
  });

  it('stops a file larger than the file-size limit', async () => {
    await mkdir(path.join(workspace.path, 'big'), { recursive: true });
    const result = await run('head -c 2G /dev/zero > big/file; echo rc=$?', { timeoutMs: 30_000 });
    expect(result.output).toContain('rc=153');
    expect((await stat(path.join(workspace.path, 'big', 'file'))).size).toBeLessThanOrEqual(16 * 1024 * 1024);
  });

  it('limits memory', async () => {
    // 1 GiB: Node 22+ reserves about 600 MB of private address space (V8's code range) before it runs anything.
    const limited = createBwrapSandbox({ root: workspace.path, limits: { memoryBytes: 1024 * 1024 * 1024 } });
    const result = await limited.exec(
      `node -e 'const small = Buffer.alloc(64 * 1024 * 1024); console.log("small", small.length); try { Buffer.alloc(2 * 1024 * 1024 * 1024); console.log("big allocated") } catch (e) { console.log("big refused") }'`,
      { cwd: workspace.path, timeoutMs: 20_000 },
    );
    expect(result.output).toContain('small 67108864');
    expect(result.output).toContain('big refused');
  });

  it('limits CPU time', async () => {
    const limited = createBwrapSandbox({ root: workspace.path, limits: { cpuSeconds: 1 } });
    const result = await limited.exec('bash -c "while :; do :; done"; echo rc=$?', { cwd: workspace.path, timeoutMs: 20_000 });
    expect(result.output).toMatch(/rc=(137|152)/);
    expect(result.timedOut).toBe(false);
  });
});

/** A directory outside /tmp, which the sandbox replaces with its own. */
async function varTempDir(prefix: string): Promise<TempDir> {
  const dir = await mkdtemp(path.join('/var/tmp', prefix));
  return { path: dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function hostTasks(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[3]!.split('/')[1]);
}

import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mirrorDir, updateMirror } from '../../../src/workspace/mirror-cache.js';
import { startGitHubFake } from '../../fakes/github-fake.js';
import { type BareRemote, createBareRemote } from './helpers/bare-remote.js';
import { isolateGitConfig, makeScratchDir, testGit } from './helpers/git-sandbox.js';

isolateGitConfig();

const TOKEN = 'ghp_mirrormirrormirrormirrormirror1234';

describe('updateMirror', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let remote: BareRemote;
  let dataDir: string;

  beforeEach(async () => {
    scratch = await makeScratchDir();
    remote = createBareRemote(join(scratch.path, 'remotes'));
    dataDir = join(scratch.path, 'data');
  });
  afterEach(async () => {
    await scratch.remove();
  });

  const update = () => updateMirror({ dataDir, gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web' });

  it('clones a bare mirror the first time and only fetches afterwards', async () => {
    const first = await update();
    expect(first).toEqual({
      dir: mirrorDir(dataDir, 'acme', 'web'),
      created: true,
      head: 'main',
      refs: `${remote.sha('refs/heads/main')} refs/heads/main\n`,
    });
    expect(first.dir).toBe(join(dataDir, 'mirrors', 'acme', 'web.git'));
    expect(testGit(['rev-parse', '--is-bare-repository'], first.dir)).toBe('true');
    expect(testGit(['rev-parse', 'refs/heads/main'], first.dir)).toBe(remote.sha('refs/heads/main'));
    writeFileSync(join(first.dir, 'wrench-marker'), 'kept');

    const newSha = remote.commit({ 'src/new.js': 'new\n' }, 'New work');
    remote.commit({ 'x.txt': 'x' }, 'Feature', { branch: 'feature/x' });
    const second = await update();
    expect(second.created).toBe(false);
    expect(readFileSync(join(first.dir, 'wrench-marker'), 'utf8')).toBe('kept');
    expect(testGit(['rev-parse', 'refs/heads/main'], first.dir)).toBe(newSha);
    expect(testGit(['rev-parse', 'refs/heads/feature/x'], first.dir)).toBe(remote.sha('refs/heads/feature/x'));
    expect(second.refs).toBe(`${remote.sha('refs/heads/feature/x')} refs/heads/feature/x\n${newSha} refs/heads/main\n`);
  });

  it('over HTTP, with the token: lists the remote first and fetches only when its branches or tags changed', async () => {
    const github = await startGitHubFake({ strictTokens: true, users: { [TOKEN]: 'wrench-bot' } });
    try {
      await github.createRepo('acme', 'private', { 'README.md': 'hi\n' }, { private: true });
      const updateOverHttp = () => updateMirror({ dataDir, gitBaseUrl: github.gitBaseUrl, owner: 'acme', repo: 'private', credential: TOKEN });
      const gitCommands = () =>
        github.requests
          .filter((r) => r.path.startsWith('/acme/private.git/'))
          .map((r) => (r.body as { command?: string }).command ?? `${r.method} ${r.status}`);
      const first = await updateOverHttp();
      expect(first.created).toBe(true);
      expect(github.requests.filter((r) => r.path.startsWith('/acme/private.git/')).every((r) => r.token === TOKEN)).toBe(true);

      github.requests.length = 0;
      const unchanged = await updateOverHttp();
      expect(unchanged).toEqual({ ...first, created: false });
      expect(gitCommands()).toEqual(['GET 200', 'ls-refs']);

      github.requests.length = 0;
      const sha = await github.commit('acme', 'private', 'feature', { message: 'Feature', files: { 'f.txt': 'f\n' } });
      const changed = await updateOverHttp();
      // The listing is asked in process, on the capabilities learnt above: one request. The fetch is git's own.
      expect(gitCommands()).toEqual(['ls-refs', 'GET 200', 'ls-refs', 'fetch']);
      expect(changed.refs).toContain(`${sha} refs/heads/feature\n`);
      expect(testGit(['rev-parse', 'refs/heads/feature'], changed.dir)).toBe(sha);

      await expect(updateMirror({ dataDir, gitBaseUrl: github.gitBaseUrl, owner: 'acme', repo: 'private', credential: 'ghp_wrong' })).rejects.toMatchObject({
        code: 'git_failed',
      });
      expect(testGit(['rev-parse', 'refs/heads/feature'], changed.dir)).toBe(sha);
    } finally {
      await github.stop();
    }
  });

  it('prunes deleted branches and follows a new default branch', async () => {
    remote.commit({ 'x.txt': 'x' }, 'Feature', { branch: 'feature/x' });
    remote.commit({ 'y.txt': 'y' }, 'Trunk', { branch: 'trunk' });
    const { dir } = await update();
    testGit(['update-ref', '-d', 'refs/heads/feature/x'], remote.bareDir);
    testGit(['symbolic-ref', 'HEAD', 'refs/heads/trunk'], remote.bareDir);
    await update();
    expect(testGit(['for-each-ref', '--format=%(refname)', 'refs/heads'], dir).split('\n')).toEqual(['refs/heads/main', 'refs/heads/trunk']);
    expect(testGit(['symbolic-ref', 'HEAD'], dir)).toBe('refs/heads/trunk');
  });

  it('drops what fetches of a process that died left under refs/wrench-incoming once they are older than any fetch runs', async () => {
    const { dir } = await update();
    const main = remote.sha('refs/heads/main');
    const old = `refs/wrench-incoming/${Date.now() - 11 * 60_000}-dead/heads/main`;
    const recent = `refs/wrench-incoming/${Date.now() - 60_000}-running/heads/main`;
    testGit(['update-ref', old, main], dir);
    testGit(['update-ref', recent, main], dir);
    remote.commit({ 'src/next.js': 'next\n' }, 'Next');
    await update();
    // The recent one may belong to a fetch still under way in another process: it stays.
    expect(testGit(['for-each-ref', '--format=%(refname)', 'refs/wrench-incoming'], dir)).toBe(recent);
  });

  it('on opening a mirror, drops at once the refs of a fetch whose process on this host is gone, with nothing to fetch', async () => {
    const { dir } = await update();
    const main = remote.sha('refs/heads/main');
    const host = hostname().replace(/[^A-Za-z0-9-]/g, '-');
    const exited = spawn('true');
    await once(exited, 'exit');
    const sleeper = spawn('sleep', ['60']);
    try {
      const incoming = (pid: number | undefined, on = host) => `refs/wrench-incoming/${Date.now() - 60_000}-${randomUUID()}-${pid}-${on}/heads/main`;
      const dead = incoming(exited.pid);
      const kept = [incoming(sleeper.pid), incoming(process.pid), incoming(exited.pid, 'another-host')].sort();
      for (const name of [dead, ...kept]) testGit(['update-ref', name, main], dir);
      const again = await update();
      expect(again.refs).toBe(`${main} refs/heads/main\n`);
      // A running process's fetch, this process's own, and another host's (its process cannot be checked from here) stay.
      expect(testGit(['for-each-ref', '--format=%(refname)', 'refs/wrench-incoming'], dir).split('\n').sort()).toEqual(kept);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('a fetch whose refs were dropped before the move leaves the mirror as it was instead of deleting its branches', async () => {
    const { dir } = await update();
    const before = remote.sha('refs/heads/main');
    remote.commit({ 'src/next.js': 'next\n' }, 'Next');
    const dropIncoming = async () => {
      for (const name of testGit(['for-each-ref', '--format=%(refname)', 'refs/wrench-incoming'], dir).split('\n').filter(Boolean))
        testGit(['update-ref', '-d', name], dir);
    };
    await updateMirror({ dataDir, gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web', beforeRefsMove: dropIncoming });
    expect(testGit(['rev-parse', 'refs/heads/main'], dir)).toBe(before);
    const after = await update();
    expect(after.refs).toBe(`${remote.sha('refs/heads/main')} refs/heads/main\n`);
  });

  it('keeps the plain public URL in the mirror config', async () => {
    const { dir } = await update();
    expect(testGit(['config', 'remote.origin.url'], dir)).toBe(`${remote.gitBaseUrl}/acme/web.git`);
    expect(testGit(['config', '--get-all', 'remote.origin.fetch'], dir).split('\n')).toEqual(['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*']);
  });

  it('replaces a broken mirror directory', async () => {
    const { dir } = await update();
    const { rmSync } = await import('node:fs');
    rmSync(join(dir, 'HEAD'));
    const again = await update();
    expect(again.created).toBe(true);
    expect(existsSync(join(dir, 'HEAD'))).toBe(true);
  });

  it('serializes concurrent updates in one process', async () => {
    const results = await Promise.all([update(), update(), update(), update()]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it('survives concurrent updates from several processes', async () => {
    const run = promisify(execFile);
    const script = fileURLToPath(new URL('./helpers/update-mirror-process.ts', import.meta.url));
    const args = JSON.stringify({ dataDir, gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web' });
    const outputs = await Promise.all([0, 1, 2].map(() => run(process.execPath, ['--import', 'tsx', script, args], { env: process.env })));
    const results = outputs.map(({ stdout }) => JSON.parse(stdout) as { created: boolean });
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const dir = mirrorDir(dataDir, 'acme', 'web');
    expect(testGit(['fsck', '--no-progress'], dir)).toBe('');
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('fails with git_failed for a missing repository', async () => {
    await expect(updateMirror({ dataDir, gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'missing' })).rejects.toMatchObject({ code: 'git_failed' });
    expect(existsSync(mirrorDir(dataDir, 'acme', 'missing'))).toBe(false);
  });
});

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { type Mirror, updateMirror } from '../../../src/workspace/mirror-cache.js';
import { repositoryUrl } from '../../../src/workspace/repository-url.js';
import { poolDir, type TakeTreeOptions, takeTree } from '../../../src/workspace/tree-pool.js';
import { type BareRemote, createBareRemote } from './helpers/bare-remote.js';
import { isolateGitConfig, makeScratchDir, testGit } from './helpers/git-sandbox.js';

isolateGitConfig();

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('working-tree pool', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let remote: BareRemote;
  let dataDir: string;
  const log = createLogger({ level: 'silent' });

  beforeEach(async () => {
    scratch = await makeScratchDir();
    remote = createBareRemote(join(scratch.path, 'remotes'));
    dataDir = join(scratch.path, 'data');
  });
  afterEach(() => scratch.remove());

  async function options(branch: string, more: Partial<TakeTreeOptions> = {}): Promise<TakeTreeOptions> {
    const mirror = await updateMirror({ dataDir, gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web' });
    return {
      root: join(dataDir, 'trees'),
      repository: 'acme/web',
      source: mirror.dir,
      originUrl: repositoryUrl(remote.gitBaseUrl, 'acme', 'web'),
      label: 'acme/web',
      branch,
      size: 2,
      keep: ['node_modules'],
      sourceRefs: mirror,
      log,
      ...more,
    };
  }

  it('a reused tree has none of the previous job’s files, stashes, refs, hooks, config, info or stray objects', async () => {
    const first = (await takeTree(await options('wrench/one-1')))!;
    expect(first.reused).toBe(false);
    const dir = first.workspace.dir;
    const git = (...args: string[]) => testGit(args, dir);
    // What a job (or its agent) leaves behind. README.md: same size, and its modification time put back.
    const readme = statSync(join(dir, 'README.md'));
    writeFileSync(join(dir, 'README.md'), '# Bad\n');
    utimesSync(join(dir, 'README.md'), readme.atime, readme.mtime);
    writeFileSync(join(dir, 'src', 'app.js'), 'export const greeting = "changed";\n');
    writeFileSync(join(dir, 'notes.txt'), 'scratch\n');
    git('stash', '--include-untracked');
    writeFileSync(join(dir, 'src', 'app.js'), 'export const greeting = "edited again";\n');
    writeFileSync(join(dir, 'debug.log'), 'ignored file\n');
    mkdirSync(join(dir, 'build'));
    writeFileSync(join(dir, 'build', 'out.js'), 'untracked\n');
    git('tag', 'agent-tag');
    git('branch', 'agent-branch');
    writeFileSync(join(dir, '.git', 'hooks', 'post-checkout'), '#!/bin/sh\ntouch /tmp/pwned\n', { mode: 0o755 });
    git('config', 'core.pager', 'evil');
    git('config', 'filter.x.smudge', 'evil');
    git('config', 'alias.st', 'status');
    writeFileSync(join(dir, '.git', 'info', 'exclude'), 'secret\n');
    writeFileSync(join(dir, '.git', 'info', 'attributes'), '* filter=x\n');
    writeFileSync(join(dir, '.git', 'objects', 'info', 'alternates'), '/elsewhere/objects\n');
    const firstSha = first.workspace.headSha;
    await first.release();

    const newSha = remote.commit({ 'src/new.js': 'export const added = true;\n' }, 'Add new');
    const second = (await takeTree(await options('wrench/two-2')))!;
    expect(second.reused).toBe(true);
    expect(second.workspace.dir).toBe(dir);
    expect(second.workspace).toMatchObject({ baseBranch: 'main', branch: 'wrench/two-2', baseSha: newSha, headSha: newSha });
    expect(newSha).not.toBe(firstSha);
    expect(git('rev-parse', 'HEAD')).toBe(newSha);
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('wrench/two-2');
    expect(git('status', '--porcelain', '--ignored', '--untracked-files=all')).toBe('');
    expect(readFileSync(join(dir, 'src', 'app.js'), 'utf8')).toBe('export const greeting = "hello";\n');
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('# Web\n');
    expect(readFileSync(join(dir, 'src', 'new.js'), 'utf8')).toContain('added');
    for (const gone of ['notes.txt', 'debug.log', 'build', '.git/hooks/post-checkout', '.git/info/attributes', '.git/objects/info/alternates']) {
      expect(existsSync(join(dir, gone)), gone).toBe(false);
    }
    expect(git('stash', 'list')).toBe('');
    expect(git('for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/tags', 'refs/stash')).toBe('refs/heads/wrench/two-2');
    expect(readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8')).toBe('');
    const config = git('config', '--list', '--local');
    expect(config).not.toMatch(/pager|filter|alias/);
    expect(git('remote', 'get-url', 'origin')).toBe(repositoryUrl(remote.gitBaseUrl, 'acme', 'web'));
    expect(git('count-objects')).toMatch(/^0 objects/);
    expect(git('fsck', '--no-dangling')).toBe('');
    await second.release();
  });

  it('keeps untouched dependency directories, and drops them once a job edited a file in them', async () => {
    const first = (await takeTree(await options('wrench/deps-1')))!;
    const dir = first.workspace.dir;
    mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    await first.keepDependencies('a'.repeat(64));
    mkdirSync(join(dir, 'node_modules', '.vite'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', '.vite', 'results.json'), '{}');
    await first.release();

    const second = (await takeTree(await options('wrench/deps-2')))!;
    expect(second.dependencies).toBe('a'.repeat(64));
    expect(readFileSync(join(dir, 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('module.exports = 1;\n');
    expect(existsSync(join(dir, 'node_modules', '.vite'))).toBe(false);
    writeFileSync(join(dir, 'node_modules', 'dep', 'index.js'), 'module.exports = 2;\n');
    await second.release();

    const third = (await takeTree(await options('wrench/deps-3')))!;
    expect(third.dependencies).toBeUndefined();
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    await third.release();
  });

  it('two jobs at once on one repository get different trees; beyond the pool size there is none to take', async () => {
    const [a, b] = await Promise.all([takeTree(await options('wrench/a-1')), takeTree(await options('wrench/b-2'))]);
    expect(a && b).toBeTruthy();
    expect(a!.workspace.dir).not.toBe(b!.workspace.dir);
    expect(await takeTree(await options('wrench/c-3'))).toBeUndefined();
    await a!.release();
    const c = await takeTree(await options('wrench/c-3'));
    expect(c?.workspace.dir).toBe(a!.workspace.dir);
    await Promise.all([b!.release(), c!.release()]);
  });

  it('never gives a tree to another repository', async () => {
    const other = createBareRemote(join(scratch.path, 'remotes'), 'acme', 'api');
    const web = (await takeTree(await options('wrench/w-1')))!;
    await web.release();
    const mirror = await updateMirror({ dataDir, gitBaseUrl: other.gitBaseUrl, owner: 'acme', repo: 'api' });
    const api = (await takeTree(await options('wrench/a-1', { repository: 'acme/api', source: mirror.dir, sourceRefs: mirror, label: 'acme/api' })))!;
    expect(api.reused).toBe(false);
    expect(api.workspace.dir).not.toBe(web.workspace.dir);
    await api.release();
  });

  it('a tree whose pack files were replaced or resized is cloned afresh; one git merely freshened (its times) is kept', async () => {
    const first = (await takeTree(await options('wrench/p-1')))!;
    const packs = join(first.workspace.dir, '.git', 'objects', 'pack');
    const name = readdirSync(packs).find((file) => file.endsWith('.pack'))!;
    utimesSync(join(packs, name), new Date(), new Date());
    await first.release();
    const kept = (await takeTree(await options('wrench/p-2')))!;
    expect(kept.reused).toBe(true);
    writeFileSync(join(packs, `${name}.new`), readFileSync(join(packs, name)));
    renameSync(join(packs, `${name}.new`), join(packs, name));
    await kept.release();
    const second = (await takeTree(await options('wrench/p-3')))!;
    expect(second.reused).toBe(false);
    expect(testGit(['fsck', '--no-dangling'], second.workspace.dir)).toBe('');
    await second.release();
  });
  it('a released tree is readied for the next job: fetched and checked out at its base tip then, so the next take on an unchanged repository only switches', async () => {
    const refresh = async () => updateMirror({ dataDir, gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web' });
    const first = (await takeTree(await options('wrench/ready-1', { refreshSource: refresh })))!;
    const dir = first.workspace.dir;
    const git = (...args: string[]) => testGit(args, dir);
    const newSha = remote.commit({ 'src/new.js': 'export const added = true;\n' }, 'Pushed while the job ran');
    await first.release();
    expect(git('rev-parse', 'HEAD')).toBe(newSha);
    expect(git('rev-parse', 'refs/remotes/origin/main')).toBe(newSha);
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');

    // The next take neither reads the source (moved away here) nor rewrites the index or a file.
    const next = await options('wrench/ready-2', { refreshSource: refresh });
    const index = statSync(join(dir, '.git', 'index'));
    const file = statSync(join(dir, 'src', 'new.js'));
    renameSync(next.source, `${next.source}.away`);
    const second = (await takeTree(next))!;
    renameSync(`${next.source}.away`, next.source);
    // Read before any git command of the test's own (status may rewrite the index).
    expect(statSync(join(dir, '.git', 'index')).mtimeMs).toBe(index.mtimeMs);
    expect(statSync(join(dir, 'src', 'new.js')).ctimeMs).toBe(file.ctimeMs);
    expect(second.reused).toBe(true);
    expect(second.workspace).toMatchObject({ baseBranch: 'main', branch: 'wrench/ready-2', baseSha: newSha, headSha: newSha });
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('wrench/ready-2');
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');

    // A branch named as an existing remote one is still refused, from the refs the tree already has.
    await second.release();
    await expect(takeTree(await options('main', { refreshSource: refresh }))).rejects.toMatchObject({ code: 'branch_exists' });
  });

  it('back to back: a released tree is back in the pool before the release refreshes the mirror, which holds no lock while it fetches', async () => {
    const held = gate();
    const fetching = gate();
    // The release's refresh of the mirror is held once it has fetched from GitHub, before it moves the mirror's refs.
    const refreshSource = () =>
      updateMirror({
        dataDir,
        gitBaseUrl: remote.gitBaseUrl,
        owner: 'acme',
        repo: 'web',
        beforeRefsMove: async () => {
          fetching.open();
          await held.promise;
        },
      });
    const first = (await takeTree(await options('wrench/b2b-1', { refreshSource })))!;
    const dir = first.workspace.dir;
    remote.commit({ 'src/one.js': 'export const one = 1;\n' }, 'Pushed while the job ran');
    let released = false;
    const releasing = first.release().then(() => {
      released = true;
    });
    await fetching.promise;

    // Another update of the mirror (the next job's) fetches and moves the refs while the release's fetch is held.
    const newSha = remote.commit({ 'src/two.js': 'export const two = 2;\n' }, 'Pushed after the reply');
    const mirror = await updateMirror({ dataDir, gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web' });
    expect(mirror.refs).toContain(`${newSha} refs/heads/main`);

    // The next job gets the same tree, on the new commit, while the release is still held; one more clones a second tree.
    const next = (await takeTree(await options('wrench/b2b-2', { sourceRefs: mirror })))!;
    expect(released).toBe(false);
    expect(next.reused).toBe(true);
    expect(next.workspace.dir).toBe(dir);
    expect(next.workspace).toMatchObject({ branch: 'wrench/b2b-2', baseSha: newSha, headSha: newSha });
    expect(testGit(['status', '--porcelain', '--untracked-files=all'], dir)).toBe('');
    const other = (await takeTree(await options('wrench/b2b-3', { sourceRefs: mirror })))!;
    expect(other.reused).toBe(false);
    held.open();
    await releasing;
    // The held fetch started before the other update: it left the mirror's refs at the newer commit, and the tree alone.
    expect(testGit(['rev-parse', 'refs/heads/main'], mirror.dir)).toBe(newSha);
    expect(testGit(['for-each-ref', 'refs/wrench-incoming'], mirror.dir)).toBe('');
    expect(testGit(['symbolic-ref', '--short', 'HEAD'], dir)).toBe('wrench/b2b-2');
    const pool = poolDir(join(dataDir, 'trees'), 'acme/web');
    expect(
      readdirSync(pool)
        .filter((name) => /^\d+$/.test(name))
        .sort(),
    ).toEqual(['0', '1']);
    await Promise.all([next.release(), other.release()]);
  });

  it('from the moment a job says it is releasing (before its reply), the next job waits for its tree', async () => {
    const first = (await takeTree(await options('wrench/say-1')))!;
    await first.releasing();
    const info = vi.spyOn(log, 'info');
    const waited = new Promise<void>((resolve) =>
      info.mockImplementation(((...args: unknown[]) => void (String(args[1]).startsWith('waiting for') && resolve())) as never),
    );
    const second = takeTree(await options('wrench/say-2'));
    await waited;
    info.mockRestore();
    await first.release();
    const next = (await second)!;
    expect(next.reused).toBe(true);
    expect(next.workspace.dir).toBe(first.workspace.dir);
    expect(readdirSync(poolDir(join(dataDir, 'trees'), 'acme/web')).filter((name) => /^\d+$/.test(name))).toEqual(['0']);
    await next.release();
  });

  it('a take whose source moved on since the release fetches and checks out the new tip; a source that cannot be refreshed at release keeps the tree usable', async () => {
    const first = (await takeTree(await options('wrench/moved-1', { refreshSource: () => Promise.reject(new Error('GitHub is down')) })))!;
    const dir = first.workspace.dir;
    await first.release();
    const newSha = remote.commit({ 'src/later.js': 'export const later = 1;\n' }, 'Later');
    const second = (await takeTree(await options('wrench/moved-2')))!;
    expect(second.reused).toBe(true);
    expect(second.workspace).toMatchObject({ baseSha: newSha, headSha: newSha });
    expect(readFileSync(join(dir, 'src', 'later.js'), 'utf8')).toContain('later');
    expect(testGit(['status', '--porcelain', '--untracked-files=all'], dir)).toBe('');
    await second.release();
  });
  it('switches on what the mirror holds while its update runs, and again when the update brought news; a failed update fails the take and keeps the tree', async () => {
    const first = (await takeTree(await options('wrench/early-1')))!;
    const dir = first.workspace.dir;
    await first.release();
    const stale = await updateMirror({ dataDir, gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web' });
    const newSha = remote.commit({ 'src/news.js': 'export const news = 1;\n' }, 'News');
    let confirm!: (refs: Mirror) => void;
    const confirmed = new Promise<Mirror>((resolve) => {
      confirm = resolve;
    });
    const taking = takeTree({ ...(await options('wrench/early-2')), sourceRefs: stale, confirmedSourceRefs: confirmed });
    confirm(await updateMirror({ dataDir, gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web' }));
    const second = (await taking)!;
    expect(second.reused).toBe(true);
    expect(second.workspace).toMatchObject({ branch: 'wrench/early-2', baseSha: newSha, headSha: newSha });
    expect(readFileSync(join(dir, 'src', 'news.js'), 'utf8')).toContain('news');
    expect(testGit(['status', '--porcelain', '--untracked-files=all'], dir)).toBe('');
    await second.release();

    const down = new Error('GitHub is down');
    const failed = Promise.reject(down);
    failed.catch(() => undefined);
    await expect(takeTree({ ...(await options('wrench/early-3')), confirmedSourceRefs: failed })).rejects.toBe(down);
    const third = (await takeTree(await options('wrench/early-4')))!;
    expect(third.reused).toBe(true);
    expect(third.workspace.dir).toBe(dir);
    await third.release();
  });
  it('worker processes share the pool: each holds its own tree, one more than the pool gets none, and trees come back for the next', async () => {
    const script = fileURLToPath(new URL('./helpers/take-tree-process.ts', import.meta.url));
    const start = async (branch: string) => {
      const { log: _log, ...serializable } = await options(branch);
      const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(serializable)], { stdio: ['pipe', 'pipe', 'inherit'] });
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out.trim());
        });
        child.once('exit', (code) => reject(new Error(`take-tree process exited with ${code} before taking`)));
      });
      const release = () =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.stdin.write('release\n');
        });
      return { got: JSON.parse(line) as { dir: string; reused: boolean; head: string } | null, release };
    };
    const held = await Promise.all(['wrench/p-a', 'wrench/p-b', 'wrench/p-c'].map(start));
    const trees = held.map((h) => h.got).filter((got) => got !== null);
    expect(trees).toHaveLength(2);
    expect(new Set(trees.map((tree) => tree.dir)).size).toBe(2);
    expect(trees.every((tree) => tree.head === remote.sha('refs/heads/main'))).toBe(true);
    await Promise.all(held.map((h) => h.release()));
    const next = await start('wrench/p-d');
    expect(next.got).toMatchObject({ reused: true });
    expect(trees.map((tree) => tree.dir)).toContain(next.got!.dir);
    await next.release();
  });
});

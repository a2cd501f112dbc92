import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mirrorDir } from '../../../src/workspace/mirror-cache.js';
import { prepareWorkspace, removeWorkspace } from '../../../src/workspace/job-workspace.js';
import { type BareRemote, createBareRemote } from './helpers/bare-remote.js';
import { isolateGitConfig, makeScratchDir, testGit } from './helpers/git-sandbox.js';

isolateGitConfig();

function grepCount(pattern: string, dir: string): number {
  try {
    return execFileSync('grep', ['-rlF', pattern, dir], { encoding: 'utf8' }).trim().split('\n').length;
  } catch {
    return 0;
  }
}

describe('prepareWorkspace', () => {
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

  const base = () => ({ dataDir, gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web' });

  it('checks out a new branch from the default branch in a private directory', async () => {
    const ws = await prepareWorkspace({ ...base(), branch: 'wrench/fix-a1', jobId: 'job-1' });
    const mainSha = remote.sha('refs/heads/main');
    expect(ws).toEqual({
      dir: join(dataDir, 'workspaces', 'job-1'),
      baseBranch: 'main',
      baseSha: mainSha,
      branch: 'wrench/fix-a1',
      headSha: mainSha,
    });
    expect(statSync(ws.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'workspaces')).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(ws.dir, 'src', 'app.js'), 'utf8')).toContain('hello');
    expect(testGit(['symbolic-ref', '--short', 'HEAD'], ws.dir)).toBe('wrench/fix-a1');
    expect(testGit(['status', '--porcelain'], ws.dir)).toBe('');
  });

  it('points origin at the public URL and leaves no trace of the mirror', async () => {
    const ws = await prepareWorkspace({ ...base(), branch: 'wrench/x-1', jobId: 'job-1' });
    const mirror = mirrorDir(dataDir, 'acme', 'web');
    expect(testGit(['remote', 'get-url', 'origin'], ws.dir)).toBe(`${remote.gitBaseUrl}/acme/web.git`);
    expect(grepCount(mirror, ws.dir)).toBe(0);
    expect(grepCount('mirrors/acme', ws.dir)).toBe(0);
    expect(existsSync(join(ws.dir, '.git', 'objects', 'info', 'alternates'))).toBe(false);
  });

  it('copies objects instead of hard-linking them to the mirror', async () => {
    const ws = await prepareWorkspace({ ...base(), branch: 'wrench/x-1', jobId: 'job-1' });
    const packs = execFileSync('find', [join(ws.dir, '.git', 'objects'), '-type', 'f'], { encoding: 'utf8' })
      .trim()
      .split('\n');
    for (const file of packs) expect(statSync(file).nlink).toBe(1);
  });

  it('uses a named base branch', async () => {
    const devSha = remote.commit({ 'dev.txt': 'dev' }, 'Dev', { branch: 'develop' });
    const ws = await prepareWorkspace({ ...base(), baseBranch: 'develop', branch: 'wrench/y-2', jobId: 'job-2' });
    expect(ws.baseBranch).toBe('develop');
    expect(ws.baseSha).toBe(devSha);
    expect(existsSync(join(ws.dir, 'dev.txt'))).toBe(true);
  });

  it('runs four jobs on the same repository at once, each in its own tree', async () => {
    const workspaces = await Promise.all([1, 2, 3, 4].map((n) => prepareWorkspace({ ...base(), branch: `wrench/task-${n}`, jobId: `job-${n}` })));
    expect(new Set(workspaces.map((w) => w.dir)).size).toBe(4);
    writeFileSync(join(workspaces[0]!.dir, 'only-here.txt'), 'x');
    for (const [i, ws] of workspaces.entries()) {
      expect(testGit(['symbolic-ref', '--short', 'HEAD'], ws.dir)).toBe(`wrench/task-${i + 1}`);
      expect(existsSync(join(ws.dir, 'only-here.txt'))).toBe(i === 0);
    }
  });

  it('continues an existing remote branch for follow-ups', async () => {
    const tip = remote.commit({ 'feature.txt': 'one' }, 'First round', { branch: 'wrench/feature-9' });
    const ws = await prepareWorkspace({
      ...base(),
      branch: 'wrench/feature-9',
      existingBranch: true,
      jobId: 'job-follow-up',
    });
    expect(ws.headSha).toBe(tip);
    expect(ws.baseSha).toBe(remote.sha('refs/heads/main'));
    expect(readFileSync(join(ws.dir, 'feature.txt'), 'utf8')).toBe('one');
    expect(testGit(['rev-parse', '--abbrev-ref', '@{upstream}'], ws.dir)).toBe('origin/wrench/feature-9');
  });

  it('refuses a missing existing branch, a taken new branch and a missing base', async () => {
    remote.commit({ 'f.txt': 'f' }, 'Taken', { branch: 'wrench/taken-1' });
    await expect(prepareWorkspace({ ...base(), branch: 'wrench/gone-1', existingBranch: true, jobId: 'a' })).rejects.toMatchObject({
      code: 'branch_not_found',
    });
    await expect(prepareWorkspace({ ...base(), branch: 'wrench/taken-1', jobId: 'b' })).rejects.toMatchObject({
      code: 'branch_exists',
    });
    await expect(prepareWorkspace({ ...base(), baseBranch: 'nope', branch: 'wrench/z-1', jobId: 'c' })).rejects.toMatchObject({
      code: 'base_branch_not_found',
    });
    for (const id of ['a', 'b', 'c']) expect(existsSync(join(dataDir, 'workspaces', id))).toBe(false);
  });

  it('rejects bad branch names and job ids', async () => {
    await expect(prepareWorkspace({ ...base(), branch: 'bad..name', jobId: 'j' })).rejects.toMatchObject({
      code: 'invalid_branch',
    });
    await expect(prepareWorkspace({ ...base(), branch: '-x', jobId: 'j' })).rejects.toMatchObject({
      code: 'invalid_branch',
    });
    await expect(prepareWorkspace({ ...base(), branch: 'ok', jobId: '../escape' })).rejects.toMatchObject({
      code: 'invalid_job_id',
    });
  });

  it('starts over when the job directory already exists', async () => {
    const first = await prepareWorkspace({ ...base(), branch: 'wrench/r-1', jobId: 'retry' });
    writeFileSync(join(first.dir, 'leftover.txt'), 'x');
    const second = await prepareWorkspace({ ...base(), branch: 'wrench/r-1', jobId: 'retry' });
    expect(existsSync(join(second.dir, 'leftover.txt'))).toBe(false);
  });
});

describe('removeWorkspace', () => {
  it('removes a tree with read-only directories', async () => {
    const scratch = await makeScratchDir();
    const dir = join(scratch.path, 'ws');
    mkdirSync(join(dir, 'locked', 'inner'), { recursive: true });
    writeFileSync(join(dir, 'locked', 'inner', 'f'), 'x');
    chmodSync(join(dir, 'locked', 'inner'), 0o500);
    chmodSync(join(dir, 'locked'), 0o500);
    await removeWorkspace(dir);
    expect(existsSync(dir)).toBe(false);
    await scratch.remove();
  });
});

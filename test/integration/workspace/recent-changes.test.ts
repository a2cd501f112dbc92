import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareWorkspace } from '../../../src/workspace/job-workspace.js';
import { recentCommits } from '../../../src/workspace/recent-changes.js';
import { type BareRemote, createBareRemote } from './helpers/bare-remote.js';
import { isolateGitConfig, makeScratchDir } from './helpers/git-sandbox.js';

isolateGitConfig();

describe('recentCommits', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let remote: BareRemote;

  beforeEach(async () => {
    scratch = await makeScratchDir();
    remote = createBareRemote(join(scratch.path, 'remotes'));
  });
  afterEach(async () => {
    await scratch.remove();
  });

  it('lists commits in the window, newest first, with their files', async () => {
    const day = (d: number, h = 12) => new Date(Date.UTC(2031, 0, d, h));
    remote.commit({ 'old.txt': 'old' }, 'Old change', { date: day(1) });
    const a = remote.commit({ 'src/a.js': 'a', 'src/b.js': 'b' }, 'Deploy A', { date: day(3) });
    const b = remote.commit({ 'src/a.js': 'a2', 'old.txt': null }, 'Deploy B', { date: day(4) });
    remote.commit({ 'late.txt': 'late' }, 'Too late', { date: day(6) });
    const ws = await prepareWorkspace({
      dataDir: join(scratch.path, 'data'),
      gitBaseUrl: remote.gitBaseUrl,
      owner: 'acme',
      repo: 'web',
      branch: 'wrench/triage-1',
      jobId: 'job-1',
    });

    const commits = await recentCommits({ dir: ws.dir, since: day(2), until: day(5), ref: 'origin/main' });
    expect(commits).toEqual([
      {
        sha: b,
        author: 'Dev Person',
        authorEmail: 'dev@example.com',
        date: day(4).toISOString(),
        subject: 'Deploy B',
        files: ['old.txt', 'src/a.js'],
      },
      {
        sha: a,
        author: 'Dev Person',
        authorEmail: 'dev@example.com',
        date: day(3).toISOString(),
        subject: 'Deploy A',
        files: ['src/a.js', 'src/b.js'],
      },
    ]);
    const untilNow = await recentCommits({ dir: ws.dir, since: day(5), ref: 'origin/main' });
    expect(untilNow.map((c) => c.subject)).toEqual(['Too late']);
    expect(await recentCommits({ dir: ws.dir, since: day(10), ref: 'origin/main' })).toEqual([]);
    await expect(recentCommits({ dir: ws.dir, since: day(1), ref: '--all' })).rejects.toMatchObject({
      code: 'invalid_ref',
    });
  });

  it('lists the files a merge brought in', async () => {
    const { testGit } = await import('./helpers/git-sandbox.js');
    remote.commit({ 'feature.txt': 'f' }, 'Feature work', { branch: 'feature' });
    const clone = join(scratch.path, 'merge-clone');
    testGit(['clone', '--quiet', remote.bareDir, clone], scratch.path);
    testGit(['merge', '--no-ff', '--quiet', '-m', 'Merge pull request #1', 'origin/feature'], clone);
    testGit(['push', '--quiet', 'origin', 'HEAD:main'], clone);
    const ws = await prepareWorkspace({
      dataDir: join(scratch.path, 'data'),
      gitBaseUrl: remote.gitBaseUrl,
      owner: 'acme',
      repo: 'web',
      branch: 'wrench/triage-2',
      jobId: 'job-2',
    });
    const commits = await recentCommits({ dir: ws.dir, since: new Date(Date.now() - 3_600_000), ref: 'origin/main' });
    expect(commits.find((c) => c.subject === 'Merge pull request #1')?.files).toEqual(['feature.txt']);
  });
});

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitAll } from '../../../src/workspace/commit-changes.js';
import { prepareLocalWorkspace, pushToLocal } from '../../../src/workspace/local-workspace.js';
import { isolateGitConfig, makeScratchDir, testGit } from './helpers/git-sandbox.js';

isolateGitConfig();

describe('local repository workspaces', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let localPath: string;

  beforeEach(async () => {
    scratch = await makeScratchDir();
    localPath = join(scratch.path, 'my-project');
    mkdirSync(join(localPath, 'src'), { recursive: true });
    testGit(['init', '--quiet', '--initial-branch=trunk'], localPath);
    writeFileSync(join(localPath, 'src', 'index.js'), 'one\n');
    testGit(['add', '.'], localPath);
    testGit(['commit', '--quiet', '-m', 'Start'], localPath);
  });
  afterEach(async () => {
    await scratch.remove();
  });

  it('works on a private clone and puts the result on a branch of the local repository', async () => {
    writeFileSync(join(localPath, 'uncommitted.txt'), 'mine');
    const ws = await prepareLocalWorkspace({
      dataDir: join(scratch.path, 'data'),
      localPath: join(localPath, 'src'),
      branch: 'wrench/local-1',
      jobId: 'job-1',
    });
    expect(ws.baseBranch).toBe('trunk');
    expect(ws.baseSha).toBe(testGit(['rev-parse', 'trunk'], localPath));
    expect(existsSync(join(ws.dir, 'uncommitted.txt'))).toBe(false);

    writeFileSync(join(ws.dir, 'src', 'index.js'), 'two\n');
    const commit = await commitAll({ dir: ws.dir, message: 'Two', requester: { name: 'Me', slackUserId: 'U1' } });
    const pushed = await pushToLocal({ dir: ws.dir, localPath, branch: ws.branch, guard: { secrets: [] } });
    expect(pushed).toEqual({ branch: 'wrench/local-1', sha: commit!.sha });
    expect(testGit(['rev-parse', 'refs/heads/wrench/local-1'], localPath)).toBe(commit!.sha);
    expect(testGit(['symbolic-ref', '--short', 'HEAD'], localPath)).toBe('trunk');
    expect(readFileSync(join(localPath, 'src', 'index.js'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(localPath, 'uncommitted.txt'), 'utf8')).toBe('mine');
  });

  it('refuses a path that is not a repository', async () => {
    await expect(prepareLocalWorkspace({ dataDir: join(scratch.path, 'data'), localPath: scratch.path, branch: 'x', jobId: 'j' })).rejects.toMatchObject({
      code: 'not_a_repository',
    });
  });
});

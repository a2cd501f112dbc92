import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitAll } from '../../../src/workspace/commit-changes.js';
import { prepareWorkspace } from '../../../src/workspace/job-workspace.js';
import { pushBranch } from '../../../src/workspace/push-branch.js';
import { type BareRemote, createBareRemote } from './helpers/bare-remote.js';
import { isolateGitConfig, makeScratchDir, testGit } from './helpers/git-sandbox.js';

isolateGitConfig();

const requester = { name: 'Ada', slackUserId: 'U1' };

describe('pushBranch', () => {
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

  const target = () => ({ gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web', guard: { secrets: [] } });
  const prepare = (branch: string, jobId: string, existingBranch = false) => prepareWorkspace({ ...target(), dataDir, branch, jobId, existingBranch });

  it('pushes HEAD to the branch and verifies the remote ref', async () => {
    const ws = await prepare('wrench/push-1', 'job-1');
    writeFileSync(join(ws.dir, 'a.txt'), 'a');
    const commit = await commitAll({ dir: ws.dir, message: 'Add a', requester });
    const result = await pushBranch({ ...target(), dir: ws.dir, branch: ws.branch });
    expect(result).toEqual({ branch: 'wrench/push-1', sha: commit!.sha });
    expect(remote.sha('refs/heads/wrench/push-1')).toBe(commit!.sha);
    expect(testGit(['fsck', '--no-progress'], remote.bareDir)).toBe('');
    expect(testGit(['cat-file', '-p', `${commit!.sha}:a.txt`], remote.bareDir)).toBe('a');
  });

  it('lets a follow-up continue the same branch', async () => {
    const first = await prepare('wrench/loop-1', 'job-1');
    writeFileSync(join(first.dir, 'a.txt'), 'one');
    const one = await commitAll({ dir: first.dir, message: 'One', requester });
    await pushBranch({ ...target(), dir: first.dir, branch: first.branch });

    const followUp = await prepare('wrench/loop-1', 'job-2', true);
    expect(followUp.headSha).toBe(one!.sha);
    writeFileSync(join(followUp.dir, 'b.txt'), 'two');
    const two = await commitAll({ dir: followUp.dir, message: 'Two', requester });
    await pushBranch({ ...target(), dir: followUp.dir, branch: followUp.branch });
    expect(remote.sha('refs/heads/wrench/loop-1')).toBe(two!.sha);
    expect(testGit(['rev-list', '--count', `main..wrench/loop-1`], remote.bareDir)).toBe('2');
  });

  it('fails with branch_moved when the remote branch moved, and leaves it untouched', async () => {
    const ws = await prepare('wrench/race-1', 'job-1');
    writeFileSync(join(ws.dir, 'a.txt'), 'a');
    await commitAll({ dir: ws.dir, message: 'Add a', requester });
    const theirs = remote.commit({ 'other.txt': 'x' }, 'Someone else', { branch: 'wrench/race-1' });
    const error = await pushBranch({ ...target(), dir: ws.dir, branch: ws.branch }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'branch_moved' });
    expect((error as Error).message).toMatch(/fetch first|non-fast-forward/);
    expect(remote.sha('refs/heads/wrench/race-1')).toBe(theirs);
  });

  it('force-with-lease overwrites only what the workspace last saw', async () => {
    remote.commit({ 'old.txt': 'old' }, 'Old round', { branch: 'wrench/redo-1' });
    const ws = await prepare('wrench/redo-1', 'job-1', true);
    testGit(['reset', '--quiet', '--hard', 'origin/main'], ws.dir);
    writeFileSync(join(ws.dir, 'new.txt'), 'new');
    const redone = await commitAll({ dir: ws.dir, message: 'Redo', requester });
    await expect(pushBranch({ ...target(), dir: ws.dir, branch: ws.branch })).rejects.toMatchObject({
      code: 'branch_moved',
    });
    await pushBranch({ ...target(), dir: ws.dir, branch: ws.branch, force: true });
    expect(remote.sha('refs/heads/wrench/redo-1')).toBe(redone!.sha);

    const moved = remote.commit({ 'late.txt': 'late' }, 'Late push', { branch: 'wrench/redo-1' });
    const error = await pushBranch({ ...target(), dir: ws.dir, branch: ws.branch, force: true }).catch((e) => e);
    expect(error).toMatchObject({ code: 'branch_moved' });
    expect(remote.sha('refs/heads/wrench/redo-1')).toBe(moved);
  });

  it('never runs hooks the agent planted in the workspace', async () => {
    const ws = await prepare('wrench/hook-1', 'job-1');
    const marker = join(scratch.path, 'pre-push-ran');
    const { chmodSync, existsSync } = await import('node:fs');
    writeFileSync(join(ws.dir, '.git', 'hooks', 'pre-push'), `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(join(ws.dir, '.git', 'hooks', 'pre-push'), 0o755);
    testGit(['config', 'core.hooksPath', join(ws.dir, '.git', 'hooks')], ws.dir);
    writeFileSync(join(ws.dir, 'a.txt'), 'a');
    await commitAll({ dir: ws.dir, message: 'Add a', requester });
    await pushBranch({ ...target(), dir: ws.dir, branch: ws.branch });
    expect(existsSync(marker)).toBe(false);
  });

  it('rejects invalid branch names', async () => {
    const ws = await prepare('wrench/ok-1', 'job-1');
    await expect(pushBranch({ ...target(), dir: ws.dir, branch: 'a..b' })).rejects.toMatchObject({
      code: 'invalid_branch',
    });
  });
});

import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failureMessage } from '../../../runners/failure-message.js';
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
    const reason = (error as Error).message.match(/\((\[rejected\] \((?:fetch first|non-fast-forward)\))\)\.$/)?.[1];
    expect((error as Error).message).toBe(`Could not push branch "wrench/race-1": the remote branch has commits this workspace does not have (${reason}).`);
    // A German thread says it in German, git's reason as git says it.
    expect(failureMessage(error, 'de')).toBe(
      `Der Lauf ist fehlgeschlagen: Ich konnte den Branch "wrench/race-1" nicht pushen: der Remote-Branch hat Commits, die dieser Workspace nicht hat (${reason}).`,
    );
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
    expect(error.message).toBe('Could not push branch "wrench/redo-1": the remote branch moved since this workspace fetched it (stale info).');
    expect(failureMessage(error, 'fr')).toBe(
      'L’exécution a échoué : Impossible de pousser la branche « wrench/redo-1 » : la branche distante a changé depuis que cet espace de travail l’a récupérée.',
    );
    expect(remote.sha('refs/heads/wrench/redo-1')).toBe(moved);
  });

  it('fails with push_failed when the remote refuses the push, said in the thread language around git own reason', async () => {
    const ws = await prepare('wrench/refused-1', 'job-1');
    writeFileSync(join(ws.dir, 'a.txt'), 'a');
    await commitAll({ dir: ws.dir, message: 'Add a', requester });
    const hook = join(remote.bareDir, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\nexit 1\n');
    chmodSync(hook, 0o755);
    const error = await pushBranch({ ...target(), dir: ws.dir, branch: ws.branch }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'push_failed' });
    expect((error as Error).message).toBe(
      'Could not push branch "wrench/refused-1": [remote rejected] (pre-receive hook declined); check that the GitHub credential may push to this repository.',
    );
    expect(failureMessage(error, 'de')).toBe(
      'Der Lauf ist fehlgeschlagen: Ich konnte den Branch "wrench/refused-1" nicht pushen: [remote rejected] (pre-receive hook declined); prüfe, ob der GitHub-Zugang in dieses Repository pushen darf.',
    );
    expect(remote.sha('refs/heads/wrench/refused-1')).toBeFalsy();
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

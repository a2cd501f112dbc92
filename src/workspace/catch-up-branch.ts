import { updateMirror, type UpdateMirrorOptions } from './mirror-cache.js';
import { assertBranchName } from './assert-branch-name.js';
import { GitError, runGit } from './run-git.js';
import { sanitizeWorkspaceGit } from './workspace-git-guard.js';

export interface CatchUpOptions extends UpdateMirrorOptions {
  /** The job's workspace, its commits on `branch` not yet on the remote. */
  dir: string;
  branch: string;
}

export type CatchUpResult = { ok: true; sha: string; remoteSha: string } | { ok: false; remoteSha: string; conflicts: string[] };

/**
 * The remote branch moved while the job worked (someone pushed): fetch it through the mirror and replay the
 * workspace's own commits on top of it, so the next push is a fast-forward. A real conflict leaves the
 * workspace as it was (the rebase is aborted) and names the conflicting files.
 */
export async function catchUpWithRemoteBranch(options: CatchUpOptions): Promise<CatchUpResult> {
  const { dir, branch } = options;
  await assertBranchName(branch);
  const mirror = await updateMirror(options);
  await sanitizeWorkspaceGit(dir);
  const git = (args: string[]) => runGit(args, { cwd: dir }).then((out) => out.trim());
  const tracking = `refs/remotes/origin/${branch}`;
  await git(['fetch', '--quiet', '--no-tags', '--', mirror.dir, `+refs/heads/${branch}:${tracking}`]);
  const remoteSha = await git(['rev-parse', '--verify', `${tracking}^{commit}`]);
  try {
    await git(['-c', 'core.hooksPath=/dev/null', 'rebase', '--quiet', '--no-autostash', '--empty=drop', tracking]);
    return { ok: true, sha: await git(['rev-parse', 'HEAD']), remoteSha };
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    const conflicts = (await git(['diff', '--name-only', '--diff-filter=U']).catch(() => '')).split('\n').filter(Boolean);
    await git(['rebase', '--abort']).catch(() => undefined);
    return { ok: false, remoteSha, conflicts };
  }
}

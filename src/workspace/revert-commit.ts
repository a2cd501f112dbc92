import { wrenchErrorSaying } from '../errors.js';
import { assertCommitSha } from './commit-sha.js';
import { type Requester, withTrailers } from './commit-trailers.js';
import type { GitIdentity } from './git-identity.js';
import { GitError, runGit } from './run-git.js';
import { sanitizeWorkspaceGit } from './workspace-git-guard.js';

export interface RevertCommitOptions {
  dir: string;
  sha: string;
  requester: Requester;
  threadUrl?: string;
  identity?: GitIdentity;
}

/**
 * Commits the inverse of `sha` (against its first parent for a merge) with the usual trailers and returns the
 * new commit's sha. A conflicting revert is aborted, leaving the tree as it was, and reported as `revert_conflict`.
 */
export async function revertCommit(options: RevertCommitOptions): Promise<string> {
  const { dir, sha, identity } = options;
  assertCommitSha(sha);
  await sanitizeWorkspaceGit(dir);
  const git = (args: string[], input?: string) => runGit(args, { cwd: dir, identity, input }).then((o) => o.trim());

  const parents = (await git(['rev-list', '--parents', '-n', '1', sha])).split(' ').length - 1;
  const mainline = parents > 1 ? ['--mainline', '1'] : [];
  try {
    await git(['revert', '--no-edit', '--no-gpg-sign', ...mainline, sha]);
  } catch (error) {
    if (!(error instanceof GitError) || !(await isReverting(dir))) throw error;
    const conflicts = (await git(['diff', '--name-only', '--diff-filter=U', '-z'])).split('\0').filter(Boolean);
    await git(['revert', '--abort']);
    throw wrenchErrorSaying('revert_conflict', { key: 'revertConflict', sha: sha.slice(0, 12), files: conflicts });
  }
  const message = await git(['log', '-1', '--format=%B']);
  await git(['commit', '--amend', '--quiet', '--no-verify', '--no-gpg-sign', '--file=-'], await withTrailers({ ...options, message }));
  return git(['rev-parse', 'HEAD']);
}

async function isReverting(dir: string): Promise<boolean> {
  try {
    await runGit(['rev-parse', '--verify', '--quiet', 'REVERT_HEAD'], { cwd: dir });
    return true;
  } catch {
    return false;
  }
}

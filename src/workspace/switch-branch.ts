import { wrenchErrorSaying } from '../errors.js';
import type { JobWorkspace } from './workspace-types.js';
import { GitError } from './run-git.js';

export type Git = (...args: string[]) => Promise<string>;

export interface SwitchBranchOptions {
  dir: string;
  /** For messages, e.g. `acme/web`. */
  label: string;
  /** Default: `origin/HEAD`. */
  baseBranch?: string;
  branch: string;
  existingBranch?: boolean;
  /** Overwrite local changes and reset an existing local branch of that name (reused trees). */
  force?: boolean;
  /** `refs/remotes/origin/<name>` → commit, as just fetched: looked up here instead of asking git. */
  remoteRefs?: ReadonlyMap<string, string>;
  /**
   * With `force`: the commit a tree known to be clean is checked out at. A new branch from that very commit only
   * needs its ref and HEAD written; no file is touched, so the index is not refreshed across the whole tree.
   */
  cleanAt?: string;
}

/**
 * Checks out `branch` in a clone whose `refs/remotes/origin/*` are up to date: new from `origin/<base>`, or the
 * existing remote branch; returns the job's view of the tree.
 */
export async function switchBranch(git: Git, options: SwitchBranchOptions): Promise<JobWorkspace> {
  const { dir, branch, label } = options;
  const baseBranch = options.baseBranch ?? (await defaultBranch(git));
  const lookup = (ref: string) => (options.remoteRefs ? Promise.resolve(options.remoteRefs.get(ref)) : resolveCommit(git, ref));
  const baseTip = await lookup(`refs/remotes/origin/${baseBranch}`);
  if (!baseTip) {
    throw wrenchErrorSaying('base_branch_not_found', { key: 'baseBranchNotFound', repository: label, branch: baseBranch });
  }
  const remoteBranch = await lookup(`refs/remotes/origin/${branch}`);
  const create = options.force ? ['-f', '-B'] : ['-b'];
  if (options.existingBranch) {
    if (!remoteBranch) {
      throw wrenchErrorSaying('branch_not_found', { key: 'branchNotFound', repository: label, branch });
    }
    await git('checkout', '--quiet', '--track', ...create, branch, `origin/${branch}`);
  } else {
    if (remoteBranch) {
      throw wrenchErrorSaying('branch_exists', { key: 'branchExists', repository: label, branch });
    }
    if (options.force && options.cleanAt === baseTip) {
      // Independent files (the branch's ref, HEAD): written at once.
      await Promise.all([git('update-ref', '--no-deref', `refs/heads/${branch}`, baseTip), git('symbolic-ref', 'HEAD', `refs/heads/${branch}`)]);
      return { dir, baseBranch, baseSha: baseTip, branch, headSha: baseTip };
    }
    await git('checkout', '--quiet', '--no-track', ...create, branch, `refs/remotes/origin/${baseBranch}`);
  }
  const headSha = await git('rev-parse', 'HEAD');
  const baseSha = options.existingBranch ? ((await mergeBase(git, baseTip, headSha)) ?? baseTip) : baseTip;
  return { dir, baseBranch, baseSha, branch, headSha };
}

async function defaultBranch(git: Git): Promise<string> {
  try {
    return (await git('symbolic-ref', '--short', 'refs/remotes/origin/HEAD')).replace(/^origin\//, '');
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    throw wrenchErrorSaying('base_branch_not_found', { key: 'noDefaultBranch' });
  }
}

async function resolveCommit(git: Git, ref: string): Promise<string | undefined> {
  try {
    return await git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`);
  } catch (error) {
    if (error instanceof GitError) return undefined;
    throw error;
  }
}

async function mergeBase(git: Git, a: string, b: string): Promise<string | undefined> {
  try {
    return await git('merge-base', a, b);
  } catch (error) {
    if (error instanceof GitError) return undefined;
    throw error;
  }
}

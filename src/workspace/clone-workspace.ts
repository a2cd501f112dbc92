import { chmod, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WrenchError } from '../errors.js';
import { removeWorkspace } from './remove-workspace.js';
import { GitError, runGit } from './run-git.js';

export interface CloneWorkspaceOptions {
  /** Local repository to clone from (the mirror, or a user's own repository). */
  source: string;
  /** What `origin` points at afterwards: the public URL, so the agent never learns the source path. */
  originUrl: string;
  /** Working tree to create (replaced when it exists); made 0700. */
  dir: string;
  /** For messages, e.g. `acme/web`. */
  label: string;
  /** Default: the source's HEAD branch. */
  baseBranch?: string;
  branch: string;
  existingBranch?: boolean;
}

export interface JobWorkspace {
  dir: string;
  baseBranch: string;
  /** Tip of the base branch; for an existing branch, its merge base with the base branch. */
  baseSha: string;
  branch: string;
  headSha: string;
}

type Git = (...args: string[]) => Promise<string>;

/**
 * A private clone (objects copied, not hard-linked) with `branch` checked out: new from `origin/<base>`, or the
 * existing remote branch. The source path is scrubbed from the clone's config and reflogs.
 */
export async function cloneWorkspace(options: CloneWorkspaceOptions): Promise<JobWorkspace> {
  const { dir, branch, label } = options;
  await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
  await chmod(dirname(dir), 0o700);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { mode: 0o700 });
  await chmod(dir, 0o700);
  const git: Git = (...args) => runGit(args, { cwd: dir }).then((out) => out.trim());
  try {
    await git('clone', '--quiet', '--local', '--no-hardlinks', '--no-checkout', '--', options.source, '.');
    await rm(join(dir, '.git', 'logs'), { recursive: true, force: true });
    await git('remote', 'set-url', 'origin', options.originUrl);

    const baseBranch = options.baseBranch ?? (await defaultBranch(git));
    const baseTip = await resolveCommit(git, `refs/remotes/origin/${baseBranch}`);
    if (!baseTip) {
      throw new WrenchError('base_branch_not_found', `${label} has no branch "${baseBranch}"; name an existing base branch.`);
    }
    const remoteBranch = await resolveCommit(git, `refs/remotes/origin/${branch}`);
    if (options.existingBranch) {
      if (!remoteBranch) {
        throw new WrenchError('branch_not_found', `Branch "${branch}" no longer exists in ${label}; start a new task instead.`);
      }
      await git('checkout', '--quiet', '--track', '-b', branch, `origin/${branch}`);
    } else {
      if (remoteBranch) {
        throw new WrenchError('branch_exists', `Branch "${branch}" already exists in ${label}; continue it or pick another name.`);
      }
      await git('checkout', '--quiet', '--no-track', '-b', branch, `refs/remotes/origin/${baseBranch}`);
    }
    const headSha = await git('rev-parse', 'HEAD');
    const baseSha = options.existingBranch ? ((await mergeBase(git, baseTip, headSha)) ?? baseTip) : baseTip;
    return { dir, baseBranch, baseSha, branch, headSha };
  } catch (error) {
    await removeWorkspace(dir);
    throw error;
  }
}

async function defaultBranch(git: Git): Promise<string> {
  try {
    return (await git('symbolic-ref', '--short', 'refs/remotes/origin/HEAD')).replace(/^origin\//, '');
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    throw new WrenchError('base_branch_not_found', 'The repository has no default branch (is it empty?); push an initial commit or name a base branch.');
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

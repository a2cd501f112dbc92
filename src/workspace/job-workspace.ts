import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { WrenchError } from '../errors.js';
import { assertBranchName } from './assert-branch-name.js';
import { GitError, runGit } from './run-git.js';
import { updateMirror } from './mirror-cache.js';
import { repositoryUrl } from './repository-url.js';

export interface PrepareWorkspaceOptions {
  dataDir: string;
  gitBaseUrl: string;
  owner: string;
  repo: string;
  /** Default: the repository's default branch (the mirror's HEAD). */
  baseBranch?: string;
  branch: string;
  /** Continue the existing remote `branch` (follow-ups) instead of creating it from the base. */
  existingBranch?: boolean;
  jobId: string;
  credential?: string;
}

export interface JobWorkspace {
  dir: string;
  baseBranch: string;
  /** Tip of the base branch; for an existing branch, its merge base with the base branch. */
  baseSha: string;
  branch: string;
  headSha: string;
}

const JOB_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export function workspaceDir(dataDir: string, jobId: string): string {
  if (!JOB_ID.test(jobId)) {
    throw new WrenchError('invalid_job_id', `"${jobId}" cannot name a workspace; use letters, digits, ".", "-", "_".`);
  }
  return join(resolve(dataDir), 'workspaces', jobId);
}

/**
 * A fresh, private working tree for one job, cloned from the up-to-date mirror. Its `origin` is the public
 * repository URL (no credential, not the mirror), and `branch` is checked out: new from `origin/<base>`, or the
 * existing remote branch when `existingBranch` is set.
 */
export async function prepareWorkspace(options: PrepareWorkspaceOptions): Promise<JobWorkspace> {
  const dir = workspaceDir(options.dataDir, options.jobId);
  const publicUrl = repositoryUrl(options.gitBaseUrl, options.owner, options.repo);
  await assertBranchName(options.branch);
  if (options.baseBranch !== undefined) await assertBranchName(options.baseBranch);

  const mirror = await updateMirror(options);
  await mkdir(join(resolve(options.dataDir), 'workspaces'), { recursive: true, mode: 0o700 });
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { mode: 0o700 });
  await chmod(dir, 0o700);
  const git = (...args: string[]) => runGit(args, { cwd: dir }).then((out) => out.trim());
  try {
    await git('clone', '--quiet', '--local', '--no-hardlinks', '--no-checkout', '--', mirror.dir, '.');
    await rm(join(dir, '.git', 'logs'), { recursive: true, force: true });
    await git('remote', 'set-url', 'origin', publicUrl);

    const baseBranch = options.baseBranch ?? (await defaultBranch(git));
    const baseTip = await resolveCommit(git, `refs/remotes/origin/${baseBranch}`);
    if (!baseTip) {
      throw new WrenchError(
        'base_branch_not_found',
        `${options.owner}/${options.repo} has no branch "${baseBranch}"; name an existing base branch.`,
      );
    }
    const remoteBranch = await resolveCommit(git, `refs/remotes/origin/${options.branch}`);
    if (options.existingBranch) {
      if (!remoteBranch) {
        throw new WrenchError(
          'branch_not_found',
          `Branch "${options.branch}" no longer exists in ${options.owner}/${options.repo}; start a new task instead.`,
        );
      }
      await git('checkout', '--quiet', '--track', '-b', options.branch, `origin/${options.branch}`);
    } else {
      if (remoteBranch) {
        throw new WrenchError(
          'branch_exists',
          `Branch "${options.branch}" already exists in ${options.owner}/${options.repo}; continue it or pick another name.`,
        );
      }
      await git('checkout', '--quiet', '--no-track', '-b', options.branch, `refs/remotes/origin/${baseBranch}`);
    }
    const headSha = await git('rev-parse', 'HEAD');
    const baseSha = options.existingBranch ? ((await mergeBase(git, baseTip, headSha)) ?? baseTip) : baseTip;
    return { dir, baseBranch, baseSha, branch: options.branch, headSha };
  } catch (error) {
    await removeWorkspace(dir);
    throw error;
  }
}

/** Deletes a job's working tree, even when the agent left read-only directories behind. */
export async function removeWorkspace(dir: string): Promise<void> {
  if (resolve(dir) === resolve('/')) throw new WrenchError('invalid_workspace', 'Refusing to remove "/".');
  try {
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    await makeWritable(dir);
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

async function makeWritable(dir: string): Promise<void> {
  await chmod(dir, 0o700).catch(() => undefined);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isDirectory()) await makeWritable(join(dir, entry.name));
  }
}


type Git = (...args: string[]) => Promise<string>;

async function defaultBranch(git: Git): Promise<string> {
  try {
    return (await git('symbolic-ref', '--short', 'refs/remotes/origin/HEAD')).replace(/^origin\//, '');
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    throw new WrenchError(
      'base_branch_not_found',
      'The repository has no default branch (is it empty?); push an initial commit or name a base branch.',
    );
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

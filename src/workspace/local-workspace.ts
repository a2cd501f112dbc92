import { resolve } from 'node:path';
import { WrenchError } from '../errors.js';
import { assertBranchName } from './assert-branch-name.js';
import { cloneWorkspace, type JobWorkspace } from './clone-workspace.js';
import { workspaceDir } from './job-workspace.js';
import type { PushGuard } from './outgoing-commits.js';
import { type PushResult, pushToUrl } from './push-branch.js';
import { runGit } from './run-git.js';

export interface PrepareLocalWorkspaceOptions {
  dataDir: string;
  /** A repository on this machine (`wrench run --repo PATH`); its own working tree is never touched. */
  localPath: string;
  /** Default: the branch checked out in `localPath`. */
  baseBranch?: string;
  branch: string;
  existingBranch?: boolean;
  jobId: string;
}

/** Like `prepareWorkspace`, for a local repository: a private clone of its committed state, `branch` checked out. */
export async function prepareLocalWorkspace(options: PrepareLocalWorkspaceOptions): Promise<JobWorkspace> {
  const source = await localRepository(options.localPath);
  await assertBranchName(options.branch);
  if (options.baseBranch !== undefined) await assertBranchName(options.baseBranch);
  return cloneWorkspace({
    source,
    originUrl: source,
    dir: workspaceDir(options.dataDir, options.jobId),
    label: source,
    baseBranch: options.baseBranch,
    branch: options.branch,
    existingBranch: options.existingBranch,
  });
}

export interface PushToLocalOptions {
  dir: string;
  localPath: string;
  branch: string;
  force?: boolean;
  guard: PushGuard;
}

/** Puts the workspace's HEAD on `branch` of the local repository, verified afterwards. */
export async function pushToLocal(options: PushToLocalOptions): Promise<PushResult> {
  const url = await localRepository(options.localPath);
  return pushToUrl({ dir: options.dir, branch: options.branch, url, force: options.force, guard: options.guard });
}

/** The repository at `localPath` (its top level, or the git directory of a bare one); a clear error when there is none. */
export async function localRepository(localPath: string): Promise<string> {
  const path = resolve(localPath);
  const ask = (flag: string) => runGit(['rev-parse', flag], { cwd: path }).then((out) => out.trim());
  try {
    if ((await ask('--is-bare-repository')) === 'true') return await ask('--absolute-git-dir');
    return await ask('--show-toplevel');
  } catch {
    throw new WrenchError('not_a_repository', `${path} is not a git repository; pass the path of a local clone.`);
  }
}

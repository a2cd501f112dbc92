import { join, resolve } from 'node:path';
import { WrenchError } from '../errors.js';
import { assertBranchName } from './assert-branch-name.js';
import { cloneWorkspace, type JobWorkspace } from './clone-workspace.js';
import { updateMirror } from './mirror-cache.js';
import { repositoryUrl } from './repository-url.js';

export type { JobWorkspace } from './clone-workspace.js';
export { removeWorkspace } from './remove-workspace.js';

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

const JOB_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export function workspaceDir(dataDir: string, jobId: string): string {
  if (!JOB_ID.test(jobId)) {
    throw new WrenchError('invalid_job_id', `"${jobId}" cannot name a workspace; use letters, digits, ".", "-", "_".`);
  }
  return join(resolve(dataDir), 'workspaces', jobId);
}

/**
 * A fresh, private working tree for one job at `${dataDir}/workspaces/${jobId}`, cloned from the up-to-date
 * mirror. Its `origin` is the public repository URL (no credential, not the mirror).
 */
export async function prepareWorkspace(options: PrepareWorkspaceOptions): Promise<JobWorkspace> {
  const dir = workspaceDir(options.dataDir, options.jobId);
  const originUrl = repositoryUrl(options.gitBaseUrl, options.owner, options.repo);
  await assertBranchName(options.branch);
  if (options.baseBranch !== undefined) await assertBranchName(options.baseBranch);
  const mirror = await updateMirror(options);
  return cloneWorkspace({
    source: mirror.dir,
    originUrl,
    dir,
    label: `${options.owner}/${options.repo}`,
    baseBranch: options.baseBranch,
    branch: options.branch,
    existingBranch: options.existingBranch,
  });
}

export { assertBranchName } from './assert-branch-name.js';
export { branchName } from './branch-name.js';
export { changedFiles, commitAll, type ChangedFilesOptions, type CommitAllOptions, type CommitResult } from './commit-changes.js';
export { type Requester } from './commit-trailers.js';
export { credentialEnv, type CredentialEnv } from './credential-env.js';
export { withDirectoryLock, type DirectoryLockOptions } from './directory-lock.js';
export { type GitIdentity, WRENCH_IDENTITY } from './git-identity.js';
export { cloneWorkspace, type CloneWorkspaceOptions, type JobWorkspace } from './clone-workspace.js';
export { prepareWorkspace, workspaceDir, type PrepareWorkspaceOptions } from './job-workspace.js';
export {
  prepareLocalWorkspace,
  pushToLocal,
  type PrepareLocalWorkspaceOptions,
  type PushToLocalOptions,
} from './local-workspace.js';
export { removeWorkspace } from './remove-workspace.js';
export { maskCredentials } from './mask-credentials.js';
export { mirrorDir, updateMirror, type Mirror, type UpdateMirrorOptions } from './mirror-cache.js';
export { pushBranch, pushToUrl, type PushBranchOptions, type PushResult, type PushToUrlOptions } from './push-branch.js';
export { recentCommits, type RecentCommit, type RecentCommitsOptions } from './recent-changes.js';
export { assertRepositoryName, repositoryUrl } from './repository-url.js';
export { assertCommitSha } from './commit-sha.js';
export { revertCommit, type RevertCommitOptions } from './revert-commit.js';
export { GitError, runGit, type RunGitOptions } from './run-git.js';
export { sanitizeWorkspaceGit } from './workspace-git-guard.js';

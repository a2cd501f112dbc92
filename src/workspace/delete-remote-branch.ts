import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentialEnv } from './credential-env.js';
import { repositoryUrl } from './repository-url.js';
import { runGit } from './run-git.js';

/**
 * Removes a branch this run pushed when the pull request for it could not be opened, so a failure
 * leaves no half-made work behind. Only deletes the branch if it still points at `expectedSha`.
 */
export async function deleteRemoteBranch(options: {
  gitBaseUrl: string;
  owner: string;
  repo: string;
  branch: string;
  expectedSha: string;
  credential?: string;
}): Promise<void> {
  const url = repositoryUrl(options.gitBaseUrl, options.owner, options.repo);
  const { env, secrets } = credentialEnv(url, options.credential);
  // From an empty throw-away repository: git push needs one, and no working tree's config or hooks apply.
  const scratch = await mkdtemp(join(tmpdir(), 'wrench-delete-'));
  try {
    await runGit(['init', '--quiet', '--bare'], { cwd: scratch });
    await runGit(['push', '--quiet', `--force-with-lease=refs/heads/${options.branch}:${options.expectedSha}`, url, `:refs/heads/${options.branch}`], {
      cwd: scratch,
      env,
      secrets,
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

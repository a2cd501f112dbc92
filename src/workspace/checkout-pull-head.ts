import { WrenchError } from '../errors.js';
import { credentialEnv } from './credential-env.js';
import { repositoryUrl } from './repository-url.js';
import { GitError, runGit } from './run-git.js';

export interface CheckoutPullHeadOptions {
  /** A job workspace cloned from the repository's mirror. */
  dir: string;
  gitBaseUrl: string;
  owner: string;
  repo: string;
  number: number;
  /** The commit the review is about (the pull request's head). */
  headSha: string;
  headRef: string;
  /** `owner/name` of the head repository (a fork), when it differs. */
  headRepoFullName?: string;
  credential?: string;
}

/**
 * Detaches the workspace at the pull request's head commit: already there when the head branch lives in the
 * repository (the mirror has every branch); else fetched as `refs/pull/N/head`, or from the fork's branch.
 * The credential lives only in the fetch's environment.
 */
export async function checkoutPullHead(options: CheckoutPullHeadOptions): Promise<void> {
  const git = (args: string[], env?: Record<string, string>, secrets?: string[]) => runGit(args, { cwd: options.dir, env, secrets });
  const sources: Array<{ url: string; ref: string }> = [
    { url: repositoryUrl(options.gitBaseUrl, options.owner, options.repo), ref: `refs/pull/${options.number}/head` },
  ];
  const [forkOwner, forkRepo] = (options.headRepoFullName ?? '').split('/');
  if (forkOwner && forkRepo) sources.push({ url: repositoryUrl(options.gitBaseUrl, forkOwner, forkRepo), ref: `refs/heads/${options.headRef}` });

  for (const source of [undefined, ...sources]) {
    if (source) {
      const { env, secrets } = credentialEnv(source.url, options.credential);
      await git(['fetch', '--quiet', '--no-tags', source.url, source.ref], env, secrets).catch((error) => {
        if (!(error instanceof GitError)) throw error;
      });
    }
    if (await hasCommit(git, options.headSha)) {
      await git(['checkout', '--quiet', '--detach', options.headSha]);
      return;
    }
  }
  throw new WrenchError(
    'pull_head_unavailable',
    `I could not fetch the head commit ${options.headSha.slice(0, 12)} of pull request #${options.number}; check that the branch still exists and the token can read it.`,
  );
}

async function hasCommit(git: (args: string[]) => Promise<string>, sha: string): Promise<boolean> {
  try {
    await git(['cat-file', '-e', `${sha}^{commit}`]);
    return true;
  } catch (error) {
    if (error instanceof GitError) return false;
    throw error;
  }
}

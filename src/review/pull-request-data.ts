import { RequestError } from '@octokit/request-error';
import type { GitHubClient } from '../github/create-octokit.js';

export interface PullRequestFile {
  filename: string;
  status: string;
  additions: number;
  deletions: number;
  previousFilename?: string;
  /** Absent for binary files and very large diffs. */
  patch?: string;
}

export interface PullRequestData {
  number: number;
  title: string;
  body: string;
  author: string;
  url: string;
  state: string;
  draft: boolean;
  merged: boolean;
  base: { ref: string; sha: string };
  head: { ref: string; sha: string; repoFullName?: string };
  files: PullRequestFile[];
}

/** The pull request's metadata and changed files (with their patches); null when it does not exist. */
export async function fetchPullRequest(github: GitHubClient, owner: string, repo: string, number: number): Promise<PullRequestData | null> {
  let pull;
  try {
    pull = (await github.pulls.get({ owner, repo, pull_number: number })).data;
  } catch (error) {
    if (error instanceof RequestError && error.status === 404) return null;
    throw error;
  }
  const files = await github.paginate(github.pulls.listFiles, { owner, repo, pull_number: number, per_page: 100 });
  return {
    number: pull.number,
    title: pull.title,
    body: pull.body ?? '',
    author: pull.user?.login ?? 'unknown',
    url: pull.html_url,
    state: pull.state,
    draft: !!pull.draft,
    merged: !!pull.merged,
    base: { ref: pull.base.ref, sha: pull.base.sha },
    head: { ref: pull.head.ref, sha: pull.head.sha, repoFullName: pull.head.repo?.full_name },
    files: files.map((file) => ({
      filename: file.filename,
      status: file.status,
      additions: file.additions,
      deletions: file.deletions,
      previousFilename: file.previous_filename,
      patch: file.patch,
    })),
  };
}

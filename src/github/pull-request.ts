import type { GitHubClient } from './create-octokit.js';
import type { Redactor } from '../security/redact.js';

export interface PullRequestRef {
  number: number;
  url: string;
  title: string;
  draft: boolean;
  created: boolean;
}

export interface PullRequestInput {
  owner: string;
  repo: string;
  head: string;
  base: string;
  title: string;
  body: string;
  draft?: boolean;
}

/**
 * Opens the pull request for a branch, or updates the open one when it exists (follow-ups). A branch this run made
 * has none yet, so it is opened at once (one request fewer before the reply); GitHub's 422 "already exists" still
 * turns that into an update.
 */
export async function openOrUpdatePullRequest(
  octokit: GitHubClient,
  input: PullRequestInput,
  redact: Redactor,
  options: { branchIsNew?: boolean } = {},
): Promise<PullRequestRef> {
  const title = redact(input.title).slice(0, 250);
  const body = redact(input.body).slice(0, 65_000);
  if (options.branchIsNew) {
    try {
      return await createPullRequest(octokit, input, title, body);
    } catch (error) {
      if (!alreadyExists(error)) throw error;
    }
  }
  const existing = await octokit.pulls.list({
    owner: input.owner,
    repo: input.repo,
    head: `${input.owner}:${input.head}`,
    state: 'open',
    per_page: 1,
  });
  const open = existing.data[0];
  if (open) {
    // A follow-up keeps the title people know the PR by and refreshes the body.
    const updated = await octokit.pulls.update({ owner: input.owner, repo: input.repo, pull_number: open.number, body });
    return { number: updated.data.number, url: updated.data.html_url, title: updated.data.title, draft: !!updated.data.draft, created: false };
  }
  return createPullRequest(octokit, input, title, body);
}

async function createPullRequest(octokit: GitHubClient, input: PullRequestInput, title: string, body: string): Promise<PullRequestRef> {
  const created = await octokit.pulls.create({
    owner: input.owner,
    repo: input.repo,
    head: input.head,
    base: input.base,
    title,
    body,
    draft: input.draft ?? false,
    maintainer_can_modify: true,
  });
  return { number: created.data.number, url: created.data.html_url, title: created.data.title, draft: !!created.data.draft, created: true };
}

/** GitHub's 422 for a second pull request of the same head: `{ errors: [{ message: 'A pull request already exists for o:b.' }] }`. */
function alreadyExists(error: unknown): boolean {
  const response = (error as { status?: number; response?: { data?: { errors?: Array<{ message?: string }> } } }) ?? {};
  return response.status === 422 && (response.response?.data?.errors ?? []).some((e) => /already exists/i.test(e.message ?? ''));
}

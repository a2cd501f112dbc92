import type { GitHubClient } from './create-octokit.js';
import type { Redactor } from '../security/redact.js';

export interface PullRequestRef {
  number: number;
  url: string;
  title: string;
  draft: boolean;
  created: boolean;
  /** Someone else's pull request: its description is theirs and was left as it was (Wrench answers in a comment). */
  bodyKept?: boolean;
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
    if (!(await openedByWrench(octokit, open.user?.login))) {
      // A person's pull request (asked on with a mention): their description is never rewritten.
      return { number: open.number, url: open.html_url, title: open.title, draft: !!open.draft, created: false, bodyKept: true };
    }
    // A follow-up keeps the title people know the PR by, refreshes the body and keeps the issues it closes.
    const kept = withClosingLinks(body, open.body ?? '');
    const updated = await octokit.pulls.update({ owner: input.owner, repo: input.repo, pull_number: open.number, body: kept });
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

const ownLogins = new WeakMap<GitHubClient, Promise<string>>();

/**
 * The account Wrench's pull requests are authored by: its App's bot user (`<slug>[bot]`, GET /app answers the App's
 * JWT), else the token's own user (GET /user). Asked once per client.
 */
export function wrenchLogin(octokit: GitHubClient): Promise<string> {
  let known = ownLogins.get(octokit);
  if (!known) {
    known = octokit.apps.getAuthenticated().then(
      ({ data }) => `${data?.slug}[bot]`,
      async (error: unknown) => {
        if ((error as { status?: number }).status !== 401 && (error as { status?: number }).status !== 403) throw error;
        return (await octokit.users.getAuthenticated()).data.login;
      },
    );
    // A failure (GitHub unreachable) is not remembered: the next pull request asks again.
    known.catch(() => ownLogins.delete(octokit));
    ownLogins.set(octokit, known);
  }
  return known;
}

/** Whether `author` is Wrench's own account: by who opened it, never by what its text says. Unknown counts as not. */
async function openedByWrench(octokit: GitHubClient, author: string | undefined): Promise<boolean> {
  if (!author) return false;
  const own = await wrenchLogin(octokit).catch(() => undefined);
  return own !== undefined && own.toLowerCase() === author.toLowerCase();
}

/** GitHub's closing keywords before an issue reference (`Closes #7`, `fixes acme/app#7`). */
const CLOSING_LINK = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+((?:[\w.-]+\/[\w.-]+)?#\d+)\b/gi;

/** `body`, with a `Closes …` line for each issue the pull request's current body closes and `body` does not. */
export function withClosingLinks(body: string, current: string): string {
  const closes = (text: string) => new Set([...text.matchAll(CLOSING_LINK)].map((match) => (match[1] ?? '').toLowerCase()));
  const already = closes(body);
  const missing = [...closes(current)].filter((reference) => !already.has(reference));
  return missing.length ? `${body}\n\n${missing.map((reference) => `Closes ${reference}`).join('\n')}` : body;
}

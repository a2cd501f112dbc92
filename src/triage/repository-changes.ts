import type { GitHubClient } from '../github/create-octokit.js';
import { recentCommits } from '../workspace/recent-changes.js';
import { runGit } from '../workspace/run-git.js';
import { readDeployTimeline } from './deploy-times.js';
import { clipText, neutralizeTags } from './untrusted-text.js';

export interface ChangedFile {
  filename: string;
  status?: string;
  additions?: number;
  deletions?: number;
  patch?: string;
}

export interface WindowCommit {
  sha: string;
  subject: string;
  author: string;
  date: string;
  url?: string;
  files: ChangedFile[];
  /** When it went live (its first successful deployment, or a newer commit's), when the repository records deployments. */
  deployedAt?: string;
  deployedTo?: string;
}

export interface MergedPull {
  number: number;
  title: string;
  mergedAt: string;
  url: string;
  mergeSha?: string | null;
  author?: string;
}

export interface RepositoryChanges {
  branch: string;
  since: Date;
  until: Date;
  commits: WindowCommit[];
  pulls: MergedPull[];
  /** Where the history came from: GitHub's API, or the local clone when GitHub is not configured or failed. */
  source: 'github' | 'git';
  /** What places the changes in time: GitHub Deployments to these environments when the repository records them, else commit times. */
  deployments?: { environments: string[]; via?: 'deployments' | 'releases' };
  note?: string;
}

export interface GatherOptions {
  github: GitHubClient | null;
  owner: string;
  repo: string;
  branch: string;
  since: Date;
  until: Date;
  /** The workspace clone, for the git fallback. */
  dir: string;
  maxCommits?: number;
  /** Commits whose diffs are fetched (newest first). */
  maxDiffs?: number;
}

const PATCH_CHARS = 3000;

/**
 * The base branch's commits that landed in [since, until] with their diffs, and the pull requests
 * merged into it in that window: through Octokit, or from the local clone when GitHub is unavailable.
 */
export async function gatherRepositoryChanges(options: GatherOptions): Promise<RepositoryChanges> {
  if (options.github) {
    try {
      return await fromGitHub(options.github, options);
    } catch (error) {
      const fallback = await fromGit(options);
      return { ...fallback, note: `GitHub could not list the changes (${(error as Error).message.split('\n')[0]}); read from the clone instead.` };
    }
  }
  return fromGit(options);
}

async function fromGitHub(github: GitHubClient, options: GatherOptions): Promise<RepositoryChanges> {
  const { owner, repo, branch, since, until } = options;
  const listed = await github.repos.listCommits({
    owner,
    repo,
    sha: branch,
    since: since.toISOString(),
    until: until.toISOString(),
    per_page: Math.min(options.maxCommits ?? 30, 100),
  });
  const commits: WindowCommit[] = [];
  for (const [index, c] of listed.data.entries()) {
    const base: WindowCommit = {
      sha: c.sha,
      subject: (c.commit.message ?? '').split('\n')[0] ?? '',
      author: c.commit.author?.name ?? c.author?.login ?? 'unknown',
      date: c.commit.committer?.date ?? c.commit.author?.date ?? '',
      url: c.html_url,
      files: [],
    };
    if (index < (options.maxDiffs ?? 15)) {
      const detail = await github.repos.getCommit({ owner, repo, ref: c.sha });
      base.files = (detail.data.files ?? []).slice(0, 30).map((f) => ({
        filename: f.filename,
        status: f.status,
        additions: f.additions,
        deletions: f.deletions,
        patch: f.patch ? clipText(f.patch, PATCH_CHARS) : undefined,
      }));
    }
    commits.push(base);
  }
  const closed = await github.pulls.list({ owner, repo, state: 'closed', base: branch, sort: 'updated', direction: 'desc', per_page: 50 });
  const pulls = closed.data.flatMap((p) =>
    p.merged_at && new Date(p.merged_at) >= since && new Date(p.merged_at) <= until
      ? [{ number: p.number, title: p.title, mergedAt: p.merged_at, url: p.html_url, mergeSha: p.merge_commit_sha, author: p.user?.login }]
      : [],
  );
  const placed: Pick<RepositoryChanges, 'deployments' | 'note'> = {};
  try {
    const timeline = await readDeployTimeline(github, { owner, repo }, commits);
    if (timeline) {
      placed.deployments = { environments: timeline.environments, via: timeline.source };
      for (const commit of commits) {
        const deploy = timeline.deployed.get(commit.sha);
        if (deploy) Object.assign(commit, { deployedAt: deploy.at, deployedTo: deploy.environment });
      }
    }
  } catch (error) {
    placed.note = `GitHub's deployments and releases could not be read (${(error as Error).message.split('\n')[0]}); changes are placed by commit time.`;
  }
  return { branch, since, until, commits, pulls, source: 'github', ...placed };
}

async function fromGit(options: GatherOptions): Promise<RepositoryChanges> {
  const { dir, branch, since, until } = options;
  const listed = await recentCommits({ dir, since, until, ref: 'HEAD', maxCount: options.maxCommits ?? 30 });
  const commits: WindowCommit[] = [];
  for (const [index, c] of listed.entries()) {
    const files: ChangedFile[] = c.files.map((filename) => ({ filename }));
    if (index < (options.maxDiffs ?? 15)) {
      const patch = await runGit(['show', '--format=', '--patch', '--no-color', '--diff-merges=first-parent', c.sha], { cwd: dir }).catch(() => '');
      if (patch) files.splice(0, files.length, { filename: c.files.join(', '), patch: clipText(patch, PATCH_CHARS * 3) });
    }
    commits.push({ sha: c.sha, subject: c.subject, author: c.author, date: c.date, files });
  }
  return { branch, since, until, commits, pulls: [], source: 'git' };
}

/** The changes as text for the agent (commit messages and diffs are untrusted too). */
export function repositoryChangesText(changes: RepositoryChanges): string {
  const parts = [
    `## Changes on ${changes.branch} between ${changes.since.toISOString()} and ${changes.until.toISOString()} (from ${changes.source === 'github' ? 'GitHub' : 'the local clone'})`,
  ];
  if (changes.deployments)
    parts.push(`Placed in time by GitHub Deployments to ${changes.deployments.environments.join(', ')}: a commit is live from its deployment.`);
  if (changes.note) parts.push(changes.note);
  if (changes.commits.length === 0) parts.push('No commits landed in this window.');
  for (const c of changes.commits) {
    const live = changes.deployments ? `; ${c.deployedAt ? `deployed to ${c.deployedTo} ${c.deployedAt}` : 'not deployed yet'}` : '';
    parts.push('', `### commit ${c.sha} — ${c.subject}`, `author: ${c.author}; date: ${c.date}${live}`);
    for (const f of c.files) {
      const stat = f.additions !== undefined ? ` (+${f.additions} -${f.deletions ?? 0}${f.status ? `, ${f.status}` : ''})` : '';
      parts.push(`file: ${f.filename}${stat}`);
      if (f.patch) parts.push('```diff', f.patch, '```');
    }
  }
  parts.push('', `## Pull requests merged into ${changes.branch} in the window (${changes.pulls.length})`);
  for (const p of changes.pulls)
    parts.push(`- #${p.number} ${p.title} (merged ${p.mergedAt}${p.author ? ` by ${p.author}` : ''}${p.mergeSha ? `, merge commit ${p.mergeSha}` : ''})`);
  return neutralizeTags(clipText(parts.join('\n'), 60_000));
}

/** "GitHub Deployments to production", or "GitHub releases (published)". */
export function placedByText(deployments: { environments: readonly string[]; via?: 'deployments' | 'releases' }): string {
  return deployments.via === 'releases' ? 'GitHub releases (their publication)' : `GitHub Deployments to ${deployments.environments.join(', ')}`;
}

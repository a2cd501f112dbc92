import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeApp } from './app-auth.js';

export interface PullRecord {
  owner: string;
  repo: string;
  number: number;
  id: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  draft: boolean;
  headRef: string;
  baseRef: string;
  /** Last known head/base shas; frozen once the pull request is merged or closed. */
  headSha: string;
  baseSha: string;
  user: string;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  merged_at: string | null;
  merge_commit_sha: string | null;
  merged_by: string | null;
  maintainer_can_modify: boolean;
  /** A fork's `owner/repo` when the head branch lives there. */
  headRepo?: string;
}

export interface ReviewRecord {
  id: number;
  owner: string;
  repo: string;
  pull: number;
  user: string;
  body: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'PENDING';
  commit_id: string;
  submitted_at: string;
}

export interface ReviewCommentRecord {
  id: number;
  reviewId: number;
  owner: string;
  repo: string;
  pull: number;
  user: string;
  path: string;
  body: string;
  line: number | null;
  side: 'LEFT' | 'RIGHT';
  start_line: number | null;
  start_side: 'LEFT' | 'RIGHT' | null;
  position: number | null;
  in_reply_to_id?: number;
  commit_id: string;
  diff_hunk: string;
  created_at: string;
}

/** A reaction on a pull request comment or a review comment. */
export interface ReactionRecord {
  id: number;
  on: 'issue-comment' | 'review-comment';
  comment: number;
  user: string;
  content: string;
  created_at: string;
}

export interface IssueCommentRecord {
  id: number;
  owner: string;
  repo: string;
  issue: number;
  user: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface CheckRunRecord {
  id: number;
  owner: string;
  repo: string;
  name: string;
  headSha: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: 'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | 'action_required' | null;
  /** The Actions workflow run this job belongs to. */
  runId: number;
  log: string;
  started_at: string;
  completed_at: string | null;
  /** The app that made it: GitHub Actions (its jobs have logs) unless another CI's (no Actions log). */
  app: { id: number; slug: string; name: string };
  /** What the check reports about itself (shown on the PR's Checks tab). */
  output: { title: string | null; summary: string | null; text: string | null };
  annotations: CheckAnnotation[];
}

/** The app behind GitHub Actions' check runs. */
export const ACTIONS_APP: CheckRunRecord['app'] = { id: 15368, slug: 'github-actions', name: 'GitHub Actions' };

/** An annotation of a check run, as GET /repos/{owner}/{repo}/check-runs/{id}/annotations lists it. */
export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column?: number | null;
  end_column?: number | null;
  annotation_level: 'notice' | 'warning' | 'failure';
  title?: string | null;
  message: string;
  raw_details?: string | null;
}

export type DeploymentState = 'error' | 'failure' | 'inactive' | 'pending' | 'success' | 'queued' | 'in_progress';

export interface DeploymentStatusRecord {
  id: number;
  state: DeploymentState;
  creator: string;
  description: string;
  environment: string;
  log_url: string;
  environment_url: string;
  created_at: string;
}

export interface DeploymentRecord {
  id: number;
  owner: string;
  repo: string;
  sha: string;
  ref: string;
  task: string;
  payload: Record<string, unknown> | string;
  environment: string;
  original_environment: string;
  description: string | null;
  creator: string;
  transient_environment: boolean;
  production_environment: boolean;
  created_at: string;
  updated_at: string;
  /** Oldest first; GitHub lists them newest first. */
  statuses: DeploymentStatusRecord[];
}

export interface ReleaseRecord {
  id: number;
  owner: string;
  repo: string;
  tag_name: string;
  target_commitish: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  prerelease: boolean;
  author: string;
  created_at: string;
  published_at: string | null;
}

export interface RepoSettings {
  id: number;
  private: boolean;
  description: string | null;
}

/** A plain issue (not a pull request); issues and pull requests share one numbering per repository. */
export interface IssueRecord {
  owner: string;
  repo: string;
  number: number;
  title: string;
  body: string;
  user: string;
  state: 'open' | 'closed';
}

/** Everything the GitHub fake keeps beside the bare repositories. */
export class GitHubState {
  readonly pulls: PullRecord[] = [];
  readonly issues: IssueRecord[] = [];
  readonly reviews: ReviewRecord[] = [];
  readonly reviewComments: ReviewCommentRecord[] = [];
  readonly issueComments: IssueCommentRecord[] = [];
  readonly reactions: ReactionRecord[] = [];
  readonly checkRuns: CheckRunRecord[] = [];
  readonly deployments: DeploymentRecord[] = [];
  readonly releases: ReleaseRecord[] = [];
  readonly repoSettings = new Map<string, RepoSettings>();
  /** `owner/repo` -> login -> role; people not listed have read access (as on a public repository). */
  readonly collaborators = new Map<string, Map<string, 'admin' | 'maintain' | 'write' | 'triage' | 'read'>>();
  app?: FakeApp;
  private readonly numbers = new Map<string, number>();
  private lastId = 1000;
  baseUrl = '';
  /** Where clones come from (GIT_BASE_URL): the fake's own URL. */
  gitBaseUrl = '';

  constructor(readonly root: string) {}

  gitDir(owner: string, repo: string): string {
    return join(this.root, owner, `${repo}.git`);
  }

  repoExists(owner: string, repo: string): boolean {
    return existsSync(this.gitDir(owner, repo));
  }

  settings(owner: string, repo: string): RepoSettings {
    const key = `${owner}/${repo}`;
    let settings = this.repoSettings.get(key);
    if (!settings) {
      settings = { id: this.nextId(), private: false, description: null };
      this.repoSettings.set(key, settings);
    }
    return settings;
  }

  nextId(): number {
    this.lastId += 1;
    return this.lastId;
  }

  /** Issues and pull requests share one numbering per repository. */
  nextNumber(owner: string, repo: string): number {
    const key = `${owner}/${repo}`;
    const next = (this.numbers.get(key) ?? 0) + 1;
    this.numbers.set(key, next);
    return next;
  }

  pull(owner: string, repo: string, number: number): PullRecord | undefined {
    return this.pulls.find((p) => p.owner === owner && p.repo === repo && p.number === number);
  }

  issue(owner: string, repo: string, number: number): IssueRecord | undefined {
    return this.issues.find((i) => i.owner === owner && i.repo === repo && i.number === number);
  }

  pullsOf(owner: string, repo: string): PullRecord[] {
    return this.pulls.filter((p) => p.owner === owner && p.repo === repo);
  }
}

/** One request the fake answered (REST or git), as recorded in `fake.requests`. */
export interface GitHubRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  token: string | undefined;
  status: number;
  at: number;
}

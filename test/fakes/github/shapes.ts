import type { CommitInfo } from './git-read.js';
import type { FileDiff } from './diff-parse.js';
import type { GitHubState, IssueCommentRecord, PullRecord, ReviewCommentRecord, ReviewRecord } from './state.js';

export function userJson(state: GitHubState, login: string): Record<string, unknown> {
  return {
    login,
    id: idFor(login),
    node_id: `U_${login}`,
    avatar_url: `${state.baseUrl}/avatars/${login}`,
    url: `${state.baseUrl}/users/${login}`,
    html_url: `${state.baseUrl}/${login}`,
    type: login.endsWith('[bot]') ? 'Bot' : 'User',
    site_admin: false,
  };
}

export function repoJson(state: GitHubState, owner: string, repo: string, defaultBranch: string): Record<string, unknown> {
  const settings = state.settings(owner, repo);
  const api = `${state.baseUrl}/repos/${owner}/${repo}`;
  return {
    id: settings.id,
    node_id: `R_${settings.id}`,
    name: repo,
    full_name: `${owner}/${repo}`,
    private: settings.private,
    visibility: settings.private ? 'private' : 'public',
    owner: userJson(state, owner),
    html_url: `${state.baseUrl}/${owner}/${repo}`,
    description: settings.description,
    fork: false,
    url: api,
    pulls_url: `${api}/pulls{/number}`,
    clone_url: `${state.gitBaseUrl}/${owner}/${repo}.git`,
    git_url: `${state.gitBaseUrl.replace(/^\w+:/, 'git:')}/${owner}/${repo}.git`,
    default_branch: defaultBranch,
    archived: false,
    disabled: false,
    permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
    allow_merge_commit: true,
    allow_squash_merge: true,
    allow_rebase_merge: true,
    delete_branch_on_merge: false,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    pushed_at: '2024-01-01T00:00:00Z',
  };
}

export function commitJson(state: GitHubState, owner: string, repo: string, commit: CommitInfo): Record<string, unknown> {
  const api = `${state.baseUrl}/repos/${owner}/${repo}`;
  return {
    sha: commit.sha,
    node_id: `C_${commit.sha}`,
    commit: {
      author: commit.author,
      committer: commit.committer,
      message: commit.message,
      tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
      url: `${api}/git/commits/${commit.sha}`,
      comment_count: 0,
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null },
    },
    url: `${api}/commits/${commit.sha}`,
    html_url: `${state.baseUrl}/${owner}/${repo}/commit/${commit.sha}`,
    comments_url: `${api}/commits/${commit.sha}/comments`,
    author: userJson(state, loginFromEmail(commit.author.email)),
    committer: userJson(state, loginFromEmail(commit.committer.email)),
    parents: commit.parents.map((sha) => ({ sha, url: `${api}/commits/${sha}`, html_url: `${state.baseUrl}/${owner}/${repo}/commit/${sha}` })),
  };
}

export function fileJson(state: GitHubState, owner: string, repo: string, ref: string, file: FileDiff): Record<string, unknown> {
  return {
    sha: file.sha,
    filename: file.filename,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.additions + file.deletions,
    blob_url: `${state.baseUrl}/${owner}/${repo}/blob/${ref}/${file.filename}`,
    raw_url: `${state.baseUrl}/${owner}/${repo}/raw/${ref}/${file.filename}`,
    contents_url: `${state.baseUrl}/repos/${owner}/${repo}/contents/${file.filename}?ref=${ref}`,
    ...(file.patch !== undefined ? { patch: file.patch } : {}),
    ...(file.previous_filename ? { previous_filename: file.previous_filename } : {}),
  };
}

export interface PullExtras {
  repo: Record<string, unknown>;
  merged?: boolean;
  mergeable?: boolean | null;
  stats?: { commits: number; additions: number; deletions: number; changed_files: number; comments: number; review_comments: number };
}

export function pullJson(state: GitHubState, pull: PullRecord, extras: PullExtras): Record<string, unknown> {
  const { owner, repo, number } = pull;
  const api = `${state.baseUrl}/repos/${owner}/${repo}`;
  const html = `${state.baseUrl}/${owner}/${repo}/pull/${number}`;
  const json: Record<string, unknown> = {
    url: `${api}/pulls/${number}`,
    id: pull.id,
    node_id: `PR_${pull.id}`,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${api}/issues/${number}`,
    comments_url: `${api}/issues/${number}/comments`,
    review_comments_url: `${api}/pulls/${number}/comments`,
    commits_url: `${api}/pulls/${number}/commits`,
    number,
    state: pull.state,
    locked: false,
    title: pull.title,
    user: userJson(state, pull.user),
    body: pull.body,
    labels: [],
    milestone: null,
    created_at: pull.created_at,
    updated_at: pull.updated_at,
    closed_at: pull.closed_at,
    merged_at: pull.merged_at,
    merge_commit_sha: pull.merge_commit_sha,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    draft: pull.draft,
    head: pull.headRepo
      ? {
          label: `${pull.headRepo.split('/')[0]}:${pull.headRef}`,
          ref: pull.headRef,
          sha: pull.headSha,
          user: userJson(state, pull.headRepo.split('/')[0] ?? owner),
          repo: forkJson(extras.repo, pull.headRepo),
        }
      : { label: `${owner}:${pull.headRef}`, ref: pull.headRef, sha: pull.headSha, user: userJson(state, owner), repo: extras.repo },
    base: { label: `${owner}:${pull.baseRef}`, ref: pull.baseRef, sha: pull.baseSha, user: userJson(state, owner), repo: extras.repo },
    author_association: 'OWNER',
    auto_merge: null,
  };
  if (extras.merged !== undefined) {
    Object.assign(json, {
      merged: extras.merged,
      mergeable: extras.mergeable ?? null,
      mergeable_state: extras.mergeable === false ? 'dirty' : extras.mergeable ? 'clean' : 'unknown',
      merged_by: pull.merged_by ? userJson(state, pull.merged_by) : null,
      maintainer_can_modify: pull.maintainer_can_modify,
      ...extras.stats,
    });
  }
  return json;
}

export function reviewJson(state: GitHubState, review: ReviewRecord): Record<string, unknown> {
  const { owner, repo, pull } = review;
  return {
    id: review.id,
    node_id: `PRR_${review.id}`,
    user: userJson(state, review.user),
    body: review.body,
    state: review.state,
    html_url: `${state.baseUrl}/${owner}/${repo}/pull/${pull}#pullrequestreview-${review.id}`,
    pull_request_url: `${state.baseUrl}/repos/${owner}/${repo}/pulls/${pull}`,
    author_association: 'OWNER',
    submitted_at: review.state === 'PENDING' ? undefined : review.submitted_at,
    commit_id: review.commit_id,
  };
}

export function reviewCommentJson(state: GitHubState, comment: ReviewCommentRecord): Record<string, unknown> {
  const { owner, repo, pull } = comment;
  return {
    id: comment.id,
    node_id: `PRRC_${comment.id}`,
    pull_request_review_id: comment.reviewId,
    url: `${state.baseUrl}/repos/${owner}/${repo}/pulls/comments/${comment.id}`,
    html_url: `${state.baseUrl}/${owner}/${repo}/pull/${pull}#discussion_r${comment.id}`,
    pull_request_url: `${state.baseUrl}/repos/${owner}/${repo}/pulls/${pull}`,
    diff_hunk: comment.diff_hunk,
    path: comment.path,
    position: comment.position,
    original_position: comment.position,
    commit_id: comment.commit_id,
    original_commit_id: comment.commit_id,
    user: userJson(state, comment.user),
    body: comment.body,
    created_at: comment.created_at,
    updated_at: comment.created_at,
    author_association: 'OWNER',
    line: comment.line,
    original_line: comment.line,
    side: comment.side,
    start_line: comment.start_line,
    original_start_line: comment.start_line,
    start_side: comment.start_side,
    subject_type: 'line',
    ...(comment.in_reply_to_id ? { in_reply_to_id: comment.in_reply_to_id } : {}),
  };
}

export function issueCommentJson(state: GitHubState, comment: IssueCommentRecord): Record<string, unknown> {
  const { owner, repo, issue } = comment;
  return {
    id: comment.id,
    node_id: `IC_${comment.id}`,
    url: `${state.baseUrl}/repos/${owner}/${repo}/issues/comments/${comment.id}`,
    html_url: `${state.baseUrl}/${owner}/${repo}/pull/${issue}#issuecomment-${comment.id}`,
    issue_url: `${state.baseUrl}/repos/${owner}/${repo}/issues/${issue}`,
    user: userJson(state, comment.user),
    body: comment.body,
    created_at: comment.created_at,
    updated_at: comment.updated_at,
    author_association: 'OWNER',
  };
}

function loginFromEmail(email: string): string {
  const noreply = /^(?:\d+\+)?([^@]+)@users\.noreply\.github\.com$/.exec(email);
  return noreply?.[1] ?? email.split('@')[0] ?? email;
}

function idFor(login: string): number {
  let hash = 7;
  for (const char of login) hash = (hash * 31 + char.charCodeAt(0)) % 10_000_000;
  return hash + 1;
}

/** The head repository of a pull request from a fork: the base repository's shape under the fork's name. */
function forkJson(base: unknown, fullName: string): Record<string, unknown> {
  const [owner = '', name = ''] = fullName.split('/');
  return { ...(base as Record<string, unknown>), full_name: fullName, name, fork: true, owner: { login: owner, type: 'User' } };
}

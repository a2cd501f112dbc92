import { checkRunJson } from './routes/checks.js';
import { issueCommentJson, pullJson, repoJson, reviewCommentJson, reviewJson, userJson } from './shapes.js';
import { commitsBetween, defaultBranch, listBranches, resolveRef, type CommitInfo } from './git-read.js';
import type { CheckRunRecord, GitHubState, IssueCommentRecord, PullRecord, ReviewCommentRecord, ReviewRecord } from './state.js';

/* Webhook payloads shaped as GitHub documents them (docs.github.com/webhooks/webhook-events-and-payloads), built
   from the fake's own records so that what a webhook says and what the API answers agree. */

function common(state: GitHubState, owner: string, repo: string, sender: string): Record<string, unknown> {
  const installationId = state.app?.installationFor(owner, repo);
  return {
    repository: { ...repoJson(state, owner, repo, 'main'), owner: userJson(state, owner) },
    sender: userJson(state, sender),
    ...(installationId ? { installation: { id: installationId, node_id: `MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u${installationId}` } } : {}),
  };
}

function pull(state: GitHubState, record: PullRecord): Record<string, unknown> {
  return pullJson(state, record, { repo: repoJson(state, record.owner, record.repo, record.baseRef), merged: record.merged_at !== null });
}

export function reviewCommentPayload(state: GitHubState, comment: ReviewCommentRecord, record: PullRecord) {
  return {
    action: 'created',
    comment: reviewCommentJson(state, comment),
    pull_request: pull(state, record),
    ...common(state, record.owner, record.repo, comment.user),
  };
}

export function reviewPayload(state: GitHubState, review: ReviewRecord, record: PullRecord) {
  const json = reviewJson(state, review);
  return {
    action: 'submitted',
    review: { ...json, state: String(json.state).toLowerCase(), _links: { html: { href: json.html_url }, pull_request: { href: json.pull_request_url } } },
    pull_request: pull(state, record),
    ...common(state, record.owner, record.repo, review.user),
  };
}

export function issueCommentPayload(state: GitHubState, comment: IssueCommentRecord, record: PullRecord) {
  const api = `${state.baseUrl}/repos/${record.owner}/${record.repo}`;
  const html = `${state.baseUrl}/${record.owner}/${record.repo}/pull/${record.number}`;
  return {
    action: 'created',
    issue: {
      url: `${api}/issues/${record.number}`,
      html_url: html,
      id: record.id,
      number: record.number,
      title: record.title,
      user: userJson(state, record.user),
      labels: [],
      state: record.state,
      locked: false,
      assignee: null,
      assignees: [],
      comments: 1,
      created_at: record.created_at,
      updated_at: record.updated_at,
      closed_at: record.closed_at,
      author_association: 'OWNER',
      body: record.body,
      draft: record.draft,
      pull_request: { url: `${api}/pulls/${record.number}`, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch`, merged_at: record.merged_at },
    },
    comment: issueCommentJson(state, comment),
    ...common(state, record.owner, record.repo, comment.user),
  };
}

export function checkRunPayload(state: GitHubState, run: CheckRunRecord) {
  return { action: 'completed', check_run: checkRunJson(state, run), ...common(state, run.owner, run.repo, 'github-actions[bot]') };
}

/** One workflow run = the fake's check runs sharing a runId; its conclusion is failure when any job failed. */
export function workflowRunPayload(state: GitHubState, runs: CheckRunRecord[]) {
  const first = runs[0];
  const api = `${state.baseUrl}/repos/${first!.owner}/${first!.repo}`;
  const pulls = (checkRunJson(state, first!).pull_requests as unknown[]) ?? [];
  const pullRecord = state.pullsOf(first!.owner, first!.repo).find((p) => p.headSha === first!.headSha);
  return {
    action: 'completed',
    workflow_run: {
      id: first!.runId,
      name: 'CI',
      node_id: `WFR_${first!.runId}`,
      head_branch: pullRecord?.headRef ?? null,
      head_sha: first!.headSha,
      path: '.github/workflows/ci.yml',
      display_title: pullRecord?.title ?? 'CI',
      run_number: first!.runId,
      event: 'pull_request',
      status: 'completed',
      conclusion: runs.some((r) => r.conclusion === 'failure') ? 'failure' : 'success',
      workflow_id: 161335,
      check_suite_id: first!.runId + 1,
      check_suite_node_id: `CS_${first!.runId + 1}`,
      url: `${api}/actions/runs/${first!.runId}`,
      html_url: `${state.baseUrl}/${first!.owner}/${first!.repo}/actions/runs/${first!.runId}`,
      pull_requests: pulls,
      created_at: first!.started_at,
      updated_at: first!.completed_at ?? first!.started_at,
      run_attempt: 1,
      referenced_workflows: [],
      run_started_at: first!.started_at,
      jobs_url: `${api}/actions/runs/${first!.runId}/jobs`,
      logs_url: `${api}/actions/runs/${first!.runId}/logs`,
      check_suite_url: `${api}/check-suites/${first!.runId + 1}`,
      artifacts_url: `${api}/actions/runs/${first!.runId}/artifacts`,
      cancel_url: `${api}/actions/runs/${first!.runId}/cancel`,
      rerun_url: `${api}/actions/runs/${first!.runId}/rerun`,
      previous_attempt_url: null,
      workflow_url: `${api}/actions/workflows/161335`,
      head_commit: {
        id: first!.headSha,
        tree_id: first!.headSha,
        message: '',
        timestamp: first!.started_at,
        author: { name: 'x', email: 'x@example.com' },
        committer: { name: 'x', email: 'x@example.com' },
      },
      repository: { id: state.settings(first!.owner, first!.repo).id, name: first!.repo, full_name: `${first!.owner}/${first!.repo}` },
      head_repository: { id: state.settings(first!.owner, first!.repo).id, name: first!.repo, full_name: `${first!.owner}/${first!.repo}` },
      actor: userJson(state, 'octocat'),
      triggering_actor: userJson(state, 'octocat'),
    },
    workflow: {
      id: 161335,
      node_id: 'W_161335',
      name: 'CI',
      path: '.github/workflows/ci.yml',
      state: 'active',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      url: `${api}/actions/workflows/161335`,
      html_url: `${state.baseUrl}/${first!.owner}/${first!.repo}/actions/workflows/ci.yml`,
      badge_url: '',
    },
    ...common(state, first!.owner, first!.repo, 'octocat'),
  };
}

export function pullClosedPayload(state: GitHubState, record: PullRecord, sender: string) {
  return { action: 'closed', number: record.number, pull_request: pull(state, record), ...common(state, record.owner, record.repo, sender) };
}

/**
 * A `push` to `branch` from `before` to the branch's current tip, as GitHub sends it (its `repository` carries the
 * push event's quirks: an owner with `name` and `email`, `created_at` and `pushed_at` as Unix seconds).
 */
export async function pushPayload(state: GitHubState, owner: string, repo: string, branch: string, before: string, pusher: string) {
  const gitDir = state.gitDir(owner, repo);
  const after = await resolveRef(gitDir, branch);
  if (!after) throw new Error(`github-fake: no branch ${branch} in ${owner}/${repo}`);
  const commits = await commitsBetween(gitDir, before, after);
  const html = `${state.baseUrl}/${owner}/${repo}`;
  const commitJson = (c: CommitInfo) => ({
    id: c.sha,
    tree_id: c.tree,
    distinct: true,
    message: c.message.trim(),
    timestamp: c.committer.date,
    url: `${html}/commit/${c.sha}`,
    author: { name: c.author.name, email: c.author.email, username: null },
    committer: { name: c.committer.name, email: c.committer.email, username: null },
    added: [],
    removed: [],
    modified: [],
  });
  const base = common(state, owner, repo, pusher);
  const now = Math.floor(Date.now() / 1000);
  return {
    ref: `refs/heads/${branch}`,
    before,
    after,
    created: false,
    deleted: false,
    forced: false,
    base_ref: null,
    compare: `${html}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
    commits: commits.map(commitJson),
    head_commit: commits.length ? commitJson(commits[commits.length - 1]!) : null,
    pusher: { name: pusher, email: `${pusher}@users.noreply.github.com` },
    ...base,
    repository: {
      ...repoJson(state, owner, repo, await defaultBranch(gitDir)),
      owner: { ...userJson(state, owner), name: owner, email: null },
      created_at: now - 86_400,
      pushed_at: now,
      master_branch: await defaultBranch(gitDir),
      stargazers: 0,
    },
  };
}

/** A commit `status` as GitHub sends it (docs: webhook-events-and-payloads#status): `branches` are those whose tip it is. */
export async function statusPayload(
  state: GitHubState,
  owner: string,
  repo: string,
  sha: string,
  status: { state: 'pending' | 'success' | 'failure' | 'error'; context: string; description?: string | null; target_url?: string | null },
) {
  const gitDir = state.gitDir(owner, repo);
  const branches = (await listBranches(gitDir)).filter((b) => b.sha === sha);
  const api = `${state.baseUrl}/repos/${owner}/${repo}`;
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    id: state.nextId(),
    sha,
    name: `${owner}/${repo}`,
    target_url: status.target_url ?? null,
    avatar_url: null,
    context: status.context,
    description: status.description ?? null,
    state: status.state,
    commit: { sha, node_id: `C_${sha}`, url: `${api}/commits/${sha}`, html_url: `${state.baseUrl}/${owner}/${repo}/commit/${sha}` },
    branches: branches.map((b) => ({ name: b.name, commit: { sha: b.sha, url: `${api}/commits/${b.sha}` }, protected: false })),
    created_at: now,
    updated_at: now,
    ...common(state, owner, repo, 'jenkins-bot'),
  };
}

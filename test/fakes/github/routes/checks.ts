import { isoZ, resolveRef } from '../git-read.js';
import { refreshPull } from '../pull-ops.js';
import { requireRepo } from '../repo-access.js';
import { notFound, paginate, route, type Route } from '../router.js';
import { reviewCommentJson, userJson } from '../shapes.js';
import type { CheckRunRecord, GitHubState, ReviewCommentRecord } from '../state.js';

/* Checks, Actions job logs, collaborator permissions and review-comment replies: what Wrench reads and writes
   when it answers on a pull request. */

export function checkRunJson(state: GitHubState, run: CheckRunRecord): Record<string, unknown> {
  const api = `${state.baseUrl}/repos/${run.owner}/${run.repo}`;
  const html = `${state.baseUrl}/${run.owner}/${run.repo}`;
  const pulls = state.pullsOf(run.owner, run.repo).filter((p) => p.state === 'open' && p.headSha === run.headSha);
  const actions = run.app.slug === 'github-actions';
  return {
    id: run.id,
    head_sha: run.headSha,
    node_id: `CR_${run.id}`,
    external_id: String(run.id),
    url: `${api}/check-runs/${run.id}`,
    html_url: actions ? `${html}/actions/runs/${run.runId}/job/${run.id}` : `${html}/runs/${run.id}`,
    details_url: actions ? `${html}/actions/runs/${run.runId}/job/${run.id}` : `https://${run.app.slug}.example.com/jobs/${run.id}`,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.started_at,
    completed_at: run.completed_at,
    output: {
      title: run.output.title ?? (actions && run.conclusion === 'failure' ? `${run.name} failed` : null),
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: run.annotations.length,
      annotations_url: `${api}/check-runs/${run.id}/annotations`,
    },
    name: run.name,
    check_suite: { id: run.runId + 1 },
    app: {
      id: run.app.id,
      slug: run.app.slug,
      node_id: `A_${run.app.id}`,
      owner: userJson(state, run.app.slug === 'github-actions' ? 'github' : run.app.slug),
      name: run.app.name,
      description: '',
      external_url: run.app.slug === 'github-actions' ? 'https://help.github.com/en/actions' : `https://${run.app.slug}.example.com`,
      html_url: `https://github.com/apps/${run.app.slug}`,
      created_at: '2018-07-30T09:30:17Z',
      updated_at: '2019-12-10T19:04:12Z',
      permissions: {},
      events: [],
    },
    pull_requests: pulls.map((p) => ({
      url: `${api}/pulls/${p.number}`,
      id: p.id,
      number: p.number,
      head: { ref: p.headRef, sha: p.headSha, repo: { id: state.settings(p.owner, p.repo).id, url: api, name: p.repo } },
      base: { ref: p.baseRef, sha: p.baseSha, repo: { id: state.settings(p.owner, p.repo).id, url: api, name: p.repo } },
    })),
  };
}

export function jobJson(state: GitHubState, run: CheckRunRecord): Record<string, unknown> {
  const api = `${state.baseUrl}/repos/${run.owner}/${run.repo}`;
  return {
    id: run.id,
    run_id: run.runId,
    run_url: `${api}/actions/runs/${run.runId}`,
    node_id: `CR_${run.id}`,
    head_sha: run.headSha,
    url: `${api}/actions/jobs/${run.id}`,
    html_url: `${state.baseUrl}/${run.owner}/${run.repo}/actions/runs/${run.runId}/job/${run.id}`,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.started_at,
    completed_at: run.completed_at,
    name: run.name,
    steps: [],
    check_run_url: `${api}/check-runs/${run.id}`,
    labels: ['ubuntu-latest'],
    runner_id: 1,
    runner_name: 'GitHub Actions 1',
    runner_group_id: 1,
    runner_group_name: 'GitHub Actions',
    workflow_name: 'CI',
    head_branch: null,
    created_at: run.started_at,
  };
}

const ROLE_PERMISSION = { admin: 'admin', maintain: 'write', write: 'write', triage: 'read', read: 'read' } as const;

export const checkRoutes: Route[] = [
  route('GET /repos/:owner/:repo/commits/:ref/check-runs', async (ctx) => {
    const repo = await requireRepo(ctx);
    const sha = (await resolveRef(repo.gitDir, ctx.params.ref!)) ?? ctx.params.ref;
    const name = ctx.query.get('check_name');
    const runs = ctx.state.checkRuns.filter((r) => r.owner === repo.owner && r.repo === repo.repo && r.headSha === sha && (!name || r.name === name));
    const { page, headers } = paginate(runs, ctx.query, ctx.url);
    return { status: 200, body: { total_count: runs.length, check_runs: page.map((r) => checkRunJson(ctx.state, r)) }, headers };
  }),

  route('GET /repos/:owner/:repo/check-runs/:id', async (ctx) => {
    const repo = await requireRepo(ctx);
    const run = ctx.state.checkRuns.find((r) => r.owner === repo.owner && r.repo === repo.repo && r.id === Number(ctx.params.id));
    if (!run) throw notFound();
    return { status: 200, body: checkRunJson(ctx.state, run) };
  }),

  route('GET /repos/:owner/:repo/check-runs/:id/annotations', async (ctx) => {
    const repo = await requireRepo(ctx);
    const run = ctx.state.checkRuns.find((r) => r.owner === repo.owner && r.repo === repo.repo && r.id === Number(ctx.params.id));
    if (!run) throw notFound();
    const { page, headers } = paginate(run.annotations, ctx.query, ctx.url);
    const blob = `${ctx.state.baseUrl}/${repo.owner}/${repo.repo}/blob/${run.headSha}`;
    return {
      status: 200,
      body: page.map((a) => ({
        path: a.path,
        blob_href: `${blob}/${a.path}`,
        start_line: a.start_line,
        end_line: a.end_line,
        start_column: a.start_column ?? null,
        end_column: a.end_column ?? null,
        annotation_level: a.annotation_level,
        title: a.title ?? null,
        message: a.message,
        raw_details: a.raw_details ?? null,
      })),
      headers,
    };
  }),

  route('GET /repos/:owner/:repo/actions/runs/:id/jobs', async (ctx) => {
    const repo = await requireRepo(ctx);
    const jobs = ctx.state.checkRuns.filter((r) => r.owner === repo.owner && r.repo === repo.repo && r.runId === Number(ctx.params.id));
    const { page, headers } = paginate(jobs, ctx.query, ctx.url);
    return { status: 200, body: { total_count: jobs.length, jobs: page.map((r) => jobJson(ctx.state, r)) }, headers };
  }),

  /** GitHub answers 302 to a short-lived, pre-signed URL that serves the plain-text log. */
  route('GET /repos/:owner/:repo/actions/jobs/:id/logs', async (ctx) => {
    const repo = await requireRepo(ctx);
    const run = ctx.state.checkRuns.find((r) => r.owner === repo.owner && r.repo === repo.repo && r.id === Number(ctx.params.id));
    // Another CI's check run is no Actions job: GitHub has no log for it.
    if (run?.app.slug !== 'github-actions') throw notFound();
    return { status: 302, body: '', headers: { location: `${ctx.state.baseUrl}/_logs/jobs/${run.id}?sig=fake` } };
  }),

  route('GET /repos/:owner/:repo/collaborators/:username/permission', async (ctx) => {
    const repo = await requireRepo(ctx);
    const role =
      ctx.state.collaborators.get(`${repo.owner}/${repo.repo}`)?.get(ctx.params.username!) ?? (ctx.params.username === repo.owner ? 'admin' : 'read');
    const permission = ROLE_PERMISSION[role];
    return {
      status: 200,
      body: {
        permission,
        role_name: role,
        user: {
          ...userJson(ctx.state, ctx.params.username!),
          permissions: {
            admin: role === 'admin',
            maintain: role === 'maintain' || role === 'admin',
            push: permission !== 'read',
            triage: role !== 'read',
            pull: true,
          },
          role_name: role,
        },
      },
    };
  }),

  route('POST /repos/:owner/:repo/pulls/:number/comments/:id/replies', async (ctx) => {
    const repo = await requireRepo(ctx);
    const pull = ctx.state.pull(repo.owner, repo.repo, Number(ctx.params.number));
    const parent = ctx.state.reviewComments.find((c) => c.owner === repo.owner && c.repo === repo.repo && c.id === Number(ctx.params.id));
    if (!pull || !parent || parent.pull !== pull.number) throw notFound();
    await refreshPull(ctx.state, pull);
    const reply: ReviewCommentRecord = {
      ...parent,
      id: ctx.state.nextId(),
      reviewId: ctx.state.nextId(),
      user: ctx.login,
      body: String(ctx.body.body ?? ''),
      in_reply_to_id: parent.in_reply_to_id ?? parent.id,
      created_at: isoZ(Date.now()),
    };
    ctx.state.reviewComments.push(reply);
    return { status: 201, body: reviewCommentJson(ctx.state, reply) };
  }),
];

import { isoZ } from '../git-read.js';
import { createPull, isMergeable, mergePull, pullCommits, pullDiff, refreshPull } from '../pull-ops.js';
import { requireRepo, type RepoHandle } from '../repo-access.js';
import { notFound, paginate, route, validationFailed, type Route, type RouteContext } from '../router.js';
import { commitJson, fileJson, pullJson } from '../shapes.js';
import type { PullRecord } from '../state.js';

async function requirePull(ctx: RouteContext): Promise<{ repo: RepoHandle; pull: PullRecord }> {
  const repo = await requireRepo(ctx);
  const pull = ctx.state.pull(repo.owner, repo.repo, Number(ctx.params.number));
  if (!pull) throw notFound();
  return { repo, pull: await refreshPull(ctx.state, pull) };
}

export async function detailedPull(ctx: RouteContext, repo: RepoHandle, pull: PullRecord): Promise<Record<string, unknown>> {
  const files = await pullDiff(ctx.state, pull);
  const commits = await pullCommits(ctx.state, pull);
  const { state } = ctx;
  return pullJson(state, pull, {
    repo: repo.json,
    merged: pull.merged_at !== null,
    mergeable: pull.state === 'open' ? await isMergeable(state, pull) : null,
    stats: {
      commits: commits.length,
      additions: files.reduce((sum, f) => sum + f.additions, 0),
      deletions: files.reduce((sum, f) => sum + f.deletions, 0),
      changed_files: files.length,
      comments: state.issueComments.filter((c) => c.owner === pull.owner && c.repo === pull.repo && c.issue === pull.number).length,
      review_comments: state.reviewComments.filter((c) => c.owner === pull.owner && c.repo === pull.repo && c.pull === pull.number).length,
    },
  });
}

export const pullRoutes: Route[] = [
  route('POST /repos/:owner/:repo/pulls', async (ctx) => {
    const repo = await requireRepo(ctx);
    const { title, head, base, body, draft, maintainer_can_modify } = ctx.body;
    if (!head || !base) {
      throw validationFailed([{ resource: 'PullRequest', code: 'missing_field', field: head ? 'base' : 'head' }]);
    }
    const pull = await createPull(ctx.state, {
      owner: repo.owner,
      repo: repo.repo,
      title,
      head,
      base,
      body,
      draft,
      maintainer_can_modify,
      user: ctx.login,
    });
    return {
      status: 201,
      body: await detailedPull(ctx, repo, pull),
      headers: { location: `${ctx.state.baseUrl}/repos/${repo.owner}/${repo.repo}/pulls/${pull.number}` },
    };
  }),

  route('GET /repos/:owner/:repo/pulls', async (ctx) => {
    const repo = await requireRepo(ctx);
    const wanted = ctx.query.get('state') ?? 'open';
    const head = ctx.query.get('head');
    const base = ctx.query.get('base');
    const direction = ctx.query.get('direction') ?? 'desc';
    const pulls = ctx.state
      .pullsOf(repo.owner, repo.repo)
      .filter((p) => wanted === 'all' || p.state === wanted)
      .filter((p) => !head || `${p.owner}:${p.headRef}` === head || (!head.includes(':') && p.headRef === head))
      .filter((p) => !base || p.baseRef === base)
      .sort((a, b) => (direction === 'asc' ? a.number - b.number : b.number - a.number));
    for (const pull of pulls) await refreshPull(ctx.state, pull);
    const { page, headers } = paginate(pulls, ctx.query, ctx.url);
    return { status: 200, body: page.map((p) => pullJson(ctx.state, p, { repo: repo.json })), headers };
  }),

  route('GET /repos/:owner/:repo/pulls/:number', async (ctx) => {
    const { repo, pull } = await requirePull(ctx);
    return { status: 200, body: await detailedPull(ctx, repo, pull) };
  }),

  route('PATCH /repos/:owner/:repo/pulls/:number', async (ctx) => {
    const { repo, pull } = await requirePull(ctx);
    const { title, body, state, base } = ctx.body;
    if (state === 'open' && pull.state === 'closed') {
      if (pull.merged_at) throw validationFailed([{ resource: 'PullRequest', code: 'custom', message: 'Cannot reopen a merged pull request' }]);
      const other = ctx.state.pullsOf(repo.owner, repo.repo).find((p) => p !== pull && p.state === 'open' && p.headRef === pull.headRef);
      if (other)
        throw validationFailed([{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${repo.owner}:${pull.headRef}.` }]);
    }
    if (typeof title === 'string') pull.title = title;
    if (body !== undefined) pull.body = body;
    if (typeof base === 'string') pull.baseRef = base;
    if (state === 'closed' && pull.state === 'open') pull.closed_at = isoZ(Date.now());
    if (state === 'open') pull.closed_at = null;
    if (state === 'open' || state === 'closed') pull.state = state;
    pull.updated_at = isoZ(Date.now());
    await refreshPull(ctx.state, pull);
    return { status: 200, body: await detailedPull(ctx, repo, pull) };
  }),

  route('GET /repos/:owner/:repo/pulls/:number/files', async (ctx) => {
    const { repo, pull } = await requirePull(ctx);
    const files = (await pullDiff(ctx.state, pull)).map((f) => fileJson(ctx.state, repo.owner, repo.repo, pull.headSha, f));
    const { page, headers } = paginate(files, ctx.query, ctx.url);
    return { status: 200, body: page, headers };
  }),

  route('GET /repos/:owner/:repo/pulls/:number/commits', async (ctx) => {
    const { repo, pull } = await requirePull(ctx);
    const commits = (await pullCommits(ctx.state, pull)).map((c) => commitJson(ctx.state, repo.owner, repo.repo, c));
    const { page, headers } = paginate(commits, ctx.query, ctx.url);
    return { status: 200, body: page, headers };
  }),

  route('GET /repos/:owner/:repo/pulls/:number/merge', async (ctx) => {
    const { pull } = await requirePull(ctx);
    return pull.merged_at ? { status: 204 } : { status: 404, body: { message: 'Not Found', status: '404' } };
  }),

  route('PUT /repos/:owner/:repo/pulls/:number/merge', async (ctx) => {
    const { pull } = await requirePull(ctx);
    if (ctx.body.sha && ctx.body.sha !== pull.headSha) {
      return { status: 409, body: { message: 'Head branch was modified. Review and try the merge again.', status: '409' } };
    }
    const sha = await mergePull(ctx.state, pull, {
      method: ctx.body.merge_method,
      title: ctx.body.commit_title,
      message: ctx.body.commit_message,
      login: ctx.login,
    });
    return { status: 200, body: { sha, merged: true, message: 'Pull Request successfully merged' } };
  }),
];

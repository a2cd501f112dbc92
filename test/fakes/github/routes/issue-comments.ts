import { isoZ } from '../git-read.js';
import { requireRepo } from '../repo-access.js';
import { notFound, paginate, route, validationFailed, type Route } from '../router.js';
import { issueCommentJson } from '../shapes.js';

export const issueCommentRoutes: Route[] = [
  route('POST /repos/:owner/:repo/issues/:number/comments', async (ctx) => {
    const repo = await requireRepo(ctx);
    const issue = Number(ctx.params.number);
    if (!ctx.state.pull(repo.owner, repo.repo, issue) && !ctx.state.issue(repo.owner, repo.repo, issue)) throw notFound();
    if (!ctx.body.body) throw validationFailed([{ resource: 'IssueComment', code: 'missing_field', field: 'body' }]);
    const now = isoZ(Date.now());
    const comment = {
      id: ctx.state.nextId(),
      owner: repo.owner,
      repo: repo.repo,
      issue,
      user: ctx.login,
      body: String(ctx.body.body),
      created_at: now,
      updated_at: now,
    };
    ctx.state.issueComments.push(comment);
    return { status: 201, body: issueCommentJson(ctx.state, comment) };
  }),

  route('GET /repos/:owner/:repo/issues/:number/comments', async (ctx) => {
    const repo = await requireRepo(ctx);
    const issue = Number(ctx.params.number);
    if (!ctx.state.pull(repo.owner, repo.repo, issue) && !ctx.state.issue(repo.owner, repo.repo, issue)) throw notFound();
    const comments = ctx.state.issueComments.filter((c) => c.owner === repo.owner && c.repo === repo.repo && c.issue === issue);
    const { page, headers } = paginate(comments, ctx.query, ctx.url);
    return { status: 200, body: page.map((c) => issueCommentJson(ctx.state, c)), headers };
  }),

  route('PATCH /repos/:owner/:repo/issues/comments/:id', async (ctx) => {
    const repo = await requireRepo(ctx);
    const comment = ctx.state.issueComments.find((c) => c.owner === repo.owner && c.repo === repo.repo && c.id === Number(ctx.params.id));
    if (!comment) throw notFound();
    comment.body = String(ctx.body.body ?? comment.body);
    comment.updated_at = isoZ(Date.now());
    return { status: 200, body: issueCommentJson(ctx.state, comment) };
  }),
];

import { isoZ } from '../git-read.js';
import { requireRepo } from '../repo-access.js';
import { notFound, route, validationFailed, type Route, type RouteContext as Context } from '../router.js';
import { reviewCommentJson, userJson } from '../shapes.js';
import type { GitHubState, ReactionRecord } from '../state.js';

/* Reactions on pull request comments and review comments, and editing a review comment
   (docs.github.com/rest/reactions/reactions, /rest/pulls/comments#update-a-review-comment-for-a-pull-request). */

const CONTENTS = new Set(['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes']);

function reactionJson(state: GitHubState, reaction: ReactionRecord): Record<string, unknown> {
  return { id: reaction.id, node_id: `REA_${reaction.id}`, user: userJson(state, reaction.user), content: reaction.content, created_at: reaction.created_at };
}

async function commentOf(ctx: Context, on: ReactionRecord['on']) {
  const repo = await requireRepo(ctx);
  const id = Number(ctx.params.id);
  const list = on === 'issue-comment' ? ctx.state.issueComments : ctx.state.reviewComments;
  if (!list.some((c) => c.owner === repo.owner && c.repo === repo.repo && c.id === id)) throw notFound();
  return id;
}

function create(on: ReactionRecord['on']) {
  return async (ctx: Context) => {
    const comment = await commentOf(ctx, on);
    const content = String(ctx.body.content ?? '');
    if (!CONTENTS.has(content)) throw validationFailed([{ resource: 'Reaction', code: 'invalid', field: 'content' }]);
    // Reacting twice with the same content answers the existing reaction with 200.
    const existing = ctx.state.reactions.find((r) => r.on === on && r.comment === comment && r.user === ctx.login && r.content === content);
    if (existing) return { status: 200, body: reactionJson(ctx.state, existing) };
    const reaction: ReactionRecord = { id: ctx.state.nextId(), on, comment, user: ctx.login, content, created_at: isoZ(Date.now()) };
    ctx.state.reactions.push(reaction);
    return { status: 201, body: reactionJson(ctx.state, reaction) };
  };
}

function remove(on: ReactionRecord['on']) {
  return async (ctx: Context) => {
    const comment = await commentOf(ctx, on);
    const index = ctx.state.reactions.findIndex((r) => r.on === on && r.comment === comment && r.id === Number(ctx.params.reaction));
    if (index < 0) throw notFound();
    ctx.state.reactions.splice(index, 1);
    return { status: 204, body: '' };
  };
}

export const reactionRoutes: Route[] = [
  route('POST /repos/:owner/:repo/issues/comments/:id/reactions', create('issue-comment')),
  route('DELETE /repos/:owner/:repo/issues/comments/:id/reactions/:reaction', remove('issue-comment')),
  route('POST /repos/:owner/:repo/pulls/comments/:id/reactions', create('review-comment')),
  route('DELETE /repos/:owner/:repo/pulls/comments/:id/reactions/:reaction', remove('review-comment')),
  route('PATCH /repos/:owner/:repo/pulls/comments/:id', async (ctx) => {
    const repo = await requireRepo(ctx);
    const comment = ctx.state.reviewComments.find((c) => c.owner === repo.owner && c.repo === repo.repo && c.id === Number(ctx.params.id));
    if (!comment) throw notFound();
    if (!ctx.body.body) throw validationFailed([{ resource: 'PullRequestReviewComment', code: 'missing_field', field: 'body' }]);
    comment.body = String(ctx.body.body);
    return { status: 200, body: reviewCommentJson(ctx.state, comment) };
  }),
];

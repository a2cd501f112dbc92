import { isoZ } from '../git-read.js';
import { lineInHunks, patchPositions, positionOf, type FileDiff } from '../diff-parse.js';
import { pullDiff, refreshPull } from '../pull-ops.js';
import { requireRepo } from '../repo-access.js';
import { notFound, paginate, route, unprocessable, type Route, type RouteContext } from '../router.js';
import { reviewCommentJson, reviewJson } from '../shapes.js';
import type { PullRecord, ReviewCommentRecord, ReviewRecord } from '../state.js';

const REVIEW_DOCS = 'https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request';
const STATES = { APPROVE: 'APPROVED', REQUEST_CHANGES: 'CHANGES_REQUESTED', COMMENT: 'COMMENTED' } as const;

interface CommentInput {
  path?: string;
  body?: string;
  line?: number;
  side?: 'LEFT' | 'RIGHT';
  start_line?: number;
  start_side?: 'LEFT' | 'RIGHT';
  position?: number;
}

async function requirePull(ctx: RouteContext): Promise<PullRecord> {
  const repo = await requireRepo(ctx);
  const pull = ctx.state.pull(repo.owner, repo.repo, Number(ctx.params.number));
  if (!pull) throw notFound();
  return refreshPull(ctx.state, pull);
}

/** GitHub accepts a review comment only on a file of the diff, on a line inside one of its hunks. */
function checkComment(comment: CommentInput, files: FileDiff[]): { file: FileDiff; hunk: string; position: number } {
  const file = files.find((f) => f.filename === comment.path);
  if (!file) throw unprocessable(['Path could not be resolved'], REVIEW_DOCS);
  if (comment.position !== undefined && comment.line === undefined) {
    if (comment.position < 1 || comment.position > patchPositions(file.patch)) throw unprocessable(['Position could not be resolved'], REVIEW_DOCS);
    return { file, hunk: hunkText(file, comment.position), position: comment.position };
  }
  if (comment.line === undefined) throw unprocessable(['Line could not be resolved'], REVIEW_DOCS);
  const hunk = lineInHunks(file.hunks, comment.line, comment.side ?? 'RIGHT');
  const position = positionOf(file.patch, comment.line, comment.side ?? 'RIGHT');
  if (!hunk || position === undefined) throw unprocessable(['Line could not be resolved'], REVIEW_DOCS);
  if (comment.start_line !== undefined) {
    const startHunk = lineInHunks(file.hunks, comment.start_line, comment.start_side ?? comment.side ?? 'RIGHT');
    if (startHunk !== hunk || comment.start_line > comment.line) throw unprocessable(['Start line could not be resolved'], REVIEW_DOCS);
  }
  return { file, hunk: hunkText(file, position), position };
}

function hunkText(file: FileDiff, position: number): string {
  const lines = (file.patch ?? '').split('\n');
  const start = lines.findLastIndex((line, index) => index <= position && line.startsWith('@@'));
  return lines.slice(Math.max(0, start), position + 1).join('\n');
}

export const reviewRoutes: Route[] = [
  route('POST /repos/:owner/:repo/pulls/:number/reviews', async (ctx) => {
    const pull = await requirePull(ctx);
    const event = ctx.body.event as keyof typeof STATES | undefined;
    const comments = (ctx.body.comments ?? []) as CommentInput[];
    const body = String(ctx.body.body ?? '');
    if (event && !(event in STATES)) throw unprocessable([`Unknown event ${event}`], REVIEW_DOCS);
    if ((event === 'APPROVE' || event === 'REQUEST_CHANGES') && pull.user === ctx.login) {
      const verb = event === 'APPROVE' ? 'approve' : 'request changes on';
      throw unprocessable([`Review Can not ${verb} your own pull request`], REVIEW_DOCS);
    }
    if ((event === 'REQUEST_CHANGES' || event === 'COMMENT') && !body && comments.length === 0) {
      throw unprocessable([`Review body is required for event ${event}`], REVIEW_DOCS);
    }
    const files = await pullDiff(ctx.state, pull);
    const checked = comments.map((comment) => ({ comment, ...checkComment(comment, files) }));
    const review: ReviewRecord = {
      id: ctx.state.nextId(),
      owner: pull.owner,
      repo: pull.repo,
      pull: pull.number,
      user: ctx.login,
      body,
      state: event ? STATES[event] : 'PENDING',
      commit_id: String(ctx.body.commit_id ?? pull.headSha),
      submitted_at: isoZ(Date.now()),
    };
    ctx.state.reviews.push(review);
    for (const { comment, hunk, position } of checked) {
      const record: ReviewCommentRecord = {
        id: ctx.state.nextId(),
        reviewId: review.id,
        owner: pull.owner,
        repo: pull.repo,
        pull: pull.number,
        user: ctx.login,
        path: comment.path ?? '',
        body: String(comment.body ?? ''),
        line: comment.line ?? null,
        side: comment.side ?? 'RIGHT',
        start_line: comment.start_line ?? null,
        start_side: comment.start_line !== undefined ? (comment.start_side ?? comment.side ?? 'RIGHT') : null,
        position,
        commit_id: review.commit_id,
        diff_hunk: hunk,
        created_at: review.submitted_at,
      };
      ctx.state.reviewComments.push(record);
    }
    return { status: 200, body: reviewJson(ctx.state, review) };
  }),

  route('GET /repos/:owner/:repo/pulls/:number/reviews', async (ctx) => {
    const pull = await requirePull(ctx);
    const reviews = ctx.state.reviews.filter((r) => r.owner === pull.owner && r.repo === pull.repo && r.pull === pull.number);
    const { page, headers } = paginate(reviews, ctx.query, ctx.url);
    return { status: 200, body: page.map((r) => reviewJson(ctx.state, r)), headers };
  }),

  route('GET /repos/:owner/:repo/pulls/:number/comments', async (ctx) => {
    const pull = await requirePull(ctx);
    const comments = ctx.state.reviewComments.filter((c) => c.owner === pull.owner && c.repo === pull.repo && c.pull === pull.number);
    const { page, headers } = paginate(comments, ctx.query, ctx.url);
    return { status: 200, body: page.map((c) => reviewCommentJson(ctx.state, c)), headers };
  }),
];

import { z } from 'zod';
import type { GitHubEvent } from '../queue/github-job.js';

/* The few fields Wrench reads from GitHub's webhook payloads (docs.github.com/webhooks/webhook-events-and-payloads);
   everything else in them is left alone. */

const user = z.object({ login: z.string(), type: z.string().optional() });
const repository = z.object({ name: z.string(), owner: z.object({ login: z.string() }) });
const pullRequest = z.object({ number: z.number(), html_url: z.string(), user, merged: z.boolean().nullish(), merged_at: z.string().nullish() });
const pullRef = z.object({ number: z.number() });

const reviewCommentEvent = z.object({
  action: z.string(),
  comment: z.object({
    id: z.number(),
    body: z.string(),
    html_url: z.string(),
    path: z.string(),
    line: z.number().nullish(),
    start_line: z.number().nullish(),
    diff_hunk: z.string().nullish(),
    pull_request_review_id: z.number().nullish(),
    /** A reply in a review thread: the id of the thread's first comment. */
    in_reply_to_id: z.number().nullish(),
  }),
  pull_request: pullRequest,
  repository,
  sender: user,
});
const reviewEvent = z.object({
  action: z.string(),
  review: z.object({ id: z.number(), body: z.string().nullish(), state: z.string(), html_url: z.string() }),
  pull_request: pullRequest,
  repository,
  sender: user,
});
const issueCommentEvent = z.object({
  action: z.string(),
  issue: z.object({ number: z.number(), user, state: z.string().nullish(), pull_request: z.object({ html_url: z.string().nullish() }).nullish() }),
  comment: z.object({ id: z.number(), body: z.string(), html_url: z.string() }),
  repository,
  sender: user,
});
const checkRunEvent = z.object({
  action: z.string(),
  check_run: z.object({
    id: z.number(),
    name: z.string(),
    head_sha: z.string(),
    conclusion: z.string().nullish(),
    html_url: z.string().nullish(),
    pull_requests: z.array(pullRef),
  }),
  repository,
});
const workflowRunEvent = z.object({
  action: z.string(),
  workflow_run: z.object({
    id: z.number(),
    name: z.string().nullish(),
    head_sha: z.string(),
    conclusion: z.string().nullish(),
    html_url: z.string(),
    pull_requests: z.array(pullRef),
  }),
  repository,
});
const pullRequestEvent = z.object({ action: z.string(), pull_request: pullRequest, repository, sender: user });

const FAILED = new Set(['failure', 'timed_out']);

/** What Wrench may act on: one event per pull request it could concern, or why the delivery is left alone. */
export type ReadEvent = { events: GitHubEvent[]; ignored?: undefined } | { ignored: string };

/** Reads a verified delivery. Comments by bots (Wrench included) and by the PR's own author account are never instructions. */
export function readWebhookEvent(name: string, body: unknown, options: { mention?: string } = {}): ReadEvent {
  switch (name) {
    case 'pull_request_review_comment': {
      const e = reviewCommentEvent.safeParse(body);
      if (!e.success) return malformed(name, e.error);
      if (e.data.action !== 'created') return { ignored: `${name}.${e.data.action} is not used` };
      if (fromWrench(e.data.sender, e.data.pull_request.user)) return { ignored: 'comment by a bot or by Wrench itself' };
      const c = e.data.comment;
      return one({
        kind: 'review-comment',
        repo: repo(e.data.repository),
        pull: e.data.pull_request.number,
        url: c.html_url,
        author: e.data.sender.login,
        body: c.body,
        commentId: c.id,
        path: c.path,
        line: c.line ?? null,
        startLine: c.start_line ?? null,
        diffHunk: c.diff_hunk ?? '',
        reviewId: c.pull_request_review_id ?? null,
        inReplyTo: c.in_reply_to_id ?? null,
      });
    }
    case 'pull_request_review': {
      const e = reviewEvent.safeParse(body);
      if (!e.success) return malformed(name, e.error);
      if (e.data.action !== 'submitted') return { ignored: `${name}.${e.data.action} is not used` };
      if (e.data.review.state.toLowerCase() !== 'changes_requested')
        return { ignored: `a review that is ${e.data.review.state}, not changes_requested (its comments arrive as their own events)` };
      if (fromWrench(e.data.sender, e.data.pull_request.user)) return { ignored: 'review by a bot or by Wrench itself' };
      if (!e.data.review.body?.trim()) return { ignored: 'a review without a body (its comments arrive as their own events)' };
      return one({
        kind: 'review',
        repo: repo(e.data.repository),
        pull: e.data.pull_request.number,
        url: e.data.review.html_url,
        author: e.data.sender.login,
        body: e.data.review.body,
        reviewId: e.data.review.id,
      });
    }
    case 'issue_comment': {
      const e = issueCommentEvent.safeParse(body);
      if (!e.success) return malformed(name, e.error);
      if (e.data.action !== 'created') return { ignored: `${name}.${e.data.action} is not used` };
      if (!e.data.issue.pull_request) return { ignored: 'a comment on an issue, not a pull request' };
      // On a pull request Wrench opened, its author is Wrench's account (`@wrench-app` for `wrench-app[bot]`); on any
      // other, people ask Wrench by the name configured as github.mention.
      const handle = e.data.issue.user.login.replace(/\[bot\]$/, '');
      const asksWrench = mentions(e.data.comment.body, handle) || (!!options.mention && mentions(e.data.comment.body, options.mention));
      if (isBot(e.data.sender) || (e.data.sender.login === e.data.issue.user.login && !(options.mention && mentions(e.data.comment.body, options.mention))))
        return { ignored: 'comment by a bot or by Wrench itself' };
      if (!asksWrench) return { ignored: `a pull request comment that does not mention @${handle}` };
      return one({
        kind: 'comment',
        repo: repo(e.data.repository),
        pull: e.data.issue.number,
        url: e.data.comment.html_url,
        author: e.data.sender.login,
        body: e.data.comment.body,
        commentId: e.data.comment.id,
        // Someone else's open pull request (not a bot's, such as Wrench's own): a mention may start a thread for it.
        guestPull: e.data.issue.state !== 'closed' && !isBot(e.data.issue.user),
      });
    }
    case 'check_run': {
      const e = checkRunEvent.safeParse(body);
      if (!e.success) return malformed(name, e.error);
      const run = e.data.check_run;
      if (run.pull_requests.length === 0) return { ignored: 'a check run on no pull request of this repository' };
      const url = run.html_url ?? '';
      if (e.data.action === 'completed' && run.conclusion === 'success')
        return { events: run.pull_requests.map((p) => passed(repo(e.data.repository), p.number, url, run.head_sha, run.name)) };
      if (e.data.action !== 'completed' || !FAILED.has(run.conclusion ?? ''))
        return { ignored: `check run ${e.data.action}, ${run.conclusion ?? 'no conclusion'}` };
      return {
        events: run.pull_requests.map((p) => ({
          kind: 'check-failed' as const,
          repo: repo(e.data.repository),
          pull: p.number,
          url,
          headSha: run.head_sha,
          checkName: run.name,
          jobIds: [run.id],
        })),
      };
    }
    case 'workflow_run': {
      const e = workflowRunEvent.safeParse(body);
      if (!e.success) return malformed(name, e.error);
      const run = e.data.workflow_run;
      if (run.pull_requests.length === 0) return { ignored: 'a workflow run on no pull request of this repository' };
      if (e.data.action === 'completed' && run.conclusion === 'success')
        return { events: run.pull_requests.map((p) => passed(repo(e.data.repository), p.number, run.html_url, run.head_sha, run.name ?? 'workflow')) };
      if (e.data.action !== 'completed' || !FAILED.has(run.conclusion ?? ''))
        return { ignored: `workflow run ${e.data.action}, ${run.conclusion ?? 'no conclusion'}` };
      return {
        events: run.pull_requests.map((p) => ({
          kind: 'check-failed' as const,
          repo: repo(e.data.repository),
          pull: p.number,
          url: run.html_url,
          headSha: run.head_sha,
          checkName: run.name ?? 'workflow',
          jobIds: [],
          workflowRunId: run.id,
        })),
      };
    }
    case 'pull_request': {
      const e = pullRequestEvent.safeParse(body);
      if (!e.success) return malformed(name, e.error);
      if (e.data.action === 'reopened')
        return one({
          kind: 'reopened',
          repo: repo(e.data.repository),
          pull: e.data.pull_request.number,
          url: e.data.pull_request.html_url,
          by: e.data.sender.login,
        });
      if (e.data.action !== 'closed') return { ignored: `pull_request.${e.data.action} is not used` };
      const merged = e.data.pull_request.merged ?? !!e.data.pull_request.merged_at;
      return one({
        kind: 'closed',
        repo: repo(e.data.repository),
        pull: e.data.pull_request.number,
        url: e.data.pull_request.html_url,
        merged,
        by: e.data.sender.login,
      });
    }
    default:
      return { ignored: `event ${name || '(none)'} is not used` };
  }
}

const statusEvent = z.object({
  sha: z.string(),
  state: z.string(),
  context: z.string(),
  description: z.string().nullish(),
  target_url: z.string().nullish(),
  branches: z.array(z.object({ name: z.string() })),
  repository: z.object({ name: z.string(), full_name: z.string() }),
});

/** A failed commit status and the branches whose tip it is on, or why it is left alone. */
export type StatusRead =
  | { owner: string; repo: string; sha: string; context: string; description: string | null; targetUrl: string | null; branches: string[] }
  | { ignored: string };

/** Reads a verified `status` delivery: a failure or error, with the branches it is the tip of. */
export function readStatusEvent(body: unknown): StatusRead {
  const e = statusEvent.safeParse(body);
  if (!e.success) return { ignored: `a status payload without the fields Wrench reads (${e.error.issues[0]?.path.join('.') || 'body'})` };
  if (e.data.state !== 'failure' && e.data.state !== 'error') return { ignored: `status ${e.data.state}` };
  const [owner, repo] = e.data.repository.full_name.split('/');
  if (!owner || !repo) return { ignored: 'a status payload without the repository full name' };
  return {
    owner,
    repo,
    sha: e.data.sha,
    context: e.data.context,
    description: e.data.description ?? null,
    targetUrl: e.data.target_url ?? null,
    branches: e.data.branches.map((b) => b.name),
  };
}

const pushEvent = z.object({
  ref: z.string(),
  after: z.string(),
  deleted: z.boolean().nullish(),
  repository: z.object({ name: z.string(), full_name: z.string(), default_branch: z.string().nullish() }),
});

/** A branch of a repository that moved (a `push` delivery): where pooled working trees may be brought up to date. */
export interface BranchPush {
  owner: string;
  repo: string;
  branch: string;
  /** The commit the branch is at now. */
  after: string;
  /** The repository's default branch as GitHub names it in the delivery. */
  defaultBranch?: string;
}

/** Reads a verified `push` delivery: a branch that now points at a commit, or why it is left alone (tags, deletions). */
export function readPushEvent(body: unknown): BranchPush | { ignored: string } {
  const e = pushEvent.safeParse(body);
  if (!e.success) return { ignored: `a push payload without the fields Wrench reads (${e.error.issues[0]?.path.join('.') || 'body'})` };
  if (!e.data.ref.startsWith('refs/heads/')) return { ignored: `a push to ${e.data.ref}, not to a branch` };
  if (e.data.deleted) return { ignored: 'a branch deletion' };
  const [owner, repo] = e.data.repository.full_name.split('/');
  if (!owner || !repo) return { ignored: 'a push payload without the repository full name' };
  return {
    owner,
    repo,
    branch: e.data.ref.slice('refs/heads/'.length),
    after: e.data.after,
    defaultBranch: e.data.repository.default_branch ?? undefined,
  };
}

function passed(repository: { owner: string; name: string }, pull: number, url: string, headSha: string, checkName: string): GitHubEvent {
  return { kind: 'check-passed', repo: repository, pull, url, headSha, checkName };
}

function one(event: GitHubEvent): ReadEvent {
  return { events: [event] };
}

function repo(source: z.infer<typeof repository>) {
  return { owner: source.owner.login, name: source.name };
}

function fromWrench(sender: z.infer<typeof user>, author: z.infer<typeof user>): boolean {
  return isBot(sender) || sender.login === author.login;
}

function isBot(sender: z.infer<typeof user>): boolean {
  return sender.type === 'Bot' || sender.login.endsWith('[bot]');
}

/** Whether `text` mentions `@handle` (not as part of a longer name or an email address). */
export function mentions(text: string, handle: string): boolean {
  return new RegExp(`(^|[^\\w-])@${escapeRegExp(handle)}(?![\\w-])`, 'i').test(text);
}

function malformed(name: string, error: z.ZodError): ReadEvent {
  return { ignored: `a ${name} payload without the fields Wrench reads (${error.issues[0]?.path.join('.') || 'body'})` };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const issuesEvent = z.object({
  action: z.string(),
  issue: z.object({ number: z.number(), html_url: z.string(), title: z.string(), body: z.string().nullish(), state: z.string().nullish() }),
  label: z.object({ name: z.string() }).nullish(),
  assignee: z.object({ login: z.string() }).nullish(),
  repository,
  sender: user,
});

/** An issue someone labelled or assigned (an `issues` delivery), as Wrench reads it. */
export interface IssueRequest {
  repo: { owner: string; name: string };
  number: number;
  url: string;
  title: string;
  body: string;
  author: string;
  label?: string;
  assignee?: string;
}

/** Reads a verified `issues` delivery: labelled or assigned, open, by a person. */
export function readIssueEvent(body: unknown): IssueRequest | { ignored: string } {
  const e = issuesEvent.safeParse(body);
  if (!e.success) return { ignored: `an issues payload without the fields Wrench reads (${e.error.issues[0]?.path.join('.') || 'body'})` };
  const { action, issue, sender } = e.data;
  if (action !== 'labeled' && action !== 'assigned') return { ignored: `issues.${action} is not used` };
  if (issue.state && issue.state !== 'open') return { ignored: `an issue that is ${issue.state}` };
  if (sender.type === 'Bot' || sender.login.endsWith('[bot]')) return { ignored: 'an issue labelled or assigned by a bot' };
  return {
    repo: repo(e.data.repository),
    number: issue.number,
    url: issue.html_url,
    title: issue.title,
    body: issue.body ?? '',
    author: sender.login,
    label: action === 'labeled' ? e.data.label?.name : undefined,
    assignee: action === 'assigned' ? e.data.assignee?.login : undefined,
  };
}

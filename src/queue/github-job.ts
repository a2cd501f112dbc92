import { z } from 'zod';

export const GITHUB_QUEUE = 'github';

const repoSchema = z.object({ owner: z.string(), name: z.string() });
const pullSchema = { repo: repoSchema, pull: z.number().int().positive(), url: z.string() };

/** A GitHub event on a pull request Wrench opened, read from the webhook into what the runner needs. */
export const gitHubEventSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('review-comment'),
    ...pullSchema,
    author: z.string(),
    body: z.string(),
    commentId: z.number().int(),
    path: z.string(),
    line: z.number().int().nullable(),
    startLine: z.number().int().nullable(),
    diffHunk: z.string(),
    /** The review it was submitted with (a lone comment has a review of its own); absent on jobs queued before it was read. */
    reviewId: z.number().int().nullish(),
    /** A reply in a review thread: the thread's first comment (the rest of the thread is read when the run is queued). */
    inReplyTo: z.number().int().nullish(),
  }),
  z.object({ kind: z.literal('review'), ...pullSchema, author: z.string(), body: z.string(), reviewId: z.number().int() }),
  z.object({
    kind: z.literal('comment'),
    ...pullSchema,
    author: z.string(),
    body: z.string(),
    commentId: z.number().int(),
    /** An open pull request that a person (not a bot) opened: a mention of Wrench there may start a thread for it. */
    guestPull: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('check-failed'),
    ...pullSchema,
    headSha: z.string(),
    checkName: z.string(),
    /** Actions job ids whose logs explain the failure (a check run's id is its job's id). */
    jobIds: z.array(z.number().int()),
    workflowRunId: z.number().int().optional(),
  }),
  /** A check (a check run, or a whole workflow run) that passed: told in the thread when a fix round was about it. */
  z.object({ kind: z.literal('check-passed'), ...pullSchema, headSha: z.string(), checkName: z.string() }),
  /** A commit status (Jenkins, Travis, older Buildkite) that failed on the pull request's head. */
  z.object({
    kind: z.literal('status-failed'),
    ...pullSchema,
    headSha: z.string(),
    context: z.string(),
    description: z.string().nullable(),
    targetUrl: z.string().nullable(),
  }),
  z.object({ kind: z.literal('closed'), ...pullSchema, merged: z.boolean(), by: z.string() }),
  /** A pull request Wrench opened, closed without merging, is open again: its thread resumes it. */
  z.object({ kind: z.literal('reopened'), ...pullSchema, by: z.string() }),
]);

export const gitHubJobSchema = z.object({
  kind: z.literal('github-event'),
  deliveryId: z.string(),
  event: gitHubEventSchema,
  /** The Slack thread of the pull request. */
  thread: z.object({ channel: z.string(), threadTs: z.string() }),
});

/** An issue labelled or assigned for Wrench: a run whose pull request closes it, with its thread in the repository's channel. */
export const gitHubIssueJobSchema = z.object({
  kind: z.literal('github-issue'),
  deliveryId: z.string(),
  issue: z.object({
    repo: repoSchema,
    number: z.number().int().positive(),
    url: z.string(),
    title: z.string(),
    body: z.string(),
    /** Who labelled or assigned it: the run is theirs. */
    author: z.string(),
    /** How it was asked for: "labelled `wrench`", "assigned to @wrench-bot". */
    via: z.string(),
  }),
  /** The channel linked to the repository, where the run's thread starts. */
  channel: z.string(),
  /** The channel's base branch, when it names one. */
  baseBranch: z.string().optional(),
});

/** `@wrench` (github.mention) on a pull request Wrench did not open, in a repository linked to a channel. */
export const gitHubGuestPullJobSchema = z.object({
  kind: z.literal('github-guest-pull'),
  deliveryId: z.string(),
  event: gitHubEventSchema.options[2],
  /** The channel linked to the repository, where the pull request's thread starts. */
  channel: z.string(),
});

/** What the GitHub queue carries. */
export const gitHubQueueJobSchema = z.discriminatedUnion('kind', [gitHubJobSchema, gitHubIssueJobSchema, gitHubGuestPullJobSchema]);

export type GitHubEvent = z.infer<typeof gitHubEventSchema>;
export type GitHubJob = z.infer<typeof gitHubJobSchema>;
export type GitHubIssueJob = z.infer<typeof gitHubIssueJobSchema>;
export type GitHubGuestPullJob = z.infer<typeof gitHubGuestPullJobSchema>;
export type GitHubQueueJob = z.infer<typeof gitHubQueueJobSchema>;

/** On a task job started from GitHub: where and to whom the result is answered on GitHub. */
export const gitHubTriggerSchema = z.object({
  kind: z.enum(['review-comment', 'review', 'comment', 'check-failed', 'issue']),
  pull: z.number().int().positive(),
  /** Login of the person who asked (absent for a failing check). */
  author: z.string().optional(),
  /** Review comments are answered on their own thread. */
  reviewCommentId: z.number().int().optional(),
  /** The pull request comment that asked (it gets the 👀 reaction while the run works). */
  commentId: z.number().int().optional(),
  url: z.string(),
  /** An issue the run's pull request closes (`Closes #N` in its body). */
  closesIssue: z.number().int().positive().optional(),
  /** For fix rounds: "round 1 of 2". */
  round: z.object({ number: z.number().int(), of: z.number().int() }).optional(),
});

export type GitHubTrigger = z.infer<typeof gitHubTriggerSchema>;

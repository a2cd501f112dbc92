import { isWrenchError, wrenchErrorSaying } from '../src/errors.js';
import { catchUpWithRemoteBranch } from '../src/workspace/catch-up-branch.js';
import { openOrUpdatePullRequest } from '../src/github/pull-request.js';
import type { TaskJob } from '../src/queue/task-job.js';
import { renderResultMarkdown } from '../src/reporting/render-result-text.js';
import type { RunResult } from '../src/reporting/run-result.js';
import { changedFiles, commitAll } from '../src/workspace/commit-changes.js';
import { deleteRemoteBranch } from '../src/workspace/delete-remote-branch.js';
import type { JobWorkspace } from '../src/workspace/job-workspace.js';
import { pushToLocal } from '../src/workspace/local-workspace.js';
import { pushBranch } from '../src/workspace/push-branch.js';
import { coAuthorOf, type Requester } from '../src/workspace/commit-trailers.js';
import type { PushGuard } from '../src/workspace/outgoing-commits.js';
import { hostId } from '../src/queue/host-id.js';
import { heldWorkDir } from '../src/workspace/hold-refused-work.js';
import type { NamedSecret, Redactor } from '../src/security/redact.js';
import { afterTheJob } from './background-work.js';
import type { RunnerDeps } from './runner-deps.js';
import type { TaskRunContext } from './runner-deps.js';

/* Publishing a run's change: the commit, the push, and the pull request opened or updated. */

/** Commits what the agent left; also counts commits the agent made itself despite being told not to. */
export async function commitWork(job: TaskJob, workspace: JobWorkspace, summary: string | undefined, context: TaskRunContext, redact: Redactor) {
  const commit = await commitAll({
    dir: workspace.dir,
    // Wrench writes this message from the agent's summary and the instruction: its own secrets never go in it.
    message: redact(commitMessage(job, summary)),
    requester: requesterOf(job, context),
    threadUrl: context.threadUrl,
  });
  if (commit) return { filesChanged: await changedFiles({ dir: workspace.dir, baseSha: workspace.headSha }) };
  const files = await changedFiles({ dir: workspace.dir, baseSha: workspace.headSha });
  return files.length > 0 ? { filesChanged: files } : null;
}

function requesterOf(job: TaskJob, context: TaskRunContext): Requester {
  return { name: context.requesterName ?? job.requester.slackUserId, slackUserId: job.requester.slackUserId, email: context.requesterEmail };
}

/** What every push of a run checks: nothing of Wrench's secrets leaves, and its commits are the bot's, crediting the requester. */
export function runPushGuard(job: TaskJob, workspace: JobWorkspace, context: TaskRunContext, deps: RunnerDeps): PushGuard {
  return {
    baseSha: workspace.headSha,
    secrets: credentialsOf(deps),
    identity: deps.config.file.git,
    coAuthor: coAuthorOf(requesterOf(job, context)),
    heldDir: heldWorkDir(deps.config.dataDir),
    heldDays: deps.config.env.WRENCH_HELD_RETENTION_DAYS,
    heldOn: hostId(deps.config.env),
  };
}

/** Wrench's secrets with their settings' names (unnamed ones are still refused). */
export function credentialsOf(deps: RunnerDeps): NamedSecret[] {
  return deps.credentials ?? deps.secrets.map((value) => ({ name: 'credential', value }));
}

export async function publish(
  job: TaskJob,
  workspace: JobWorkspace,
  result: RunResult,
  /** `stopped`: the agent did not finish (a limit, a cancel); `draft`: the pull request is a draft, for that or a reason of its own. */
  { stopped, draft }: { stopped: boolean; draft: boolean },
  context: TaskRunContext,
  deps: RunnerDeps,
): Promise<RunResult> {
  const guard = runPushGuard(job, workspace, context, deps);
  if (job.localPath) {
    await pushToLocal({ dir: workspace.dir, localPath: job.localPath, branch: workspace.branch, guard });
    return { ...result, status: stopped ? 'stopped' : 'answered', pushedTo: job.localPath };
  }
  if (!deps.github) throw wrenchErrorSaying('github_not_configured', { key: 'githubNotConfigured', need: 'pullRequest' });
  const remote = await remoteOf(job, workspace, deps, guard);
  const pushed = await pushCatchingUp(workspace, remote, deps);
  await context.onPushed?.({ branch: workspace.branch, startSha: workspace.headSha });
  // The branch is the run's own, not the thread's from before it: made by this attempt or by an interrupted earlier one.
  const ownBranch = !context.continueBranch;
  let pr;
  try {
    pr = await openOrUpdatePullRequest(
      deps.github,
      {
        owner: job.repo.owner,
        repo: job.repo.name,
        head: workspace.branch,
        base: workspace.baseBranch,
        title: pullRequestTitle(job.instruction),
        body: renderPullRequestBody(result, context.threadUrl, context.runPageUrl, job.github?.closesIssue),
        draft,
      },
      deps.redact,
      { branchIsNew: ownBranch && !context.earlierAttempt },
    );
  } catch (error) {
    // A new branch without its pull request is half-made work: take it back. A follow-up's branch stays, and so does one an
    // earlier attempt pushed (its pull request may be open).
    if (ownBranch && !context.earlierAttempt) {
      const deleted = await deleteRemoteBranch({ ...remote, expectedSha: pushed.sha }).then(
        () => true,
        () => false,
      );
      if (deleted) await context.onPushed?.(null);
    }
    throw error;
  }
  await context.onPushed?.({ branch: workspace.branch, startSha: workspace.headSha, pullRequest: { number: pr.number, url: pr.url } });
  // A pull request on the run's own branch is the run's: one an interrupted attempt opened is reported as opened.
  if (ownBranch && !pr.created) pr = { ...pr, created: true };
  // A run asked for on GitHub is answered on its own comment thread instead (github-reply.ts). The note goes after the
  // reply: GitHub's guidance (and Octokit's throttling) spaces writes a second apart, and the reply does not need it.
  if (!pr.created && !job.github) {
    afterTheJob(
      deps.github.issues.createComment({
        owner: job.repo.owner,
        repo: job.repo.name,
        issue_number: pr.number,
        body: deps.redact(followUpComment(job, result, context.threadUrl)),
      }),
      deps.logger,
      'could not note the follow-up on the pull request',
    );
  }
  return { ...result, status: stopped ? 'stopped' : pr.created ? 'pr_opened' : 'pr_updated', pullRequest: pr };
}

type PushTarget = Omit<Parameters<typeof pushBranch>[0], 'dir'>;

/** Pushes the committed work to the run's branch without a pull request (a run pausing on a question keeps its work so). */
export async function pushWork(job: TaskJob, workspace: JobWorkspace, context: TaskRunContext, deps: RunnerDeps): Promise<void> {
  const guard = runPushGuard(job, workspace, context, deps);
  if (job.localPath) {
    await pushToLocal({ dir: workspace.dir, localPath: job.localPath, branch: workspace.branch, guard });
    return;
  }
  await pushCatchingUp(workspace, await remoteOf(job, workspace, deps, guard), deps);
  await context.onPushed?.({ branch: workspace.branch, startSha: workspace.headSha });
}

async function remoteOf(job: TaskJob, workspace: JobWorkspace, deps: RunnerDeps, guard: PushGuard): Promise<PushTarget> {
  return {
    guard,
    gitBaseUrl: deps.config.env.GIT_BASE_URL,
    owner: job.repo.owner,
    repo: job.repo.name,
    branch: workspace.branch,
    credential: await deps.gitCredential?.(job.repo.owner, job.repo.name),
  };
}

/**
 * Pushes without force. When someone pushed to the branch meanwhile, the run's commits are replayed on top of
 * theirs and pushed again; a real conflict keeps the work on a side branch, named in the error the thread shows.
 */
async function pushCatchingUp(workspace: JobWorkspace, remote: PushTarget, deps: RunnerDeps) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await pushBranch({ ...remote, dir: workspace.dir });
    } catch (error) {
      if (!isWrenchError(error) || error.code !== 'branch_moved' || attempt >= 3) throw error;
    }
    const caughtUp = await catchUpWithRemoteBranch({ ...remote, dir: workspace.dir, dataDir: deps.config.dataDir });
    deps.logger.info({ branch: remote.branch, remoteSha: caughtUp.remoteSha, ok: caughtUp.ok }, 'the branch moved on the remote; replaying this run on top');
    if (!caughtUp.ok) {
      const side = `${remote.branch}-conflict-${Date.now().toString(36)}`;
      await pushBranch({ ...remote, branch: side, dir: workspace.dir });
      throw wrenchErrorSaying('branch_conflict', { key: 'branchConflict', branch: remote.branch, side, files: caughtUp.conflicts });
    }
  }
}

function renderPullRequestBody(result: RunResult, threadUrl?: string, runPageUrl?: string, closesIssue?: number): string {
  const body = renderResultMarkdown(result, { threadUrl, forPullRequest: true });
  const steps = runPageUrl ? `\n\n[Every step Wrench took in this run](${runPageUrl})` : '';
  // GitHub closes the issue when the pull request is merged into the default branch.
  return `${body}${steps}${closesIssue ? `\n\nCloses #${closesIssue}` : ''}`;
}

function followUpComment(job: TaskJob, result: RunResult, threadUrl?: string): string {
  const files = result.filesChanged.map((f) => `- \`${f}\``).join('\n');
  return [
    `**Follow-up from Slack**${threadUrl ? ` ([thread](${threadUrl}))` : ''}:`,
    job.instruction
      .split('\n')
      .map((l) => `> ${l}`)
      .join('\n'),
    '',
    result.report?.summary ?? '',
    files ? `\nFiles changed in this update:\n${files}` : '',
  ]
    .join('\n')
    .trim();
}

/**
 * The first line of the instruction (already the person's text: see src/slack/message-text.ts) without
 * Markdown emphasis and code marks; identifiers such as `parse_date` keep their underscores.
 */
export function pullRequestTitle(instruction: string): string {
  const firstLine =
    instruction
      .replace(/`+/g, '')
      .replace(/(^|[\s(])([*_~])([^*_~\s](?:[^*_~\n]*[^*_~\s])?)\2(?=$|[\s).,:;!?])/gm, '$1$3')
      .replace(/^\s*task:\s*/i, '')
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? 'Changes requested in Slack';
  const title = firstLine.charAt(0).toUpperCase() + firstLine.slice(1);
  return title.length > 72 ? `${title.slice(0, 71).trimEnd()}…` : title;
}

function commitMessage(job: TaskJob, summary?: string): string {
  const body = summary ? `\n\n${summary}` : '';
  return `${pullRequestTitle(job.instruction)}${body}`;
}

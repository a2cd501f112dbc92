import { randomBytes } from 'node:crypto';
import { runAgent } from '../src/agent/agent-loop.js';
import { systemPrompt } from '../src/agent/system-prompt.js';
import { taskMessage } from '../src/agent/task-message.js';
import { workspaceTools } from '../src/agent/workspace-tools.js';
import { WrenchError } from '../src/errors.js';
import type { TaskJob } from '../src/queue/task-job.js';
import type { ResultSection, RunResult } from '../src/reporting/run-result.js';
import { githubReviewPayload, postGitHubReview } from '../src/review/github-review.js';
import { fetchPullRequest, type PullRequestData } from '../src/review/pull-request-data.js';
import { pullRequestContext } from '../src/review/pull-request-context.js';
import { findingsCount, reviewSections } from '../src/review/render-review.js';
import { reviewReportSchema } from '../src/review/review-report.js';
import { reviewedPullNumber } from '../src/review/review-target.js';
import { severityScale } from '../src/review/severity-scale.js';
import { checkoutPullHead } from '../src/workspace/checkout-pull-head.js';
import { prepareWorkspace, removeWorkspace, type JobWorkspace } from '../src/workspace/job-workspace.js';
import { prepareLocalWorkspace } from '../src/workspace/local-workspace.js';
import { networkFor } from './network-policy.js';
import type { RunnerDeps } from './runner-deps.js';
import { continueHint } from './failure-message.js';
import type { TaskRunContext } from './runner-deps.js';
import { jobSandbox } from './job-sandbox.js';

/**
 * A code review, read-only from start to end: the pull request's metadata, files and diff from GitHub,
 * its head checked out in a throw-away workspace, the agent reviewing with the instruction's focus areas
 * and severity labels, then the report grouped by severity in the thread and (when the config enables it)
 * a comment-only GitHub review with inline comments. Nothing is committed, pushed, approved or merged.
 * Without a pull request number it reviews the named code on the base branch.
 */
export async function runReview(job: TaskJob, context: TaskRunContext, deps: RunnerDeps): Promise<RunResult> {
  const started = Date.now();
  const repository = `${job.repo.owner}/${job.repo.name}`;
  const log = deps.logger.child({ jobId: context.jobId, repo: repository });
  const labels = severityScale(job.elements.severityLabels);
  const number = reviewedPullNumber(job.elements, context.history);

  let pr: PullRequestData | null = null;
  if (number !== undefined) {
    if (!deps.github) throw new WrenchError('github_not_configured', 'Reviewing a pull request needs a GitHub credential; set GITHUB_TOKEN, or GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY_PATH for a GitHub App.');
    await context.reporter.phase('preparing', `reading pull request #${number}`);
    pr = await fetchPullRequest(deps.github, job.repo.owner, job.repo.name, number);
    if (!pr) return finish(context, pullNotFound(job, repository, number, started));
  }

  await context.reporter.phase('preparing', pr ? `checking out the head of #${pr.number} (read-only)` : `cloning ${repository} (read-only)`);
  const workspace = await openReviewWorkspace(job, pr, context.jobId, deps);
  let run;
  try {
    if (pr) {
      await checkoutPullHead({
        dir: workspace.dir,
        gitBaseUrl: deps.config.env.GIT_BASE_URL,
        owner: job.repo.owner,
        repo: job.repo.name,
        number: pr.number,
        headSha: pr.head.sha,
        headRef: pr.head.ref,
        headRepoFullName: pr.head.repoFullName?.toLowerCase() === repository.toLowerCase() ? undefined : pr.head.repoFullName,
        credential: await deps.gitCredential?.(job.repo.owner, job.repo.name),
      });
    }
    const sandbox = jobSandbox(deps, workspace.dir, { readOnly: true, log });
    const network = networkFor('code-review', deps);

    context.onAgentStarted?.();
    await context.reporter.phase('working', pr ? `reviewing #${pr.number}` : 'reviewing the code');
    run = await runAgent({
      client: deps.anthropic,
      model: deps.config.env.WRENCH_MODEL,
      system: systemPrompt('code-review', { readOnly: true, network }),
      task: taskMessage({
        instruction: job.instruction,
        repository,
        baseBranch: workspace.baseBranch,
        branch: pr ? `pull request #${pr.number} (${pr.head.ref})` : workspace.baseBranch,
        category: job.category,
        complexity: job.complexity,
        elements: job.elements,
        history: context.history,
        environment: reviewEnvironment(pr, workspace, labels),
        context: pr ? pullRequestContext(pr) : undefined,
      }),
      tools: workspaceTools({ sandbox, root: workspace.dir, readOnly: true, network, signal: context.signal }),
      report: { schema: reviewReportSchema(labels), description: `Finish the review with your findings, each with a severity from ${labels.join('/')}, file, line, problem and suggested fix.` },
      budget: {
        maxSteps: deps.config.file.limits.steps,
        maxMillis: deps.config.file.limits.minutes[job.complexity] * 60_000,
        maxCostUsd: deps.config.file.limits.costUsd,
        maxTokens: 20_000_000,
      },
      signal: context.signal,
      onEvent: (event) => {
        context.record?.agentEvent(event);
        if (event.type === 'tool') void context.reporter.phase('working', event.detail).catch(() => undefined);
      },
    });
    log.info({ outcome: run.outcome, steps: run.steps, usage: run.usage, stop: run.stop?.code, findings: run.report?.findings.length }, 'review finished');
  } finally {
    await removeWorkspace(workspace.dir).catch((error) => log.warn({ err: error }, 'could not remove workspace'));
  }

  const subject = pr ? `PR #${pr.number} (${pr.url})` : `\`${repository}\` on \`${workspace.baseBranch}\``;
  const sections: ResultSection[] = run.report ? reviewSections(run.report, labels) : [];
  if (pr && run.report && deps.github && deps.config.file.review.githubReview) {
    const payload = githubReviewPayload(run.report, labels, pr.files, context.threadUrl);
    try {
      const posted = await postGitHubReview(deps.github, { owner: job.repo.owner, repo: job.repo.name, number: pr.number, headSha: pr.head.sha }, payload, deps.redact);
      if (posted.inlineRefused) log.warn({ reason: posted.inlineRefused, comments: payload.comments.length }, 'GitHub refused the inline review comments (HTTP 422); posted them in the review body instead');
      sections.push({ title: 'On GitHub', body: `Posted as a comment-only review with ${posted.inline} inline comment${posted.inline === 1 ? '' : 's'}${posted.url ? `: ${posted.url}` : '.'}` });
    } catch (error) {
      log.warn({ err: error }, 'could not post the GitHub review');
      sections.push({ title: 'On GitHub', body: `I could not post the review on GitHub (${(error as Error).message.split('\n')[0]}); the findings above are complete.` });
    }
  }
  const result: RunResult = {
    status: run.outcome === 'stopped' ? 'stopped' : 'answered',
    repository,
    instruction: job.instruction,
    headline: run.report ? `:mag: Review of ${subject}: ${findingsCount(run.report, labels)}` : `:mag: Review of ${subject}`,
    answer: run.report?.summary ?? (run.finalText || 'The review ended without a report.'),
    sections,
    stopReason: run.stop ? `${run.stop.message} The review is incomplete; ${continueHint(job, undefined, 'try again')}` : undefined,
    stopCode: run.stop?.code,
    filesChanged: [],
    usage: run.usage,
    costUsd: run.costUsd,
    steps: run.steps,
    durationMs: Date.now() - started,
  };
  return finish(context, result);
}

async function finish(context: TaskRunContext, result: RunResult): Promise<RunResult> {
  await context.reporter.finished(result);
  return result;
}

function pullNotFound(job: TaskJob, repository: string, number: number, started: number): RunResult {
  return {
    status: 'answered',
    repository,
    instruction: job.instruction,
    headline: `:grey_question: \`${repository}\` has no pull request #${number}, so there is nothing to review.`,
    answer: `Check the number, or name the repository if the pull request is elsewhere: \`review PR #${number} in owner/repo\` (or paste its URL).`,
    filesChanged: [],
    durationMs: Date.now() - started,
  };
}

async function openReviewWorkspace(job: TaskJob, pr: PullRequestData | null, jobId: string, deps: RunnerDeps): Promise<JobWorkspace> {
  const shortId = randomBytes(3).toString('hex');
  const branch = `wrench/review-${pr?.number ?? 'code'}-${shortId}`;
  const workspaceId = `${jobId}-${shortId}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  if (job.localPath) return prepareLocalWorkspace({ dataDir: deps.config.dataDir, localPath: job.localPath, branch, jobId: workspaceId, baseBranch: job.repo.baseBranch });
  return prepareWorkspace({
    dataDir: deps.config.dataDir,
    gitBaseUrl: deps.config.env.GIT_BASE_URL,
    owner: job.repo.owner,
    repo: job.repo.name,
    baseBranch: pr?.base.ref ?? job.repo.baseBranch,
    branch,
    jobId: workspaceId,
    credential: await deps.gitCredential?.(job.repo.owner, job.repo.name),
  });
}

function reviewEnvironment(pr: PullRequestData | null, workspace: JobWorkspace, labels: readonly string[]): string {
  const scale = `Severity labels to use, most severe first: ${labels.join(', ')}.`;
  if (!pr) return `A read-only checkout of ${workspace.baseBranch} at ${workspace.baseSha}. ${scale}`;
  return [
    `A read-only checkout of the pull request's head (${pr.head.sha}); the base branch ${pr.base.ref} is at ${workspace.baseSha}.`,
    `\`git diff ${workspace.baseSha}...HEAD\` shows the pull request's changes; report lines of the head version (the + side of the diff).`,
    scale,
  ].join('\n');
}

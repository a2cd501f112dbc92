import { systemPrompt } from '../../src/agent/system-prompt.js';
import { taskMessage } from '../../src/agent/task-message.js';
import { wrenchErrorSaying } from '../../src/errors.js';
import type { TaskJob } from '../../src/queue/task-job.js';
import type { ResultSection, RunResult } from '../../src/reporting/run-result.js';
import { githubReviewPayload, postGitHubReview } from '../../src/review/github-review.js';
import { fetchPullRequest, type PullRequestData } from '../../src/review/pull-request-data.js';
import { pullRequestContext } from '../../src/review/pull-request-context.js';
import { findingsCount, reviewSections } from '../../src/review/render-review.js';
import { stringsFor } from '../../src/slack/strings/index.js';
import { reviewReportSchema, type ReviewReport } from '../../src/review/review-report.js';
import { reviewedPullNumber } from '../../src/review/review-target.js';
import { severityScale } from '../../src/review/severity-scale.js';
import { checkoutPullHead } from '../../src/workspace/checkout-pull-head.js';
import type { JobWorkspace } from '../../src/workspace/job-workspace.js';
import { continueHint } from '../failure-message.js';
import { threadStopExplanation } from './change-profile.js';
import { networkFor } from '../network-policy.js';
import { type AgentProfile, instructionFilesRead, type StartingRun } from '../pipeline/run-pipeline.js';

interface ReviewRunState {
  /** The pull request this run reviews (null: the named code on the base branch). */
  pr: PullRequestData | null;
}

/**
 * A code review, read-only from start to end: the pull request's metadata, files and diff from GitHub,
 * its head checked out in a throw-away workspace, the agent reviewing with the instruction's focus areas
 * and severity labels, then the report grouped by severity in the thread and (when the config enables it)
 * a comment-only GitHub review with inline comments. Nothing is committed, pushed, approved or merged.
 * Without a pull request number it reviews the named code on the base branch.
 */
export function reviewProfile(): AgentProfile<TaskJob, ReviewReport, RunResult, ReviewRunState> {
  return {
    kind: 'review',
    edit: 'agent',
    start: () => ({ pr: null }),
    readOnly: () => true,
    verifies: () => false,
    repository: (job) => job.repo,
    logFields: (job) => ({ thread: job.origin.type === 'slack' ? job.origin.threadTs : undefined }),

    async gather(run) {
      const { job, deps, context } = run;
      const number = reviewedPullNumber(job.elements, context.history);
      if (number === undefined) return undefined;
      if (!deps.github) throw wrenchErrorSaying('github_not_configured', { key: 'githubNotConfigured', need: 'review' });
      await context.reporter.phase('preparing', { key: 'readingPull', number });
      run.state.pr = await fetchPullRequest(deps.github, job.repo.owner, job.repo.name, number);
      if (!run.state.pr) return { stop: pullNotFound(run, number) };
    },

    preparing: (run) => {
      const { pr } = run.state;
      return pr ? { key: 'checkingOutHead', number: pr.number } : { key: 'cloning', repository: run.repository, readOnly: true };
    },
    workspace: ({ job, shortId, state: { pr } }) => {
      return {
        owner: job.repo.owner,
        repo: job.repo.name,
        baseBranch: pr?.base.ref ?? job.repo.baseBranch,
        branch: `wrench/review-${pr?.number ?? 'code'}-${shortId}`,
        localPath: job.localPath,
      };
    },

    async checkout({ job, workspace, deps, repository, state: { pr } }) {
      if (!pr) return;
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
    },
    network: (run, phase) => networkFor('code-review', run.deps, phase),

    agent(run) {
      const {
        job,
        state: { pr },
      } = run;
      const labels = severityScale(job.elements.severityLabels);
      return {
        system: systemPrompt('code-review', { readOnly: true, network: run.network }),
        task: taskMessage({
          instruction: job.instruction,
          repository: run.repository,
          baseBranch: run.workspace.baseBranch,
          branch: pr ? `pull request #${pr.number} (${pr.head.ref})` : run.workspace.baseBranch,
          category: job.category,
          complexity: job.complexity,
          elements: job.elements,
          history: run.context.history,
          environment: reviewEnvironment(pr, run.workspace, labels),
          context: pr ? pullRequestContext(pr) : undefined,
        }),
        report: {
          schema: reviewReportSchema(labels),
          description: `Finish the review with your findings, each with a severity from ${labels.join('/')}, file, line, problem and suggested fix.`,
        },
        complexity: job.complexity,
        startDetail: pr ? { key: 'reviewingPull', number: pr.number } : { key: 'reviewingCode' },
      };
    },

    async publish(run, { run: agentRun }) {
      const {
        job,
        deps,
        context,
        log,
        state: { pr },
      } = run;
      const labels = severityScale(job.elements.severityLabels);
      log.info({ findings: agentRun.report?.findings.length }, 'review finished');
      // Wrench's words in the thread's language (the review posted on GitHub stays English).
      const t = stringsFor(job.origin.type === 'slack' ? job.language : undefined).review;
      const stop = agentRun.stop;
      const thread = job.origin.type === 'slack' && !job.localPath && job.language && job.language !== 'en' ? stringsFor(job.language) : undefined;
      const subject = pr ? `PR #${pr.number} (${pr.url})` : t.onBranch(`\`${run.repository}\``, `\`${run.workspace.baseBranch}\``);
      const sections: ResultSection[] = agentRun.report ? reviewSections(agentRun.report, labels, t) : [];
      if (pr && agentRun.report && deps.github && deps.config.file.review.githubReview) {
        const payload = githubReviewPayload(agentRun.report, labels, pr.files, context.threadUrl);
        try {
          const posted = await postGitHubReview(
            deps.github,
            { owner: job.repo.owner, repo: job.repo.name, number: pr.number, headSha: pr.head.sha },
            payload,
            deps.redact,
          );
          if (posted.inlineRefused)
            log.warn(
              { reason: posted.inlineRefused, comments: payload.comments.length },
              'GitHub refused the inline review comments (HTTP 422); posted them in the review body instead',
            );
          sections.push({ title: t.onGitHub, body: t.posted(posted.inline, posted.url) });
        } catch (error) {
          log.warn({ err: error }, 'could not post the GitHub review');
          sections.push({ title: t.onGitHub, body: t.couldNotPost((error as Error).message.split('\n')[0] ?? '') });
        }
      }
      return {
        status: agentRun.outcome === 'stopped' ? 'stopped' : 'answered',
        repository: run.repository,
        instruction: job.instruction,
        headline: t.reviewOf(subject, agentRun.report ? findingsCount(agentRun.report, labels, t) : undefined),
        answer: agentRun.report?.summary ?? (agentRun.finalText || t.noReport),
        sections,
        stopReason: stop ? `${stop.message} The review is incomplete; ${continueHint(job, false, 'try again')}` : undefined,
        // Why it stopped in the thread's words, where Wrench has them (a limit, a cancel, the model failing).
        threadStopReason: stop && thread ? threadStopExplanation(stop, context.signal.reason, thread.stop, thread.review.incomplete) : undefined,
        stopCode: agentRun.stop?.code,
        filesChanged: [],
        usage: agentRun.usage,
        costUsd: agentRun.costUsd,
        steps: agentRun.steps,
        durationMs: Date.now() - run.started,
        instructionFiles: instructionFilesRead(run),
      };
    },

    report: (run, result) => run.context.reporter.finished(result),
  };
}

function pullNotFound(run: StartingRun<TaskJob, ReviewRunState>, number: number): RunResult {
  const t = stringsFor(run.job.origin.type === 'slack' ? run.job.language : undefined).review;
  return {
    status: 'answered',
    repository: run.repository,
    instruction: run.job.instruction,
    headline: t.noSuchPull(run.repository, number),
    answer: t.checkNumber(number),
    filesChanged: [],
    durationMs: Date.now() - run.started,
  };
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

import { reportSchemaFor } from '../../src/agent/category-reports.js';
import type { TaskReport } from '../../src/agent/finish-tool.js';
import { systemPrompt } from '../../src/agent/system-prompt.js';
import { taskMessage } from '../../src/agent/task-message.js';
import type { TaskJob } from '../../src/queue/task-job.js';
import type { RunResult } from '../../src/reporting/run-result.js';
import { protectedChanges } from '../../src/security/protected-paths.js';
import { branchName } from '../../src/workspace/branch-name.js';
import { categorySteps } from '../category-steps/category-steps.js';
import type { AfterAgent, CategorySteps } from '../category-steps/step-types.js';
import { continueHint } from '../failure-message.js';
import { addUsage, costUsd, emptyUsage, type TokenUsage } from '../../src/agent/pricing.js';
import { RunCancelled, ShutdownSignal } from '../../src/sessions/cancellation.js';
import { runGit } from '../../src/workspace/run-git.js';
import { networkFor } from '../network-policy.js';
import type { AgentStageResult, RunProfile } from '../pipeline/run-pipeline.js';
import { commitWork, publish } from '../publish-change.js';
import type { ChangeVerifier } from '../verify-change.js';

const READ_ONLY_CATEGORIES = new Set(['code-review', 'incident-triage']);

/**
 * A change: a branch (new, or the thread's for a follow-up), the category's steps around the agent, the
 * repository's checks before and after with one fix round, then commit, push and a pull request (a draft
 * when it stopped early, regressed, or touched protected paths), or an answer when nothing changed.
 */
export function changeProfile(): RunProfile<TaskJob, TaskReport, RunResult> {
  /** The category's steps of this run (they keep state between before and after the agent). */
  let steps: CategorySteps = {};
  return {
    kind: 'change',
    readOnly: (job) => READ_ONLY_CATEGORIES.has(job.category),
    verifies: () => true,
    repository: (job) => job.repo,
    logFields: (job) => ({ thread: job.origin.type === 'slack' ? job.origin.threadTs : undefined }),
    preparing: (run) => `cloning ${run.repository}`,
    workspace: ({ job, context, shortId }) => ({
      owner: job.repo.owner,
      repo: job.repo.name,
      baseBranch: job.repo.baseBranch,
      branch: context.continueBranch ?? branchName(job.instruction, shortId),
      existingBranch: !!context.continueBranch,
      localPath: job.localPath,
    }),
    network: (run, phase) => networkFor(run.job.category, run.deps, phase),

    async before(run) {
      if (run.readOnly) return {};
      steps = categorySteps({
        job: run.job,
        dir: run.workspace.dir,
        startSha: run.workspace.headSha,
        sandbox: run.sandbox,
        verifier: run.verifier,
        network: run.network,
        inputs: run.context.reporter.inputFiles,
        log: run.log,
        signal: run.context.signal,
        progress: run.progress,
      });
      return (await steps.before?.()) ?? {};
    },

    agent(run, before) {
      const { job } = run;
      return {
        system: systemPrompt(job.category, { readOnly: run.readOnly, network: run.network }),
        task: taskMessage({
          instruction: job.instruction,
          repository: run.repository,
          baseBranch: run.workspace.baseBranch,
          branch: run.workspace.branch,
          category: job.category,
          complexity: job.complexity,
          elements: job.elements,
          history: run.context.history,
          environment: [run.verifier ? environmentNote(run.verifier) : '', ...(before.environment ?? [])].filter(Boolean).join('\n') || undefined,
          requirements: before.requirements,
        }),
        report: { schema: reportSchemaFor(job.category), description: 'Finish the task with your final report.' },
        complexity: job.complexity,
      };
    },

    async after(_run, { run: agentRun, verification }) {
      return (await steps.after?.({ report: agentRun.report, verification })) ?? {};
    },

    async publish(run, result: AgentStageResult<TaskReport>, afterValue) {
      const { job, context, workspace, log } = run;
      const { run: agentRun, verification } = result;
      const extra = (afterValue ?? {}) as AfterAgent;
      const base: RunResult = {
        status: 'answered',
        repository: run.repository,
        instruction: job.instruction,
        report: agentRun.report,
        // A cancelled run's last words are an interim note ("Step 0."), not a summary: the stop reason says what happened.
        answer: agentRun.report || agentRun.stop?.code === 'cancelled' ? undefined : agentRun.finalText,
        stopReason: agentRun.stop ? stopExplanation(agentRun.stop.code, agentRun.stop.message, context.signal.reason, job, workspace.branch) : undefined,
        stopCode: agentRun.stop?.code,
        verification: verification?.text,
        verificationVerdict: verification?.comparison?.verdict,
        filesChanged: [],
        ...withReaderUsage(agentRun.usage, agentRun.costUsd, job.reader),
        steps: agentRun.steps,
        durationMs: 0,
        sections: extra.sections,
        attachments: extra.attachments,
      };
      if (verification?.regressed) {
        base.draftReason = 'Checks that passed before this change now fail (see Verification); an agent round to fix them did not succeed.';
      }
      if (extra.draftReason) base.draftReason = base.draftReason ? `${base.draftReason}\n\n${extra.draftReason}` : extra.draftReason;

      const commit = run.readOnly ? null : await commitWork(job, workspace, agentRun.report?.summary, context);
      if (commit && context.record) {
        const diff = await runGit(['diff', '--no-color', '--no-ext-diff', workspace.headSha, 'HEAD'], { cwd: workspace.dir }).catch(() => '');
        context.record.changes(diff);
      }
      if (!commit) {
        return {
          ...base,
          status: agentRun.outcome === 'stopped' ? 'stopped' : 'answered',
          answer:
            agentRun.report?.summary ??
            (agentRun.stop?.code === 'cancelled' ? 'Nothing had changed yet, so there is no branch.' : agentRun.finalText) ??
            'I finished without changing any file.',
          durationMs: Date.now() - run.started,
        };
      }
      const touchedProtected = protectedChanges(commit.filesChanged, run.deps.config.file.protectedPaths);
      if (touchedProtected.length > 0) {
        const warning = `This change touches protected paths (${touchedProtected.map((f) => `\`${f}\``).join(', ')}); an approver must review and clear it before it is marked ready.`;
        base.draftReason = base.draftReason ? `${base.draftReason}\n\n${warning}` : warning;
        log.warn({ files: touchedProtected }, 'change touches protected paths: draft PR');
      }
      await context.reporter.phase('publishing', `pushing ${workspace.branch}`);
      const published = await publish(
        job,
        workspace,
        { ...base, branch: workspace.branch, filesChanged: commit.filesChanged },
        agentRun.outcome === 'stopped' || !!base.draftReason,
        context,
        run.deps,
      );
      return { ...published, durationMs: Date.now() - run.started };
    },

    answerWithoutAgent: (run, stop) => ({
      status: 'answered',
      repository: run.repository,
      instruction: run.job.instruction,
      headline: stop.headline,
      answer: stop.answer,
      filesChanged: [],
      durationMs: Date.now() - run.started,
    }),

    report: (run, result) => run.context.reporter.finished(result),
  };
}

function stopExplanation(code: string, message: string, reason: unknown, job: TaskJob, branch: string): string {
  const kept = `The work done until then is kept on \`${branch}\` (in a draft pull request when anything changed)`;
  const cancelled = reason instanceof RunCancelled ? `Cancelled by ${reason.by}.` : 'Cancelled.';
  if (code === 'cancelled' && reason instanceof ShutdownSignal) return `Wrench was restarting, so this run stopped. ${kept}; ${continueHint(job, branch)}`;
  if (code === 'cancelled') return `${cancelled} ${kept}.`;
  return `${message} ${kept}; ${continueHint(job, branch)}`;
}

/** The model reading of the instruction is part of what the run cost. */
function withReaderUsage(usage: TokenUsage, cost: number, reader: TaskJob['reader']): { usage: TokenUsage; costUsd: number } {
  if (!reader) return { usage, costUsd: cost };
  const readerUsage = { ...emptyUsage(), inputTokens: reader.inputTokens, outputTokens: reader.outputTokens };
  return {
    usage: addUsage({ ...usage }, { input_tokens: reader.inputTokens, output_tokens: reader.outputTokens }),
    costUsd: cost + costUsd(reader.model, readerUsage),
  };
}

function environmentNote(verifier: ChangeVerifier): string {
  return verifier.hasChecks
    ? "Wrench will run the repository's tests and linters itself after you finish and compare them with the base commit."
    : 'Wrench found no test command in this repository; verify your change with whatever checks you can run.';
}

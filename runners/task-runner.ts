import { randomBytes } from 'node:crypto';
import { runAgent, type AgentBudget, type AgentEvent } from '../src/agent/agent-loop.js';
import { reportSchemaFor } from '../src/agent/category-reports.js';
import { systemPrompt } from '../src/agent/system-prompt.js';
import { taskMessage } from '../src/agent/task-message.js';
import { workspaceTools } from '../src/agent/workspace-tools.js';
import { addUsage, costUsd, emptyUsage, type TokenUsage } from '../src/agent/pricing.js';
import type { TaskJob } from '../src/queue/task-job.js';
import type { RunPhase, RunReporter, RunResult } from '../src/reporting/run-result.js';
import { protectedChanges } from '../src/security/protected-paths.js';
import { branchName } from '../src/workspace/branch-name.js';
import { prepareWorkspace, removeWorkspace, type JobWorkspace } from '../src/workspace/job-workspace.js';
import { prepareLocalWorkspace } from '../src/workspace/local-workspace.js';
import type { RunnerDeps, TaskRunContext } from './runner-deps.js';
import { runGit } from '../src/workspace/run-git.js';
import { ChangeVerifier, fixRoundSteps, warmStart, type VerificationOutcome } from './verify-change.js';
import { categorySteps } from './category-steps/category-steps.js';
import type { CategorySteps } from './category-steps/step-types.js';
import { networkFor } from './network-policy.js';
import { runReview } from './review-runner.js';
import { jobSandbox } from './job-sandbox.js';
import { commitWork, publish } from './publish-change.js';
import { ShutdownSignal } from './close-worker.js';
import { continueHint } from './failure-message.js';
import { RunCancelled } from '../src/sessions/cancellation.js';
import type { RunRecorder } from '../src/run-log/run-recorder.js';

const READ_ONLY_CATEGORIES = new Set(['code-review', 'incident-triage']);


/** One task from instruction to pull request: workspace, agent, commit, push, PR, reply. */
export async function runTask(job: TaskJob, context: TaskRunContext, deps: RunnerDeps): Promise<RunResult> {
  if (job.category === 'code-review') return runReview(job, context, deps);
  const started = Date.now();
  const repository = `${job.repo.owner}/${job.repo.name}`;
  const log = deps.logger.child({ jobId: context.jobId, repo: repository });
  const shortId = randomBytes(3).toString('hex');
  const branch = context.continueBranch ?? branchName(job.instruction, shortId);
  const workspaceId = `${context.jobId}-${shortId}`.replace(/[^A-Za-z0-9_.-]/g, '_');

  await context.reporter.phase('preparing', `cloning ${repository}`);
  const workspace = await openWorkspace(job, branch, !!context.continueBranch, workspaceId, deps);
  try {
    const readOnly = READ_ONLY_CATEGORIES.has(job.category);
    const sandbox = jobSandbox(deps, workspace.dir, { readOnly, log });
    const network = networkFor(job.category, deps);
    const verifier = readOnly ? undefined : new ChangeVerifier(sandbox, workspace.dir, log, context.signal, warmStart(deps, repository, workspace.headSha));
    await verifier?.prepare(deps.config.file.verification[repository], deps.config.file.sandbox.network !== 'off' && networkFor(job.category, deps, 'setup'), (detail) =>
      context.reporter.phase('preparing', detail),
    );
    let stage: RunPhase = 'preparing';
    const steps: CategorySteps = readOnly
      ? {}
      : categorySteps({ job, dir: workspace.dir, startSha: workspace.headSha, sandbox, verifier, network, inputs: context.reporter.inputFiles, log, signal: context.signal, progress: (detail) => context.reporter.phase(stage, detail) });
    const before = (await steps.before?.()) ?? {};
    if (before.stop) return answerWithoutAgent(job, before.stop, started, context);

    context.onAgentStarted?.();
    await context.reporter.phase('working', 'reading the code');
    const budget = budgetFor(job.complexity, deps);
    const agentOptions = {
      client: deps.anthropic,
      model: deps.config.env.WRENCH_MODEL,
      system: systemPrompt(job.category, { readOnly, network }),
      task: taskMessage({
        instruction: job.instruction,
        repository,
        baseBranch: workspace.baseBranch,
        branch,
        category: job.category,
        complexity: job.complexity,
        elements: job.elements,
        history: context.history,
        environment: [verifier ? environmentNote(verifier) : '', ...(before.environment ?? [])].filter(Boolean).join('\n') || undefined,
        requirements: before.requirements,
      }),
      tools: workspaceTools({ sandbox, root: workspace.dir, readOnly, network, signal: context.signal }),
      report: { schema: reportSchemaFor(job.category), description: 'Finish the task with your final report.' },
      budget,
      signal: context.signal,
      onEvent: (event: AgentEvent) => {
        context.record?.agentEvent(event);
        if (event.type === 'tool') void context.reporter.phase('working', event.detail).catch(() => undefined);
      },
    };
    let run = await runAgent(agentOptions);
    log.info({ outcome: run.outcome, steps: run.steps, usage: run.usage, stop: run.stop?.code }, 'agent finished');

    let verification: VerificationOutcome | undefined;
    if (verifier && !context.signal.aborted && (await hasChanges(workspace))) {
      await context.reporter.phase('verifying', 'running the tests after the change');
      verification = await verifier.check();
      context.record?.verification(verification);
      if (verification.regressed && run.outcome !== 'stopped') {
        await context.reporter.phase('working', 'fixing what the change broke');
        const fixRun = await runAgent({ ...agentOptions, task: verifier.fixRequest(verification), resume: run, budget: { ...budget, maxSteps: fixRoundSteps(run) } });
        run = { ...fixRun, report: fixRun.report ?? run.report };
        await context.reporter.phase('verifying', 'running the tests again');
        verification = await verifier.check();
        context.record?.verification(verification);
      }
    }

    stage = 'verifying';
    const extra = context.signal.aborted ? {} : ((await steps.after?.({ report: run.report, verification })) ?? {});

    const base: RunResult = {
      status: 'answered',
      repository,
      instruction: job.instruction,
      report: run.report,
      // A cancelled run's last words are an interim note ("Step 0."), not a summary: the stop reason says what happened.
      answer: run.report || run.stop?.code === 'cancelled' ? undefined : run.finalText,
      stopReason: run.stop ? stopExplanation(run.stop.code, run.stop.message, context.signal.reason, job, branch) : undefined,
      stopCode: run.stop?.code,
      verification: verification?.text,
      filesChanged: [],
      ...withReaderUsage(run.usage, run.costUsd, job.reader),
      steps: run.steps,
      durationMs: 0,
      sections: extra.sections,
      attachments: extra.attachments,
    };
    if (verification?.regressed) {
      base.draftReason = 'Checks that passed before this change now fail (see Verification); an agent round to fix them did not succeed.';
    }
    if (extra.draftReason) base.draftReason = base.draftReason ? `${base.draftReason}\n\n${extra.draftReason}` : extra.draftReason;

    const commit = readOnly ? null : await commitWork(job, workspace, run.report?.summary, context);
    if (commit && context.record) {
      const diff = await runGit(['diff', '--no-color', '--no-ext-diff', workspace.headSha, 'HEAD'], { cwd: workspace.dir }).catch(() => '');
      context.record.changes(diff);
    }
    if (!commit) {
      const result: RunResult = {
        ...base,
        status: run.outcome === 'stopped' ? 'stopped' : 'answered',
        answer: run.report?.summary ?? (run.stop?.code === 'cancelled' ? 'Nothing had changed yet, so there is no branch.' : run.finalText) ?? 'I finished without changing any file.',
        durationMs: Date.now() - started,
      };
      await context.reporter.finished(result);
      return result;
    }

    const touchedProtected = protectedChanges(commit.filesChanged, deps.config.file.protectedPaths);
    if (touchedProtected.length > 0) {
      const warning = `This change touches protected paths (${touchedProtected.map((f) => `\`${f}\``).join(', ')}); an approver must review and clear it before it is marked ready.`;
      base.draftReason = base.draftReason ? `${base.draftReason}\n\n${warning}` : warning;
      log.warn({ files: touchedProtected }, 'change touches protected paths: draft PR');
    }
    await context.reporter.phase('publishing', `pushing ${branch}`);
    const result = await publish(job, workspace, { ...base, branch, filesChanged: commit.filesChanged }, run.outcome === 'stopped' || !!base.draftReason, context, deps);
    result.durationMs = Date.now() - started;
    await context.reporter.finished(result);
    return result;
  } finally {
    await removeWorkspace(workspace.dir).catch((error) => log.warn({ err: error }, 'could not remove workspace'));
  }
}

async function openWorkspace(job: TaskJob, branch: string, existingBranch: boolean, jobId: string, deps: RunnerDeps): Promise<JobWorkspace> {
  if (job.localPath) return prepareLocalWorkspace({ dataDir: deps.config.dataDir, localPath: job.localPath, branch, jobId });
  return prepareWorkspace({
    dataDir: deps.config.dataDir,
    gitBaseUrl: deps.config.env.GIT_BASE_URL,
    owner: job.repo.owner,
    repo: job.repo.name,
    baseBranch: job.repo.baseBranch,
    branch,
    existingBranch,
    jobId,
    credential: await deps.gitCredential?.(job.repo.owner, job.repo.name),
  });
}

function stopExplanation(code: string, message: string, reason: unknown, job: TaskJob, branch: string): string {
  const kept = `The work done until then is kept on \`${branch}\` (in a draft pull request when anything changed)`;
  const cancelled = reason instanceof RunCancelled ? `Cancelled by ${reason.by}.` : 'Cancelled.';
  if (code === 'cancelled' && reason instanceof ShutdownSignal) return `Wrench was restarting, so this run stopped. ${kept}; ${continueHint(job, branch)}`;
  if (code === 'cancelled') return `${cancelled} ${kept}.`;
  return `${message} ${kept}; ${continueHint(job, branch)}`;
}


/** A category step decided not to start the agent (e.g. a refactoring on a failing suite): say why. */
async function answerWithoutAgent(job: TaskJob, stop: { headline: string; answer: string }, started: number, context: TaskRunContext): Promise<RunResult> {
  const repository = `${job.repo.owner}/${job.repo.name}`;
  const result: RunResult = { status: 'answered', repository, instruction: job.instruction, headline: stop.headline, answer: stop.answer, filesChanged: [], durationMs: Date.now() - started };
  await context.reporter.finished(result);
  return result;
}

function environmentNote(verifier: ChangeVerifier): string {
  return verifier.hasChecks
    ? 'Wrench will run the repository\'s tests and linters itself after you finish and compare them with the base commit.'
    : 'Wrench found no test command in this repository; verify your change with whatever checks you can run.';
}

async function hasChanges(workspace: JobWorkspace): Promise<boolean> {
  const status = await runGit(['status', '--porcelain'], { cwd: workspace.dir });
  if (status.trim()) return true;
  return (await runGit(['rev-parse', 'HEAD'], { cwd: workspace.dir })).trim() !== workspace.headSha;
}

function budgetFor(complexity: TaskJob['complexity'], deps: RunnerDeps): AgentBudget {
  const limits = deps.config.file.limits;
  return {
    maxSteps: limits.steps,
    maxMillis: limits.minutes[complexity] * 60_000,
    maxCostUsd: limits.costUsd,
    maxTokens: 20_000_000,
  };
}

/** The model reading of the instruction is part of what the run cost. */
function withReaderUsage(usage: TokenUsage, cost: number, reader: TaskJob['reader']): { usage: TokenUsage; costUsd: number } {
  if (!reader) return { usage, costUsd: cost };
  const readerUsage = { ...emptyUsage(), inputTokens: reader.inputTokens, outputTokens: reader.outputTokens };
  return { usage: addUsage({ ...usage }, { input_tokens: reader.inputTokens, output_tokens: reader.outputTokens }), costUsd: cost + costUsd(reader.model, readerUsage) };
}

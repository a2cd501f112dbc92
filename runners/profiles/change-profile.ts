import { reportSchemaFor } from '../../src/agent/category-reports.js';
import type { TaskReport } from '../../src/agent/finish-tool.js';
import { systemPrompt } from '../../src/agent/system-prompt.js';
import { taskMessage } from '../../src/agent/task-message.js';
import type { TaskJob } from '../../src/queue/task-job.js';
import type { AskedQuestion, QuestionOutcome, RunResult } from '../../src/reporting/run-result.js';
import { protectedChanges } from '../../src/security/protected-paths.js';
import { branchName } from '../../src/workspace/branch-name.js';
import { categorySteps } from '../category-steps/category-steps.js';
import type { AfterAgent, BeforeAgent, CategorySteps } from '../category-steps/step-types.js';
import { continueHint } from '../failure-message.js';
import { addUsage, costUsd, emptyUsage, type TokenUsage } from '../../src/agent/pricing.js';
import { PULL_REQUEST_CLOSED, RunCancelled, ShutdownSignal } from '../../src/sessions/cancellation.js';
import { runGit } from '../../src/workspace/run-git.js';
import { diffLineCounts } from '../../src/workspace/commit-changes.js';
import { networkFor } from '../network-policy.js';
import { type AgentProfile, instructionFilesRead, type StartingRun } from '../pipeline/run-pipeline.js';
import { commitWork, publish, pushWork } from '../publish-change.js';
import { AgentStop } from '../../src/agent/agent-errors.js';
import { askRequesterInputSchema, createAskRequesterTool, type QuestionCount } from '../../src/agent/ask-requester-tool.js';
import type { PausedRun, QuestionSettlement } from '../../src/questions/paused-run.js';
import type { RunnerDeps } from '../runner-deps.js';
import { formatDuration } from '../../src/reporting/render-result-text.js';
import { stringsFor, type ThreadStrings } from '../../src/slack/strings/index.js';
import { type ChangeVerifier, measuredTests } from '../verify-change.js';

const READ_ONLY_CATEGORIES = new Set(['code-review', 'incident-triage', 'question']);

/**
 * A change: a branch (new, or the thread's for a follow-up), the category's steps around the agent, the
 * repository's checks before and after with one fix round, then commit, push and a pull request (a draft
 * when it stopped early, regressed, or touched protected paths), or an answer when nothing changed.
 */
/** What one change run hands on between its stages. */
interface ChangeRunState {
  /** The category's steps of this run (they keep state between before and after the agent). */
  steps: CategorySteps;
  /** A resumed run: the conversation it paused with and what settled its question. */
  resumed?: { run: PausedRun; settlement: QuestionSettlement };
  /** Questions the agent asked the requester in this run (and, resumed, before the pause). */
  questions: QuestionCount;
}

type ChangeProfile = AgentProfile<TaskJob, TaskReport, RunResult, ChangeRunState, AfterAgent>;

/** Whether the run's branch existed before it started (a follow-up, `wrench run --continue`, a resumed run that had pushed). */
const branchExistedBefore = ({ state, context }: { state: ChangeRunState; context: { continueBranch?: string } }) =>
  state.resumed ? (state.resumed.run.branchExistedBefore ?? state.resumed.run.pushed) : !!context.continueBranch;

export function changeProfile(options: { resuming?: boolean } = {}): ChangeProfile {
  /** A resume job first takes its paused run back (the conversation and what settled the question). */
  const gather: ChangeProfile['gather'] = async (run) => {
    if (!run.job.resume) return undefined;
    if (!run.deps.questions) throw new Error('This worker cannot resume paused runs: it has no question desk');
    const resumed = (await run.deps.questions.take(run.job.resume.pauseId)) ?? undefined;
    if (!resumed) return { stop: expiredQuestion(run.job, run.started) };
    run.state.resumed = resumed;
    run.state.questions.asked = resumed.run.questionsAsked;
    const earlier = (resumed.run.earlierQuestions ?? []).map(({ question, requester, settlement }) => ({
      question,
      requester,
      outcome: questionOutcome(settlement),
    }));
    await run.context.reporter.resumedAfter?.(askedQuestion(resumed.run), questionOutcome(resumed.settlement), earlier);
    return undefined;
  };
  return {
    ...(options.resuming ? { gather } : {}),
    kind: 'change',
    edit: 'agent',
    start: () => ({ steps: {}, questions: { asked: 0 } }),
    readOnly: (job) => READ_ONLY_CATEGORIES.has(job.category),
    verifies: () => true,
    repository: (job) => job.repo,
    logFields: (job) => ({ thread: job.origin.type === 'slack' ? job.origin.threadTs : undefined }),
    preparing: (run) => (run.state.resumed ? { key: 'checkingOut', branch: run.state.resumed.run.branch } : { key: 'cloning', repository: run.repository }),

    workspace: ({ job, context, shortId, state: { resumed } }) => ({
      owner: job.repo.owner,
      repo: job.repo.name,
      baseBranch: job.repo.baseBranch,
      branch: resumed?.run.branch ?? context.earlierAttempt?.branch ?? context.continueBranch ?? branchName(job.instruction, shortId),
      existingBranch: resumed ? resumed.run.pushed : !!(context.earlierAttempt || context.continueBranch),
      localPath: job.localPath,
    }),
    network: (run, phase) => networkFor(run.job.category, run.deps, phase),

    async checkout(run) {
      // An interrupted attempt's commits are this run's work: the change (and the checks' baseline) counts from the commit
      // that attempt started from, not from the branch's tip.
      const startSha = run.state.resumed ? undefined : run.context.earlierAttempt?.startSha;
      if (!startSha) return;
      const onBranch = await runGit(['merge-base', '--is-ancestor', startSha, 'HEAD'], { cwd: run.workspace.dir }).then(
        () => true,
        () => false,
      );
      if (onBranch) run.workspace.headSha = startSha;
      else run.log.warn({ startSha }, "the earlier attempt's start is no longer on the branch: the change counts from the branch's tip");
    },

    async before(run) {
      // A resumed run counts its changes from where it first started; its category steps ran before the pause.
      if (run.state.resumed) {
        run.workspace.headSha = run.state.resumed.run.startSha;
        return {};
      }
      if (run.readOnly) return {};
      const steps = categorySteps({
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
      run.state.steps = steps;
      const before = (await steps.before?.()) ?? {};
      return { ...before, stop: before.stop && answerWithoutAgent(run, before.stop) };
    },

    agent(run, before) {
      const { job } = run;
      const canAsk = !!run.deps.questions && job.origin.type === 'slack' && !job.github && !job.localPath && !run.readOnly;
      return {
        system: systemPrompt(job.category, { readOnly: run.readOnly, network: run.network, canAsk }),
        tools: canAsk ? [createAskRequesterTool(run.state.questions)] : [],
        resume: run.state.resumed ? resumeFrom(run.state.resumed, run.deps) : undefined,
        task: taskMessage({
          instruction: job.instruction,
          repository: run.repository,
          baseBranch: run.workspace.baseBranch,
          branch: run.workspace.branch,
          category: job.category,
          complexity: job.complexity,
          elements: job.elements,
          history: run.context.history,
          earlierAttempt: run.context.earlierAttempt,
          environment: [run.verifier ? environmentNote(run.verifier) : '', ...(before.environment ?? [])].filter(Boolean).join('\n') || undefined,
          requirements: before.requirements,
        }),
        report: { schema: reportSchemaFor(job.category), description: 'Finish the task with your final report.' },
        complexity: job.complexity,
      };
    },

    async after(run, { run: agentRun, verification }) {
      return (await run.state.steps.after?.({ report: agentRun.report, verification })) ?? {};
    },

    async publish(run, result, extra = {}) {
      const { job, context, workspace, log } = run;
      const { run: agentRun, verification } = result;
      const base: RunResult = {
        status: 'answered',
        repository: run.repository,
        instruction: job.instruction,
        report: agentRun.report,
        // A cancelled run's last words are an interim note ("Step 0."), not a summary: the stop reason says what happened.
        answer: agentRun.report || agentRun.stop?.code === 'cancelled' ? undefined : agentRun.finalText,
        stopCode: agentRun.stop?.code,
        verification: verification?.text,
        threadVerification: verification && threadStrings(job) ? verification.textIn(stringsFor(job.language).verification) : undefined,
        verificationVerdict: verification?.comparison?.verdict,
        measuredTests: measuredTests(verification),
        filesChanged: [],
        ...withReaderUsage(agentRun.usage, agentRun.costUsd, job.reader),
        steps: agentRun.steps,
        durationMs: 0,
        sections: extra.sections,
        attachments: extra.attachments,
        instructionFiles: instructionFilesRead(run),
      };
      // Why the pull request is a draft, each reason also in the thread's words where Wrench has them (a category's own
      // reason stays as it is).
      const thread = threadStrings(job);
      const draftParts: { text: string; inThread?: string }[] = [];
      const setDraftReason = () => {
        base.draftReason = draftParts.map((part) => part.text).join('\n\n') || undefined;
        base.threadDraftReason = thread && draftParts.length ? draftParts.map((part) => part.inThread ?? part.text).join('\n\n') : undefined;
      };
      if (verification?.regressed) {
        draftParts.push({
          text: 'Checks that passed before this change now fail (see Verification); an agent round to fix them did not succeed.',
          inThread: thread?.draft.regressed,
        });
      }
      // Checks on another runtime than the repository's CI asks for are no comparison with it: a draft that says why.
      const mismatches = verification?.runtimeMismatches?.map((line) => line.replace(/^⚠\s*/, '')).join(' ');
      if (mismatches) draftParts.push({ text: stringsFor('en').draft.runtimeMismatch(mismatches), inThread: thread?.draft.runtimeMismatch(mismatches) });
      if (extra.draftReason) draftParts.push({ text: extra.draftReason, inThread: extra.threadDraftReason });
      setDraftReason();

      const commit = run.readOnly ? null : await commitWork(job, workspace, agentRun.report?.summary, context, run.deps.redact);
      // Whether the run's branch existed before it started (a follow-up, `wrench run --continue`); what the run itself
      // pushed before a pause is its own work, published with the rest.
      const branchExisted = branchExistedBefore(run);
      const stop = agentRun.stop;
      const explain = (kept: string, branchKept: boolean) => (stop ? stopExplanation(stop, context.signal.reason, job, kept, branchKept) : undefined);
      // The same in the thread's words, where Wrench has them (a cancel or a restart, asked in Slack).
      const explainInThread = (kept: (t: ThreadStrings['stop']) => string) =>
        stop && thread ? threadStopExplanation(stop, context.signal.reason, thread.stop, kept(thread.stop)) : undefined;
      const branch = `\`${workspace.branch}\``;
      if (!commit) {
        const kept = branchExisted
          ? `Nothing was pushed; \`${workspace.branch}\` is as it was before this run.`
          : 'Nothing had changed yet, so there is no branch.';
        const noChange = stringsFor('en').finishedNoChange;
        const answer = agentRun.report?.summary ?? (stop?.code === 'cancelled' ? undefined : agentRun.finalText) ?? (stop ? undefined : noChange);
        return {
          ...base,
          status: agentRun.outcome === 'stopped' ? 'stopped' : 'answered',
          stopReason: explain(kept, branchExisted),
          threadStopReason: explainInThread((t) => (branchExisted ? t.nothingPushedBranch(branch) : t.noBranchYet)),
          answer,
          ...(answer === noChange && thread ? { threadAnswer: thread.finishedNoChange } : {}),
          durationMs: Date.now() - run.started,
        };
      }
      const reason = context.signal.reason;
      const closedPullRequest = reason instanceof RunCancelled && reason.by === PULL_REQUEST_CLOSED;
      // A cancel leaves what exists untouched: an open pull request gets none of the unfinished work; a merged one is not reopened.
      if (stop?.code === 'cancelled' && !(reason instanceof ShutdownSignal) && (branchExisted || closedPullRequest)) {
        const where = job.localPath ? `branch \`${workspace.branch}\` of ${job.localPath}` : `\`${workspace.branch}\` and its pull request`;
        return {
          ...base,
          status: 'stopped',
          stopReason: explain(`Nothing was pushed: ${where} are as they were before this run, and its unfinished changes were discarded.`, true),
          threadStopReason: explainInThread((t) => t.nothingPushedPull(branch)),
          // The thread already says the pull request was merged or closed: one message, no second one.
          quiet: closedPullRequest,
          durationMs: Date.now() - run.started,
        };
      }
      // The list of changes comes only from what is published: a discarded commit lists nothing.
      if (context.record) {
        const diff = await runGit(['diff', '--no-color', '--no-ext-diff', workspace.headSha, 'HEAD'], { cwd: workspace.dir }).catch(() => '');
        context.record.changes(diff);
      }
      base.diffStat = await diffLineCounts({ dir: workspace.dir, baseSha: workspace.headSha }).catch(() => undefined);
      const touchedProtected = protectedChanges(commit.filesChanged, run.deps.config.file.protectedPaths);
      if (touchedProtected.length > 0) {
        const paths = touchedProtected.map((f) => `\`${f}\``).join(', ');
        draftParts.push({
          text: `This change touches protected paths (${paths}); an approver must review and clear it before it is marked ready.`,
          inThread: thread?.draft.protectedPaths(paths),
        });
        setDraftReason();
        log.warn({ files: touchedProtected }, 'change touches protected paths: draft PR');
      }
      await context.reporter.phase('publishing', { key: 'pushing', branch: workspace.branch });
      const published = await publish(
        job,
        workspace,
        { ...base, branch: workspace.branch, filesChanged: commit.filesChanged },
        // A draft for a reason of its own (protected paths, a regression) is a finished run: opened, not stopped early.
        { stopped: agentRun.outcome === 'stopped', draft: agentRun.outcome === 'stopped' || !!base.draftReason },
        context,
        run.deps,
      );
      const pr = published.pullRequest;
      const kept = pr
        ? `The work done until then is in ${pr.draft ? 'draft ' : ''}pull request #${pr.number} (branch \`${workspace.branch}\`)`
        : job.localPath
          ? `The work done until then is committed on branch \`${workspace.branch}\` of ${job.localPath}`
          : `The work done until then is on branch \`${workspace.branch}\``;
      return {
        ...published,
        stopReason: explain(`${kept}.`, true),
        threadStopReason: explainInThread((t) => (pr ? t.keptInPull(pr.draft, pr.number, branch) : t.keptOnBranch(branch))),
        durationMs: Date.now() - run.started,
      };
    },

    async pause(run, { run: agentRun }) {
      const { job, context, workspace, state } = run;
      const { resumed } = state;
      const desk = run.deps.questions;
      const call = agentRun.pause;
      // The agent has the ask_requester tool only when the worker has a question desk; a pause always names its call.
      if (!desk || !call) throw new Error('The run paused without a question desk or a pending question');
      const question = askRequesterInputSchema.parse(call.request);
      // The work so far is kept on the run's branch, as a stopped run's is; the pull request waits for the end.
      const commit = await commitWork(job, workspace, undefined, context, run.deps.redact);
      if (commit) {
        await context.reporter.phase('working', { key: 'keepingWork', branch: workspace.branch });
        await pushWork(job, workspace, context, run.deps);
      }
      const paused = await desk.ask({
        job,
        askedByJobId: context.jobId,
        branch: workspace.branch,
        pushed: !!commit || (resumed?.run.pushed ?? false) || !!context.continueBranch,
        branchExistedBefore: branchExistedBefore(run),
        startSha: workspace.headSha,
        messages: agentRun.messages,
        usage: agentRun.usage,
        steps: agentRun.steps,
        toolUseId: call.toolUseId,
        question: question.question,
        suggestedAnswers: question.suggestedAnswers,
        questionsAsked: state.questions.asked,
        earlierQuestions: resumed ? [...(resumed.run.earlierQuestions ?? []), settledQuestionOf(resumed)] : [],
        requester: job.requester.slackUserId,
      });
      await context.reporter.asked?.(askedQuestion(paused));
      if (resumed) await desk.done(resumed.run);
      state.resumed = undefined;
      return {
        status: 'waiting',
        repository: run.repository,
        instruction: job.instruction,
        branch: workspace.branch,
        answer: paused.question,
        filesChanged: commit?.filesChanged ?? [],
        ...withReaderUsage(agentRun.usage, agentRun.costUsd, job.reader),
        steps: agentRun.steps,
        durationMs: Date.now() - run.started,
      };
    },

    async report(run, result) {
      if (result.quiet) return run.context.reporter.phase('cancelled', { key: 'nothingPushed' });
      if (result.status === 'waiting') return run.context.reporter.phase('waiting', { key: 'askedQuestion', user: `<@${run.job.requester.slackUserId}>` });
      await run.context.beforeReport?.(result);
      await run.context.reporter.finished(result);
      if (run.state.resumed) await run.deps.questions?.done(run.state.resumed.run);
    },
  };
}

/** A run its category's steps ended before the agent (they answered the request themselves). */
function answerWithoutAgent(run: StartingRun<TaskJob, ChangeRunState>, stop: NonNullable<BeforeAgent['stop']>): RunResult {
  return {
    status: 'answered',
    repository: run.repository,
    instruction: run.job.instruction,
    headline: stop.headline,
    answer: stop.answer,
    ...(stop.inThread ? { threadHeadline: stop.inThread.headline, threadAnswer: stop.inThread.answer } : {}),
    filesChanged: [],
    durationMs: Date.now() - run.started,
  };
}

/** The paused run's question as a reporter shows it. */
function askedQuestion(run: PausedRun): AskedQuestion {
  const { pauseId, question, suggestedAnswers, requester, timeoutAt } = run;
  return { pauseId, question, suggestedAnswers, requester, timeoutAt };
}

/** A resumed run's question and what settled it, kept with the next pause so the run's final message shows every question. */
function settledQuestionOf({ run, settlement }: { run: PausedRun; settlement: QuestionSettlement }) {
  return { question: run.question, requester: run.requester, settlement };
}

function questionOutcome(settlement: QuestionSettlement): QuestionOutcome {
  if (settlement.kind === 'answer') return { kind: 'answer', text: settlement.text, by: settlement.by };
  return settlement.kind === 'cancelled' ? { kind: 'cancelled', by: settlement.by } : { kind: 'timeout' };
}

/** Who answered, as the agent may read it: a display name, never Slack's `<@U…>` wire format. */
function answererOf(run: PausedRun, settlement: Extract<QuestionSettlement, { kind: 'answer' }>): string {
  const name = settlement.byName ?? 'someone in the thread';
  return settlement.by === run.requester ? `${name} (the requester)` : `${name} (an approver, not the requester)`;
}

/** How the resumed conversation goes on: the answer as the question's tool_result, or a stop when none came. */
function resumeFrom({ run, settlement }: { run: PausedRun; settlement: QuestionSettlement }, deps: RunnerDeps) {
  const conversation = { messages: run.messages, usage: run.usage, steps: run.steps };
  switch (settlement.kind) {
    case 'answer':
      return { run: conversation, toolResult: { toolUseId: run.toolUseId, content: `${answererOf(run, settlement)} answered: ${settlement.text}` } };
    case 'cancelled':
      return {
        run: conversation,
        stop: new AgentStop('cancelled', stringsFor('en').stop.cancelledWhileWaiting(settlement.by), { cancelledBy: settlement.by }),
      };
    case 'timeout':
      return { run: conversation, stop: new AgentStop('no_answer', stringsFor('en').stop.noAnswer(formatDuration(deps.questions?.timeoutMs ?? 0))) };
  }
}

/** The resume job came after the stored conversation expired (or was removed): nothing to go on with. */
function expiredQuestion(job: TaskJob, started: number): RunResult {
  const en = stringsFor('en');
  const thread = threadStrings(job);
  return {
    status: 'stopped',
    repository: `${job.repo.owner}/${job.repo.name}`,
    instruction: job.instruction,
    headline: en.questionExpired,
    answer: en.questionExpiredNext,
    ...(thread ? { threadHeadline: thread.questionExpired, threadAnswer: thread.questionExpiredNext } : {}),
    stopCode: 'no_answer',
    filesChanged: [],
    durationMs: Date.now() - started,
  };
}

/** Why the run stopped, then `kept`: what became of its work, as it really is. */
function stopExplanation(stop: AgentStop, reason: unknown, job: TaskJob, kept: string, branchKept: boolean): string {
  const { code, message } = stop;
  const cancelled = reason instanceof RunCancelled ? `Cancelled by ${reason.by}.` : stop.cancelledBy ? message : 'Cancelled.';
  if (code === 'cancelled' && reason instanceof ShutdownSignal)
    return `Wrench was restarting, so this run stopped. ${kept} ${sentence(continueHint(job, branchKept))}`;
  if (code === 'cancelled') return `${cancelled} ${kept}`;
  return `${message} ${kept} ${sentence(continueHint(job, branchKept))}`;
}

/** A hint ("to continue, run …") as a sentence of its own. */
function sentence(hint: string): string {
  return `${hint.charAt(0).toUpperCase()}${hint.slice(1)}`;
}

/** The thread's strings when a run asked in Slack speaks another language than English; undefined otherwise. */
function threadStrings(job: TaskJob): ThreadStrings | undefined {
  return job.origin.type === 'slack' && !job.localPath && job.language && job.language !== 'en' ? stringsFor(job.language) : undefined;
}

/**
 * Why a run stopped (cancelled, restarted, at a limit), in the thread's words; undefined for other stops (the model
 * failing or refusing: their reasons are shown in English). `kept` says what became of the work.
 */
export function threadStopExplanation(stop: AgentStop, reason: unknown, t: ThreadStrings['stop'], kept: string): string | undefined {
  const limit = stop.limit;
  const reached =
    stop.code === 'step_limit' && limit?.steps !== undefined
      ? t.stepLimit(limit.steps)
      : stop.code === 'time_limit' && limit?.minutes !== undefined
        ? t.timeLimit(limit.minutes)
        : stop.code === 'cost_limit' && limit?.capUsd && limit.spentUsd
          ? t.costLimit(limit.capUsd, limit.spentUsd)
          : stop.code === 'token_limit' && limit?.tokens !== undefined
            ? t.tokenLimit(limit.tokens)
            : undefined;
  if (reached) return [reached, kept, t.toGoOn].join(t.gap);
  const stopped = modelStop(stop, t) ?? questionStop(stop, t);
  if (stopped) return [stopped, kept, t.toGoOn].join(t.gap);
  if (stop.code !== 'cancelled') return undefined;
  if (reason instanceof ShutdownSignal) return [t.restarting, kept, t.toGoOn].join(t.gap);
  if (stop.cancelledBy && /^<@[A-Z0-9]+>$/.test(stop.cancelledBy)) return [t.cancelledWhileWaiting(stop.cancelledBy), kept].join(t.gap);
  if (!(reason instanceof RunCancelled)) return [t.cancelled, kept].join(t.gap);
  // Who cancelled, as the cancel handlers name them: "<@U…>", "<@U…> on the run page", "<@U…> from App Home".
  const by = /^(<@[A-Z0-9]+>)(?: (on the run page|from App Home))?$/.exec(reason.by);
  if (!by?.[1]) return undefined;
  return [t.cancelledBy(by[1], by[2] === 'on the run page' ? 'page' : by[2] ? 'home' : undefined), kept].join(t.gap);
}

/**
 * A stop where the model failed, refused or ran out of context, in the thread's words (the API's own words as they
 * are, read back from the stop's English message); undefined for other stops.
 */
export function modelStop(stop: AgentStop, t: ThreadStrings['stop']): string | undefined {
  if (stop.code === 'refused') return t.refused;
  if (stop.code === 'context_exhausted') return t.contextExhausted;
  if (stop.code !== 'model_failed') return undefined;
  const api = /^The model API failed(?: \(HTTP (\d+)\))? after retries: ([\s\S]*)$/.exec(stop.message);
  if (api) return t.modelApiFailed(api[1] ? Number(api[1]) : undefined, api[2] ?? '');
  const agent = /^The agent failed: ([\s\S]*)$/.exec(stop.message);
  return agent ? t.agentFailed(agent[1] ?? '') : undefined;
}

/** A question nobody answered in time, in the thread's words (how long it waited read back from the English stop). */
export function questionStop(stop: AgentStop, t: ThreadStrings['stop']): string | undefined {
  if (stop.code !== 'no_answer') return undefined;
  const waited = /^Nobody answered my question within (.+), so I stopped there\.$/.exec(stop.message)?.[1];
  return waited ? t.noAnswer(waited) : undefined;
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
  const checks = verifier.hasChecks
    ? "Wrench will run the repository's tests and linters itself after you finish and compare them with the base commit."
    : 'Wrench found no test command in this repository; verify your change with whatever checks you can run.';
  const runtimes = verifier.detected.environment?.lines ?? [];
  return runtimes.length ? `${checks}\nYour commands and the checks run on: ${runtimes.join(' ')}` : checks;
}

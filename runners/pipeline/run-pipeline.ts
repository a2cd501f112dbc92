import { excludeSetupOutput, untrackedPaths } from '../../src/workspace/setup-output.js';
import { createPlanTool, parsePlan, PLAN_TOOL_NAME } from '../../src/agent/plan-tool.js';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { runAgent, type AgentBudget, type AgentEvent, type AgentRun, type PausedCallResult } from '../../src/agent/agent-loop.js';
import type { AgentStop } from '../../src/agent/agent-errors.js';
import type { AgentTool } from '../../src/agent/agent-tool.js';
import { costUsd } from '../../src/agent/pricing.js';
import { TEXT_EDITOR_TOOL_NAME } from '../../src/agent/tools/text-editor-tool.js';
import { workspaceTools } from '../../src/agent/workspace-tools.js';
import { describeInstructionFiles, nestedInstructionsText, withRepositoryInstructions } from '../../src/repository-instructions/instruction-context.js';
import { type InstructionFileRead, RepositoryInstructions } from '../../src/repository-instructions/repository-instructions.js';
import type { Complexity } from '../../src/instruction/instruction-types.js';
import type { Logger } from '../../src/logging/logger.js';
import type { ProgressDetail } from '../../src/reporting/progress.js';
import type { RunPhase } from '../../src/reporting/run-result.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import type { JobWorkspace } from '../../src/workspace/job-workspace.js';
import { runGit } from '../../src/workspace/run-git.js';
import { isDiskFull } from '../../src/workspace/disk-space.js';
import { heldWorkDir } from '../../src/workspace/hold-refused-work.js';
import { hostId } from '../../src/queue/host-id.js';
import { wrenchErrorSaying } from '../../src/errors.js';
import { join } from 'node:path';
import { describeRefusal, type EgressRefusal } from '../../src/sandbox/egress/egress-proxy.js';
import { jobSandbox } from '../job-sandbox.js';
import type { RunnerDeps, TaskRunContext } from '../runner-deps.js';
import { commandRunEnv } from '../../src/verification/command-env.js';
import { ChangeVerifier, fixRoundSteps, warmStart, type VerificationOutcome } from '../verify-change.js';
import { openWorkspace, type WorkspaceRequest } from './open-workspace.js';

export type { WorkspaceRequest } from './open-workspace.js';

/**
 * One run, whatever its kind, as named stages run by `runPipeline`:
 *
 *   gather   → what the run needs from outside before a checkout (the pull request, the incident); may end the run
 *   prepare  → the workspace (profile.workspace), its sandbox and, for profiles that verify, the baseline checks
 *   before   → the profile's steps before the agent (category steps); may answer without starting the agent; a
 *              profile with no agent (`edit: 'none'`, revert) makes its edit here (`change`, by git), then goes on
 *              to verify and publish as a change does
 *   agent    → `runAgent` with what the profile supplies (system prompt, task, report schema, network)
 *   verify   → for profiles that verify: the repository's checks after the change, one bounded fix round on a regression
 *   after    → the profile's steps after the agent (measurements, findings, suspects)
 *   publish  → commit, push and pull request; a GitHub review; a triage record and incident note (the profile's)
 *   report   → the outcome told where the run reports (`context.reporter`), Wrench's own checks first
 *
 * A profile (runners/profiles/: change, review, triage, revert) supplies only what differs: read-only or not, the
 * workspace, the report schema, the context, and what happens before and after the agent. Every stage
 * emits `stage` events (`context.onStage`): run records and metrics hook in there. Where to hook new work:
 * warm workspaces → `openWorkspace` (prepare, runners/pipeline/open-workspace.ts); pausing to ask the requester → the agent stage's tools and
 * `runAgent` resume; a new origin of a change run (GitHub review comments, failing checks) → a TaskJob
 * origin with the change profile; more evidence for triage → the triage profile's `agent()` context/tools;
 * another way to tell people → a `RunReporter`.
 */

export type StageName = 'gather' | 'prepare' | 'before' | 'agent' | 'verify' | 'after' | 'publish' | 'report';

/** The stages that act outside (push, pull request, review, incident note, the reply): fenced on the job's claim. */
const ACTING_STAGES: ReadonlySet<StageName> = new Set(['publish', 'report']);

export type ProfileKind = 'change' | 'review' | 'triage' | 'revert' | 'question';

export interface StageEvent {
  jobId: string;
  kind: ProfileKind;
  stage: StageName;
  status: 'started' | 'finished' | 'failed';
  at: number;
  error?: unknown;
}

/** What a run gets from the worker (or the CLI) besides its job; `record` is the run page's recorder. */
export interface RunContext extends TaskRunContext {
  /** Every stage's start and end, for run records and metrics. */
  onStage?: (event: StageEvent) => void;
}

/** A run in progress, as every stage after `prepare` sees it; `state` is the profile's own, fresh for every run. */
export interface Run<J, S = undefined> {
  job: J;
  state: S;
  context: RunContext;
  deps: RunnerDeps;
  log: Logger;
  repository: string;
  started: number;
  /** Unique per run: part of branch and workspace names. */
  shortId: string;
  workspace: JobWorkspace;
  sandbox: Sandbox;
  readOnly: boolean;
  /** Whether the agent's commands have network. */
  network: boolean;
  /** Present for profiles that verify (changes): the baseline and the checks after the change. */
  verifier?: ChangeVerifier;
  /**
   * The repository's instructions for agents at the checked-out commit (runs with an agent): the root files go into
   * the agent's task, nested `AGENTS.md` files into the results of the calls that first reach their directories.
   */
  instructions?: RepositoryInstructions;
  /** A progress line in the run's status, in the current phase. */
  progress(detail: ProgressDetail): Promise<void>;
}

/** Before the checkout: only the job, the profile's state and the clients. */
export type StartingRun<J, S = undefined> = Omit<Run<J, S>, 'workspace' | 'sandbox' | 'readOnly' | 'network' | 'verifier' | 'instructions'>;

export interface BeforeAgentStage<O> {
  /** Lines added to the agent's environment note. */
  environment?: string[];
  /** Hard requirements added to the task message. */
  requirements?: string[];
  /** Do not start the agent: end the run with this outcome instead (reported). */
  stop?: O;
}

/** What the agent stage runs. */
export interface AgentSpec<S extends z.ZodType> {
  system: string;
  task: string;
  report: { schema: S; description: string };
  /** Sizes the time budget. */
  complexity: Complexity;
  /** The status line when the agent starts. Default: reading the code. */
  startDetail?: ProgressDetail;
  /** Tools besides the workspace's (ask_requester; triage's query_metrics and MCP tools). */
  tools?: AgentTool[];
  /** Which of the workspace's tools the agent gets: all (default), or only the editor's view with no shell (a question). */
  workspaceTools?: 'all' | 'view-only';
  /** A smaller budget than the run's limits (a question's): each figure at most the configured limit's. */
  budget?: Partial<Pick<AgentBudget, 'maxSteps' | 'maxMillis' | 'maxCostUsd'>>;
  /** Continue a paused run's conversation: with the paused call's result, or ended at once with `stop` (no answer). */
  resume?: { run: Pick<AgentRun<unknown>, 'messages' | 'usage' | 'steps'>; toolResult?: PausedCallResult; stop?: AgentStop };
}

export interface AgentStageResult<R> {
  run: AgentRun<R>;
  verification?: VerificationOutcome;
}

/** What every profile supplies, with or without an agent. `S` is the run's own state, made by `start` for each run. */
interface ProfileBase<J, O, S> {
  kind: ProfileKind;
  /** The state of one run (what stages hand on to later stages), fresh for every run. */
  start(job: J): S;
  /** Read-only runs get a read-only sandbox and are never committed or pushed. */
  readOnly(job: J): boolean;
  /** Whether the repository's checks run before and after the edit (baseline, regression, fix round). */
  verifies(job: J): boolean;
  repository(job: J): { owner: string; name: string };
  /** Log fields besides job id and repository (thread, incident). */
  logFields?(job: J): Record<string, unknown>;
  /** Before the checkout: facts from outside; returning `stop` ends the run with that outcome (reported). */
  gather?(run: StartingRun<J, S>): Promise<{ stop?: O } | undefined>;
  workspace(run: StartingRun<J, S>): WorkspaceRequest;
  /** The first status line of the run. */
  preparing(run: StartingRun<J, S>): ProgressDetail;
  /** After the checkout, before the sandbox and baseline (e.g. checking out a pull request's head). */
  checkout?(run: Run<J, S>): Promise<void>;
  network(run: Run<J, S>, phase: 'agent' | 'setup'): boolean;
  /** Releases what the profile opened for the run (MCP servers...), whatever happened; before the workspace goes. */
  cleanup?(run: Run<J, S>): Promise<void>;
  /** Tells the outcome (after the workspace is gone). */
  report(run: StartingRun<J, S>, outcome: O): Promise<void>;
}

/** A run whose edit (or reading) is the agent's: change, review, triage. `A` is what `after` hands to `publish`. */
export interface AgentProfile<J, R, O, S = undefined, A = undefined> extends ProfileBase<J, O, S> {
  edit: 'agent';
  before?(run: Run<J, S>): Promise<BeforeAgentStage<O>>;
  agent(run: Run<J, S>, before: BeforeAgentStage<O>): Promise<AgentSpec<z.ZodType<R>>> | AgentSpec<z.ZodType<R>>;
  /** After the agent (and verification), while the workspace still exists; skipped when the run was cancelled. */
  after?(run: Run<J, S>, result: AgentStageResult<R>): Promise<A>;
  /** Commit/push/PR, a GitHub review, a record: the outcome of the run. Called while the workspace still exists. */
  publish(run: Run<J, S>, result: AgentStageResult<R>, after: A | undefined): Promise<O>;
  /** The agent paused (a question to the requester): keep the work and the conversation; the outcome tells so. */
  pause?(run: Run<J, S>, result: AgentStageResult<R>): Promise<O>;
}

/**
 * A run whose edit is made without an agent (a revert: by git). It goes through the same stages as a change: the
 * baseline in prepare, `change` makes the edit (or ends the run with an outcome, nothing pushed), the verify stage runs
 * the repository's checks after it, and `publish` pushes it with what was measured.
 */
export interface NoAgentProfile<J, O, S = undefined> extends ProfileBase<J, O, S> {
  edit: 'none';
  change(run: Run<J, S>): Promise<{ stop?: O } | undefined>;
  /** The status line while the checks run after the edit. */
  checkingDetail: ProgressDetail;
  publish(run: Run<J, S>, verification: VerificationOutcome | undefined): Promise<O>;
}

export type RunProfile<J, R, O, S = undefined, A = undefined> = AgentProfile<J, R, O, S, A> | NoAgentProfile<J, O, S>;

/** The same budget for every kind: steps, time by complexity, money, and a token ceiling. */
export function runBudget(deps: Pick<RunnerDeps, 'config'>, complexity: Complexity): AgentBudget {
  const limits = deps.config.file.limits;
  return { maxSteps: limits.steps, maxMillis: limits.minutes[complexity] * 60_000, maxCostUsd: limits.costUsd, maxTokens: limits.tokens };
}

/** A profile's smaller budget within the run's: each figure the lower of the two. */
export function withinBudget(budget: AgentBudget, smaller: AgentSpec<z.ZodType>['budget']): AgentBudget {
  if (!smaller) return budget;
  const lower = (limit: number, own: number | undefined) => (own === undefined ? limit : Math.min(limit, own));
  return {
    ...budget,
    maxSteps: lower(budget.maxSteps, smaller.maxSteps),
    maxMillis: lower(budget.maxMillis, smaller.maxMillis),
    maxCostUsd: lower(budget.maxCostUsd, smaller.maxCostUsd),
  };
}

/** Runs one job through the stages with its profile; the workspace is always removed. */
export async function runPipeline<J, R, O, S, A>(profile: RunProfile<J, R, O, S, A>, job: J, context: RunContext, deps: RunnerDeps): Promise<O> {
  const { owner, name } = profile.repository(job);
  const repository = `${owner}/${name}`;
  let phase: RunPhase = 'preparing';
  const starting: StartingRun<J, S> = {
    job,
    state: profile.start(job),
    context,
    deps,
    repository,
    started: Date.now(),
    shortId: randomBytes(3).toString('hex'),
    log: deps.logger.child({ jobId: context.jobId, repo: repository, ...profile.logFields?.(job) }),
    progress: (detail) => context.reporter.phase(phase, detail),
  };
  const stage = async <T>(name: StageName, work: () => Promise<T>): Promise<T> => {
    const emit = (status: StageEvent['status'], error?: unknown) =>
      context.onStage?.({ jobId: context.jobId, kind: profile.kind, stage: name, status, at: Date.now(), error });
    emit('started');
    try {
      // Every push, pull request, review, note and reply of a run is made in these two stages: an attempt that lost its
      // job to another (its lock expired while it was paused) stops here, before acting.
      if (ACTING_STAGES.has(name)) {
        await context.claim?.hold(`the ${name} stage`);
        // The commit's co-author, the pull request's and the reply's thread link come from these.
        await context.lookups?.catch(() => undefined);
      }
      const value = await work();
      emit('finished');
      return value;
    } catch (error) {
      emit('failed', error);
      throw error;
    }
  };
  const finish = async (outcome: O): Promise<O> => {
    await stage('report', () => profile.report(starting, outcome));
    return outcome;
  };

  const { gather } = profile;
  const gathered = gather ? ((await stage('gather', () => gather(starting))) ?? {}) : {};
  if (gathered.stop !== undefined) return finish(gathered.stop);

  await context.reporter.phase('preparing', profile.preparing(starting));
  const readOnly = profile.readOnly(job);
  const jobId = `${context.jobId}-${starting.shortId}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  const recordRefusal = (refusal: EgressRefusal) =>
    context.record?.note(
      `Network refused by ${refusal.reason.startsWith('upstream-') ? 'the upstream proxy' : 'the egress policy'}: ${describeRefusal(refusal)}`,
      'warning',
    );
  const lease = await stage('prepare', () => openWorkspace(profile.workspace(starting), deps, jobId, starting.log, recordRefusal));
  const workspace = lease.workspace;
  let kept = false;
  try {
    const run: Run<J, S> = {
      ...starting,
      workspace,
      readOnly,
      sandbox: jobSandbox(deps, workspace.dir, { readOnly, log: starting.log, onEgressRefused: recordRefusal }),
      network: false,
    };
    let outcome: O;
    let instructions: Promise<RepositoryInstructions | undefined> | undefined;
    try {
      await profile.checkout?.(run);
      // Read from the checked-out commit's objects (never the files), so beside the setup step, which may take a while.
      instructions = profile.edit === 'agent' ? readInstructions(run) : undefined;
      run.network = profile.network(run, 'agent');
      if (profile.verifies(job) && !readOnly) {
        const verifier = new ChangeVerifier(run.sandbox, workspace.dir, run.log, context.signal, warmStart(deps, repository, workspace.headSha, lease.warm));
        run.verifier = verifier;
        const setupNetwork = deps.config.file.sandbox.network !== 'off' && profile.network(run, 'setup');
        // A reused tree that already holds dependencies: what is untracked there is an earlier setup's output too.
        const untracked = lease.warm.dependenciesInPlace ? new Set<string>() : await untrackedPaths(workspace.dir);
        await stage('prepare', () => verifier.prepare(deps.config.file.verification[repository], setupNetwork, run.progress));
        // The setup step's output is never the change, whatever the repository ignores.
        const setupOutput = await excludeSetupOutput(workspace.dir, untracked);
        if (setupOutput.length) run.log.info({ paths: setupOutput.slice(0, 20) }, 'setup output kept out of the change');
      }
      if (instructions) run.instructions = await instructions;
      if (profile.edit === 'none') {
        const made = await stage('before', () => profile.change(run));
        if (made?.stop !== undefined) {
          outcome = made.stop;
        } else {
          phase = 'verifying';
          const { verifier } = run;
          const verification =
            verifier && !context.signal.aborted && (await hasChanges(workspace))
              ? await stage('verify', () => checkChange(run, verifier, profile.checkingDetail))
              : undefined;
          outcome = await stage('publish', () => profile.publish(run, verification));
        }
      } else {
        outcome = await agentRun(profile, run, stage, (next) => {
          phase = next;
        });
      }
    } finally {
      // Never throws; a run that failed in its setup step is not left reading its tree.
      await instructions;
      await profile.cleanup?.(run).catch((error) => run.log.warn({ err: error }, 'could not clean up after the run'));
      await run.verifier?.close().catch((error) => run.log.warn({ err: error }, 'could not stop the baseline run'));
    }
    // The outcome is told before the tree is readied for the next job, which takes a second or more on a large tree; a
    // job that arrives meanwhile (an answer to this reply) waits for this tree.
    await lease.releasing().catch((error) => run.log.warn({ err: error }, 'could not mark the workspace as being readied'));
    return await finish(outcome);
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    // A full disk (`git add` out of space, say): the tree is kept as it is, not reset for the next job, and the thread says
    // where, not git's raw words.
    const id = jobId;
    kept = await lease.keep(join(heldWorkDir(deps.config.dataDir), `${id}.tree`)).then(
      () => true,
      (keepError: unknown) => {
        starting.log.error({ err: keepError }, 'the disk is full and the working tree could not be kept');
        return false;
      },
    );
    starting.log.error({ err: error, kept: kept ? `${id}.tree` : undefined }, "the data dir's disk is full: the run stops");
    const where = kept ? { id, host: hostId(deps.config.env), days: deps.config.env.WRENCH_HELD_RETENTION_DAYS } : undefined;
    throw wrenchErrorSaying('disk_full', { key: 'diskFull', ...(where ? { kept: where } : {}) }, { cause: error });
  } finally {
    if (!kept) await lease.release().catch((error) => starting.log.warn({ err: error }, 'could not release the workspace'));
  }
}

type Stage = <T>(name: StageName, work: () => Promise<T>) => Promise<T>;

/** before → agent → verify → after → publish (or pause), for a profile with an agent. */
async function agentRun<J, R, O, S, A>(profile: AgentProfile<J, R, O, S, A>, run: Run<J, S>, stage: Stage, enter: (phase: RunPhase) => void): Promise<O> {
  const { before: beforeStage, after: afterStage, pause } = profile;
  const before: BeforeAgentStage<O> = beforeStage ? await stage('before', () => beforeStage(run)) : {};
  if (before.stop !== undefined) return before.stop;
  const spec = await profile.agent(run, before);
  run.context.onAgentStarted?.();
  enter('working');
  const result = await stage('agent', () => agentStage(run, spec));
  if (result.run.outcome === 'paused') {
    if (!pause) throw new Error(`The ${profile.kind} profile cannot pause`);
    return stage('publish', () => pause(run, result));
  }
  await run.context.onAgentDone?.();
  const { verifier } = run;
  if (verifier && !run.context.signal.aborted && (await hasChanges(run.workspace))) {
    await stage('verify', () => verifyStage(run, verifier, spec, result));
  }
  enter('verifying');
  const after = afterStage && !run.context.signal.aborted ? await stage('after', () => afterStage(run, result)) : undefined;
  return stage('publish', () => profile.publish(run, result, after));
}

/** The instruction files a run read, for its report (undefined when there were none). */
export function instructionFilesRead(run: { instructions?: RepositoryInstructions }): InstructionFileRead[] | undefined {
  const read = run.instructions?.summary();
  return read?.length ? read : undefined;
}

/** The repository's instructions at the checked-out commit, named on the run page; none when they cannot be read. */
async function readInstructions<J, S>(run: Run<J, S>): Promise<RepositoryInstructions | undefined> {
  try {
    const instructions = await RepositoryInstructions.read(run.workspace.dir);
    const read = instructions.summary();
    run.log.info({ files: read.map((file) => file.path), nested: instructions.pendingNested.length }, 'repository instructions read');
    if (read.length) run.context.record?.note(`Repository instructions read: ${describeInstructionFiles(read)}.`);
    return instructions;
  } catch (error) {
    run.log.warn({ err: error }, "could not read the repository's instructions for agents");
    return undefined;
  }
}

/** Hands the agent the nested `AGENTS.md` of each directory a call first reaches, appended to that call's result. */
function nestedInstructions<J, S>(run: Run<J, S>, instructions: RepositoryInstructions): (paths: readonly string[]) => Promise<string> {
  return async (paths) => {
    const files = await instructions.forPaths(paths).catch((error: unknown) => {
      run.log.warn({ err: error }, 'could not read a nested AGENTS.md');
      return [];
    });
    if (!files.length) return '';
    run.context.record?.note(`Repository instructions reached by the agent: ${describeInstructionFiles(files)}.`);
    return nestedInstructionsText(files);
  };
}

type AgentOptionsOf<R> = Parameters<typeof runAgent<z.ZodType<R>>>[0];

/** The agent with the profile's prompt and report, the shared budget, the workspace tools and progress. */
async function agentStage<J, S, R>(run: Run<J, S>, spec: AgentSpec<z.ZodType<R>>): Promise<AgentStageResult<R> & { options: AgentOptionsOf<R> }> {
  await run.context.reporter.phase('working', spec.startDetail ?? { key: 'readingCode' });
  const options: AgentOptionsOf<R> = {
    client: run.deps.anthropic,
    model: run.deps.config.env.WRENCH_MODEL,
    system: spec.system,
    // A resumed conversation has them from its first turn.
    task: spec.resume ? spec.task : withRepositoryInstructions(spec.task, run.instructions),
    // A resumed conversation has them in its first message already.
    taskContent: spec.resume ? undefined : await run.context.images?.(),
    tools: [
      ...workspaceTools({
        sandbox: run.sandbox,
        root: run.workspace.dir,
        readOnly: run.readOnly,
        network: run.network,
        signal: run.context.signal,
        environment: run.verifier ? commandRunEnv(run.verifier.detected, run.workspace.dir) : undefined,
        afterCall: run.instructions && nestedInstructions(run, run.instructions),
      }).filter((tool) => spec.workspaceTools !== 'view-only' || (run.readOnly && tool.name === TEXT_EDITOR_TOOL_NAME)),
      ...(spec.tools ?? []),
      // The agent may state its plan where the thread can show it live (a streamed run).
      ...(run.context.reporter.plan ? [createPlanTool()] : []),
    ],
    report: spec.report,
    budget: withinBudget(runBudget(run.deps, spec.complexity), spec.budget),
    signal: run.context.signal,
    steering: run.context.steering,
    onEvent: (event: AgentEvent) => {
      run.context.record?.agentEvent(event);
      if (event.type !== 'tool') return;
      if (event.call?.name === PLAN_TOOL_NAME) {
        const steps = parsePlan(event.call.input);
        if (steps) void run.context.reporter.plan?.(steps).catch(() => undefined);
        return;
      }
      void run.context.reporter.phase('working', event.progress).catch(() => undefined);
    },
  };
  const resume = spec.resume;
  if (resume?.stop) {
    const { messages, usage, steps } = resume.run;
    const model = options.model;
    return { run: { outcome: 'stopped', stop: resume.stop, finalText: '', messages, usage, steps, costUsd: costUsd(model, usage) }, options };
  }
  if (resume) options.resume = { ...resume.run, toolResult: resume.toolResult };
  const agentRun = await runAgent(options);
  run.log.info({ outcome: agentRun.outcome, steps: agentRun.steps, usage: agentRun.usage, stop: agentRun.stop?.code }, 'agent finished');
  return { run: agentRun, options };
}

/** The checks after the change; on a regression one bounded round for the agent to fix it, then the checks again. */
async function verifyStage<J, S, R>(
  run: Run<J, S>,
  verifier: ChangeVerifier,
  spec: AgentSpec<z.ZodType<R>>,
  result: AgentStageResult<R> & { options: AgentOptionsOf<R> },
): Promise<void> {
  result.verification = await checkChange(run, verifier, { key: 'testsAfterChange' });
  if (!result.verification.regressed || result.run.outcome === 'stopped') return;
  await run.context.reporter.phase('working', { key: 'fixingBreakage' });
  const budget = runBudget(run.deps, spec.complexity);
  const fixRun = await runAgent({
    ...result.options,
    task: verifier.fixRequest(result.verification),
    resume: result.run,
    budget: { ...budget, maxSteps: fixRoundSteps(result.run) },
    allowPause: false,
    // The requester's messages go to the agent while it works on the change, not into a round that mends its checks.
    steering: undefined,
  });
  result.run = { ...fixRun, report: fixRun.report ?? result.run.report };
  await run.context.reporter.phase('verifying', { key: 'testsAgain' });
  result.verification = await verifier.check();
  run.context.record?.verification(result.verification);
}

/** The repository's checks after the edit, compared with the baseline; recorded on the run page. */
async function checkChange<J, S>(run: Run<J, S>, verifier: ChangeVerifier, detail: ProgressDetail): Promise<VerificationOutcome> {
  if (verifier.baselinePending) await run.context.reporter.phase('verifying', { key: 'waitingForBaseline' });
  await run.context.reporter.phase('verifying', detail);
  const verification = await verifier.check();
  run.context.record?.verification(verification);
  return verification;
}

async function hasChanges(workspace: JobWorkspace): Promise<boolean> {
  const status = await runGit(['status', '--porcelain'], { cwd: workspace.dir });
  if (status.trim()) return true;
  return (await runGit(['rev-parse', 'HEAD'], { cwd: workspace.dir })).trim() !== workspace.headSha;
}

import { rename } from 'node:fs/promises';
import path from 'node:path';
import type { AgentRun } from '../src/agent/agent-loop.js';
import type { Logger } from '../src/logging/logger.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { compareVerification, detectCommands, renderVerification, runSetup, runVerification } from '../src/verification/index.js';
import type { CommandOutcome, VerificationCommands, VerificationComparison, VerificationOverride, VerificationRun } from '../src/verification/index.js';
import { baselineKey } from '../src/warm-cache/baseline-cache.js';
import { dependencyKey } from '../src/warm-cache/dependency-key.js';
import { BaselineCache } from '../src/warm-cache/baseline-cache.js';
import { DEPENDENCY_DIRS, DependencySnapshots } from '../src/warm-cache/dependency-snapshots.js';
import { SetupFailures } from '../src/warm-cache/setup-failures.js';
import { warmCacheDir } from '../src/warm-cache/warm-cache-dir.js';
import { openDownloadCache } from '../src/warm-cache/download-caches.js';
import type { DownloadCache } from '../src/verification/run-verification.js';
import type { VerificationStrings } from '../src/verification/verification-strings.js';
import type { Config } from '../src/config/load-config.js';
import type { ProgressDetail } from '../src/reporting/progress.js';
import { prepareCheckEnvironment } from '../src/runtimes/check-environment.js';
import type { NodeRuntimes } from '../src/runtimes/node-runtimes.js';
import { nodeRuntimesFor } from '../src/runtimes/runtimes-dir.js';
import type { MeasuredTests } from '../src/reporting/run-result.js';

/** The caches of this machine a job starts warm from, as the config allows. */
export function warmStart(deps: { config: Config }, repository: string, baseSha: string, more: Partial<WarmStart> = {}): WarmStart {
  const { cache } = deps.config.file;
  const root = warmCacheDir(deps.config.dataDir);
  return {
    ...more,
    repository,
    baseSha,
    baselines: cache.baseline ? new BaselineCache(path.join(root, 'baselines')) : undefined,
    dependencies: cache.dependencies ? new DependencySnapshots(path.join(root, 'dependencies')) : undefined,
    downloads: cache.downloads ? path.join(root, 'downloads') : undefined,
    setupFailures: cache.setupFailureMinutes > 0 ? new SetupFailures(path.join(root, 'setup-failures'), cache.setupFailureMinutes * 60_000) : undefined,
    nodeRuntimes: nodeRuntimesFor(deps.config),
    setupCaFile: deps.config.file.sandbox.setupCaFile,
  };
}

/** The caches a job may start warm from; each one is left out when the config turns it off. */
export interface WarmStart {
  repository: string;
  /** The commit the working tree starts on. */
  baseSha: string;
  baselines?: BaselineCache;
  dependencies?: DependencySnapshots;
  /** Root of the package managers' download caches, one folder per repository, for setup steps only (never the agent). */
  downloads?: string;
  /** Node.js versions provisioned for the repository's setup and checks. */
  nodeRuntimes?: NodeRuntimes;
  /** Setup steps that failed lately, per dependency key: not run again while remembered. */
  setupFailures?: SetupFailures;
  /** `sandbox.setupCaFile`: part of the dependency key, so a changed CA runs the setup step again. */
  setupCaFile?: string;
  /** The dependency key whose untouched copy the working tree already holds (a reused tree). */
  dependenciesInPlace?: string;
  /** Told once the dependencies of `key` are in the tree and kept as a snapshot (a reused tree may keep them). */
  onDependenciesInPlace?(key: string): Promise<void>;
  /** A checkout of `sha` of its own: the baseline runs there at the same time as the agent instead of before it. */
  baseTree?: (sha: string) => Promise<BaseTree>;
}

/** Where the baseline of this commit, commands and dependencies is kept for later jobs. */
interface KeptBaseline {
  baselines: BaselineCache;
  key: string;
}

export interface BaseTree {
  dir: string;
  sandbox: Sandbox;
  dispose(): Promise<void>;
}

/**
 * Independent verification by the runner, not the agent: the repository's own test and lint commands
 * on the base commit (the baseline) and after the change.
 */
export class ChangeVerifier {
  private commands: VerificationCommands = { sources: [] };
  private baseline: VerificationRun | undefined;
  /** The baseline running in its own base tree while the agent works. */
  private pending: Promise<VerificationRun | undefined> | undefined;
  private readonly aside = new AbortController();
  /** The setup step, when it failed: the report says so instead of presenting the checks as meaningful. */
  private setupFailure: CommandOutcome | undefined;

  constructor(
    private readonly sandbox: Sandbox,
    private readonly dir: string,
    private readonly log: Logger,
    private readonly signal: AbortSignal,
    private readonly warm?: WarmStart,
  ) {}

  /**
   * Detects the commands, installs dependencies (network per policy) or restores them from the snapshot of the
   * same lock files, and runs the baseline unless it is known for this commit.
   */
  async prepare(override: VerificationOverride | undefined, setupNetwork: boolean, onPhase: (detail: ProgressDetail) => Promise<void>): Promise<void> {
    this.commands = await this.detect(override);
    await this.prepareEnvironment(onPhase);
    const caFile = this.warm?.setupCaFile;
    const environmentKey = JSON.stringify([this.commands.environment?.key ?? '', this.commands.env ?? {}, ...(caFile ? [caFile] : [])]);
    const dependencies = this.warm
      ? await dependencyKey(this.dir, `${this.commands.setup ?? ''}\0${environmentKey}`, this.commands.dependencyKeyFiles)
      : undefined;
    if (this.commands.setup) await this.installDependencies(dependencies, setupNetwork, onPhase);
    if (this.commands.test || this.commands.lint) {
      const baselines = this.warm?.baselines;
      const kept: KeptBaseline | undefined =
        this.warm && baselines && dependencies
          ? {
              baselines,
              key: baselineKey({ repository: this.warm.repository, baseSha: this.warm.baseSha, commands: this.commands, dependencyKey: dependencies }),
            }
          : undefined;
      this.baseline = kept ? await kept.baselines.get(kept.key) : undefined;
      if (this.baseline) {
        this.log.info({ baseSha: this.warm?.baseSha }, 'baseline reused from an earlier job on this commit');
        return;
      }
      const baseTree = this.warm?.baseTree;
      if (this.warm && baseTree) {
        this.log.info({ baseSha: this.warm.baseSha }, 'baseline runs in a base tree of its own while the agent works');
        this.pending = this.baselineAside(baseTree, this.warm, kept, dependencies, setupNetwork).catch((error) => {
          if (!this.aside.signal.aborted) this.log.warn({ err: error }, 'the baseline run failed; the checks after the change are compared with nothing');
          return undefined;
        });
        return;
      }
      await onPhase({ key: 'testsOnBase' });
      this.baseline = await runVerification({ sandbox: this.sandbox, dir: this.dir, commands: this.commands, signal: this.signal });
      if (kept && !this.signal.aborted)
        await kept.baselines.put(kept.key, this.baseline).catch((error) => this.log.warn({ err: error }, 'could not keep the baseline'));
    }
  }

  /** The runtimes the repository asks for, provisioned (Node.js) or checked (the host's Python, Go, Rust). */
  private async prepareEnvironment(onPhase: (detail: ProgressDetail) => Promise<void>): Promise<void> {
    try {
      // Python, Go and Rust are asked for where the checks run: the sandbox hides home directories (pyenv, rustup).
      const probe = (command: string) =>
        this.sandbox.exec(command, { cwd: this.dir, timeoutMs: 15_000, signal: this.signal }).then(
          (result) => (result.exitCode === 0 ? result.output : undefined),
          () => undefined,
        );
      this.commands.environment = await prepareCheckEnvironment(this.dir, this.commands.runtimeHints, {
        nodeRuntimes: this.warm?.nodeRuntimes,
        probe,
        onProgress: onPhase,
      });
      for (const line of this.commands.environment.lines) this.log.info({ runtime: line }, 'check runtime');
    } catch (error) {
      this.log.warn({ err: error }, 'could not prepare the runtimes the repository asks for');
      this.commands.environment = {
        path: [],
        readOnlyDirs: [],
        env: {},
        lines: ["⚠ The runtimes the repository asks for could not be prepared: the checks ran on the host's."],
        key: 'failed',
      };
    }
  }

  /**
   * The commands, as in a fresh checkout: dependency directories a reused tree kept are moved aside meanwhile, so
   * the setup step (and with it the dependency and baseline keys) is the same as on the first job.
   */
  private async detect(override: VerificationOverride | undefined): Promise<VerificationCommands> {
    if (!this.warm?.dependenciesInPlace) return detectCommands(this.dir, override);
    const moved: string[] = [];
    try {
      for (const name of DEPENDENCY_DIRS) {
        const ok = await rename(path.join(this.dir, name), path.join(this.dir, `${name}.wrench-kept`)).then(
          () => true,
          () => false,
        );
        if (ok) moved.push(name);
      }
      return await detectCommands(this.dir, override);
    } finally {
      for (const name of moved) await rename(path.join(this.dir, `${name}.wrench-kept`), path.join(this.dir, name));
    }
  }

  /** This repository's download caches, when the config keeps them. */
  private async downloadCache(): Promise<DownloadCache | undefined> {
    if (!this.warm?.downloads) return undefined;
    return openDownloadCache(this.warm.downloads, this.warm.repository).catch((error) => {
      this.log.warn({ err: error }, 'could not open the download caches; setup downloads afresh');
      return undefined;
    });
  }

  /** The baseline in a fresh checkout of the base commit, with the same dependencies (restored, else installed). */
  private async baselineAside(
    baseTree: (sha: string) => Promise<BaseTree>,
    warm: WarmStart,
    kept: KeptBaseline | undefined,
    dependencies: string | undefined,
    setupNetwork: boolean,
  ): Promise<VerificationRun> {
    const signal = AbortSignal.any([this.signal, this.aside.signal]);
    const tree = await baseTree(warm.baseSha);
    try {
      let setup: CommandOutcome | undefined;
      if (this.commands.setup) {
        const restored =
          dependencies && warm.dependencies ? await warm.dependencies.restore(warm.repository, dependencies, tree.dir).catch(() => false) : false;
        const commands = restored ? { ...this.commands, setup: this.commands.refresh } : this.commands;
        setup =
          (!restored && dependencies ? await this.rememberedFailure(dependencies) : undefined) ??
          (await runSetup({ sandbox: tree.sandbox, dir: tree.dir, commands, network: setupNetwork, signal, downloadCache: await this.downloadCache() }));
      }
      const run = sameTree(await runVerification({ sandbox: tree.sandbox, dir: tree.dir, commands: this.commands, signal }), tree.dir, this.dir);
      if (setup && !setup.passed && !signal.aborted) {
        this.log.warn({ command: setup.command, exitCode: setup.exitCode }, 'dependency setup failed in the base tree');
        // Said in the report; never kept, so a later job on this commit tries again.
        return { ...run, setupFailed: sameTree({ test: setup }, tree.dir, this.dir).test };
      }
      if (kept && !signal.aborted) await kept.baselines.put(kept.key, run).catch((error) => this.log.warn({ err: error }, 'could not keep the baseline'));
      return run;
    } finally {
      await tree.dispose().catch((error) => this.log.warn({ err: error }, 'could not remove the base tree'));
    }
  }

  /** Whether the baseline is still running beside the agent. */
  get baselinePending(): boolean {
    return this.pending !== undefined;
  }

  /** The baseline, once it has finished (at once when it was cached or ran before the agent). */
  async waitForBaseline(): Promise<VerificationRun | undefined> {
    if (this.pending) {
      this.baseline = await this.pending;
      this.pending = undefined;
    }
    return this.baseline;
  }

  /** Stops a baseline still running beside the agent and removes its tree. */
  async close(): Promise<void> {
    this.aside.abort();
    await this.pending;
    this.pending = undefined;
  }

  /**
   * The repository's refresh step (`cache.refresh`), when it has one, on dependencies restored or kept, in the sandbox
   * as the setup step; then the tree may keep them for the next job (their fingerprint taken after the refresh). A failed refresh is
   * reported as a failed setup step, and the tree does not keep what it left.
   */
  private async refresh(key: string, network: boolean, onPhase: (detail: ProgressDetail) => Promise<void>): Promise<void> {
    const command = this.commands.refresh;
    if (command) {
      await onPhase({ key: 'refreshing', command });
      const refreshed = await runSetup({
        sandbox: this.sandbox,
        dir: this.dir,
        commands: { ...this.commands, setup: command },
        network,
        signal: this.signal,
        downloadCache: await this.downloadCache(),
      });
      if (refreshed && !refreshed.passed && !this.signal.aborted) {
        this.log.warn({ command, exitCode: refreshed.exitCode }, 'dependency refresh failed');
        this.setupFailure = refreshed;
        await onPhase({ key: 'refreshFailed', command, timedOut: refreshed.timedOut, exitCode: refreshed.exitCode });
        return;
      }
    }
    await this.keptInPlace(key);
  }

  private async installDependencies(key: string | undefined, network: boolean, onPhase: (detail: ProgressDetail) => Promise<void>): Promise<void> {
    const warm = this.warm;
    const snapshots = warm?.dependencies;
    if (snapshots && key && warm?.dependenciesInPlace === key) {
      this.log.info({ dependencyKey: key }, 'dependencies of the same lock files already in the reused tree');
      await onPhase({ key: 'dependenciesInPlace' });
      if (this.commands.refresh) await this.refresh(key, network, onPhase);
      return;
    }
    if (warm && snapshots && key) {
      const restored = await snapshots.restore(warm.repository, key, this.dir).catch((error) => {
        this.log.warn({ err: error }, 'could not restore the dependency snapshot; installing');
        return false;
      });
      if (restored) {
        this.log.info({ dependencyKey: key }, 'dependencies restored from the snapshot of the same lock files');
        await onPhase({ key: 'dependenciesRestored' });
        await this.refresh(key, network, onPhase);
        return;
      }
    }
    const remembered = key ? await this.rememberedFailure(key) : undefined;
    if (!remembered) await onPhase({ key: 'installing', command: this.commands.setup ?? '' });
    const setup =
      remembered ??
      (await runSetup({
        sandbox: this.sandbox,
        dir: this.dir,
        commands: this.commands,
        network,
        signal: this.signal,
        downloadCache: await this.downloadCache(),
      }));
    // A failure the operator's upstream proxy caused (its 407, or no answer) says nothing of the repository: not remembered.
    const upstreamFailed = setup?.egressRefused?.some((refusal) => refusal.reason.startsWith('upstream-')) ?? false;
    if (warm?.setupFailures && key && setup && !remembered && !this.signal.aborted) {
      const failures = warm.setupFailures;
      const remember = !setup.passed && !upstreamFailed;
      await (remember ? failures.put(warm.repository, key, setup) : failures.forget(warm.repository, key)).catch((error) =>
        this.log.warn({ err: error }, 'could not record the setup step’s outcome'),
      );
    }
    if (setup && !setup.passed && !this.signal.aborted) {
      this.log.warn({ command: setup.command, exitCode: setup.exitCode, rememberedAt: setup.rememberedAt }, 'dependency setup failed');
      this.setupFailure = setup;
      const egress = setup.egressRefused;
      await onPhase({
        key: 'installFailed',
        command: setup.command,
        timedOut: setup.timedOut,
        exitCode: setup.exitCode,
        ...(egress?.length ? { egress } : {}),
      });
    }
    if (warm && snapshots && key && setup?.passed && !this.signal.aborted) {
      const saved = await snapshots.save(warm.repository, key, this.dir).catch((error) => {
        this.log.warn({ err: error }, 'could not keep the dependency snapshot');
        return false;
      });
      if (saved) await this.keptInPlace(key);
    }
  }

  /** The setup step's failure on this dependency key, when a job failed it lately: said again instead of run again. */
  private async rememberedFailure(key: string): Promise<CommandOutcome | undefined> {
    const warm = this.warm;
    if (!warm?.setupFailures) return undefined;
    const remembered = await warm.setupFailures.get(warm.repository, key).catch(() => undefined);
    if (!remembered) return undefined;
    this.log.info({ dependencyKey: key, failedAt: remembered.at.toISOString() }, 'setup failed lately on the same dependency key: not run again');
    return { ...remembered.outcome, rememberedAt: remembered.at.toISOString() };
  }

  private async keptInPlace(key: string): Promise<void> {
    await this.warm?.onDependenciesInPlace?.(key).catch((error) => this.log.warn({ err: error }, 'could not record the dependencies in the tree'));
  }

  /** The commands found (after `prepare`), coverage included. */
  get detected(): VerificationCommands {
    return this.commands;
  }

  /** The tests and lint on the base commit, when there were any to run. */
  get baselineRun(): VerificationRun | undefined {
    return this.baseline;
  }

  get hasChecks(): boolean {
    return !!(this.commands.test || this.commands.lint);
  }

  /** Tests and lint after the change, compared with the baseline. */
  async check(): Promise<VerificationOutcome> {
    if (!this.hasChecks) {
      const render = (strings?: VerificationStrings) => renderVerification(this.commands, notRun(), undefined, {}, this.setupFailure, undefined, strings);
      return {
        comparison: undefined,
        text: render(),
        textIn: render,
        regressed: false,
        setupFailed: this.setupFailure,
        runtimeMismatches: this.commands.environment?.mismatches,
      };
    }
    await this.waitForBaseline();
    const after = await runVerification({ sandbox: this.sandbox, dir: this.dir, commands: this.commands, signal: this.signal });
    // A base commit checked without its dependencies is no baseline for a change checked with them: the change is
    // compared with nothing, and the report says why. (When both setups failed, both ran alike and the report says so.)
    const baseline = this.baseline?.setupFailed && !this.setupFailure ? undefined : this.baseline;
    const comparison = compareVerification(baseline, after);
    const baseSetupFailed = this.baseline?.setupFailed;
    const render = (strings?: VerificationStrings) =>
      renderVerification(this.commands, comparison, baseline, after, this.setupFailure, baseSetupFailed, strings);
    return {
      comparison,
      after,
      text: render(),
      textIn: render,
      // Without its dependencies a check says nothing about the change: no fix round for a "regression".
      regressed: comparison.verdict === 'regressed' && !this.setupFailure,
      setupFailed: this.setupFailure,
      runtimeMismatches: this.commands.environment?.mismatches,
    };
  }

  /** What the agent is told in its one bounded round to fix a regression. */
  fixRequest(outcome: VerificationOutcome): string {
    const failures = outcome.comparison?.newFailures ?? [];
    const tail = [outcome.after?.test, outcome.after?.lint].flatMap((o) => (o && !o.passed ? [`$ ${o.command}\n${o.outputTail}`] : [])).join('\n\n');
    return [
      "Wrench ran the repository's checks after your change, and something that passed before now fails.",
      failures.length ? `Newly failing: ${failures.join(', ')}` : '',
      tail ? `Output:\n${tail.slice(-6000)}` : '',
      'Fix the cause (do not delete or weaken the tests), run the checks yourself, then call finish_task again with an updated report.',
    ]
      .filter(Boolean)
      .join('\n\n');
  }
}

export interface VerificationOutcome {
  comparison: VerificationComparison | undefined;
  after?: VerificationRun;
  /** Markdown for the reply and the PR body (not yet redacted). */
  text: string;
  /** The same in another language's words (the thread's), for the thread's reply. */
  textIn(strings: VerificationStrings): string;
  regressed: boolean;
  /** The dependency setup step, when it failed. */
  setupFailed?: CommandOutcome;
  /** The runtime lines saying the checks did not run on what the repository (its CI) asks for. */
  runtimeMismatches?: string[];
}

/** The tests Wrench ran after the change, as the report sets them against the agent's claims. */
export function measuredTests(outcome: VerificationOutcome | undefined): MeasuredTests | undefined {
  const test = outcome?.after?.test;
  if (!test) return undefined;
  const { passed, failed, skipped } = test.summary;
  const counts = [passed !== undefined ? `${passed} passed` : '', failed !== undefined ? `${failed} failed` : '', skipped ? `${skipped} skipped` : '']
    .filter(Boolean)
    .join(', ');
  return { command: test.command, failed: !test.passed, counts: counts || undefined, setupFailed: outcome?.setupFailed?.command };
}

/** Outcomes of a base tree as if they came from the job's tree (paths in output and test names). */
function sameTree(run: VerificationRun, from: string, to: string): VerificationRun {
  const fix = (text: string) => text.split(from).join(to);
  const outcome = (o: VerificationRun['test']) =>
    o && { ...o, outputTail: fix(o.outputTail), summary: { ...o.summary, failedTests: o.summary.failedTests.map(fix) } };
  return { ...run, test: outcome(run.test), lint: outcome(run.lint) };
}

function notRun(): VerificationComparison {
  return { verdict: 'not-run', newFailures: [], fixed: [], stillFailing: [], before: {}, after: {}, lint: {} };
}

/** Budget for the one fix round: a few more steps, never more time or money than the run had. */
export function fixRoundSteps(run: AgentRun<unknown>): number {
  return run.steps + 15;
}

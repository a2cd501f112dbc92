import type { AgentRun } from '../src/agent/agent-loop.js';
import type { Logger } from '../src/logging/logger.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { compareVerification, detectCommands, renderVerification, runSetup, runVerification } from '../src/verification/index.js';
import type { VerificationCommands, VerificationComparison, VerificationOverride, VerificationRun } from '../src/verification/index.js';

/**
 * Independent verification by the runner, not the agent: the repository's own test and lint commands
 * on the base commit (the baseline) and after the change.
 */
export class ChangeVerifier {
  private commands: VerificationCommands = { sources: [] };
  private baseline: VerificationRun | undefined;

  constructor(
    private readonly sandbox: Sandbox,
    private readonly dir: string,
    private readonly log: Logger,
    private readonly signal: AbortSignal,
  ) {}

  /** Detects the commands, installs dependencies (network per policy) and runs the baseline. */
  async prepare(override: VerificationOverride | undefined, setupNetwork: boolean, onPhase: (detail: string) => Promise<void>): Promise<void> {
    this.commands = await detectCommands(this.dir, override);
    if (this.commands.setup) {
      await onPhase(`installing dependencies (\`${this.commands.setup}\`)`);
      const setup = await runSetup({ sandbox: this.sandbox, dir: this.dir, commands: this.commands, network: setupNetwork, signal: this.signal });
      if (setup && !setup.passed) this.log.warn({ command: setup.command, exitCode: setup.exitCode }, 'dependency setup failed');
    }
    if (this.commands.test || this.commands.lint) {
      await onPhase('running the tests on the base commit');
      this.baseline = await runVerification({ sandbox: this.sandbox, dir: this.dir, commands: this.commands, signal: this.signal });
    }
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
      return { comparison: undefined, text: renderVerification(this.commands, notRun(), undefined, {}), regressed: false };
    }
    const after = await runVerification({ sandbox: this.sandbox, dir: this.dir, commands: this.commands, signal: this.signal });
    const comparison = compareVerification(this.baseline, after);
    return {
      comparison,
      after,
      text: renderVerification(this.commands, comparison, this.baseline, after),
      regressed: comparison.verdict === 'regressed',
    };
  }

  /** What the agent is told in its one bounded round to fix a regression. */
  fixRequest(outcome: VerificationOutcome): string {
    const failures = outcome.comparison?.newFailures ?? [];
    const tail = [outcome.after?.test, outcome.after?.lint].filter((o) => o && !o.passed).map((o) => `$ ${o!.command}\n${o!.outputTail}`).join('\n\n');
    return [
      'Wrench ran the repository\'s checks after your change, and something that passed before now fails.',
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
  regressed: boolean;
}

function notRun(): VerificationComparison {
  return { verdict: 'not-run', newFailures: [], fixed: [], stillFailing: [], before: {}, after: {}, lint: {} };
}

/** Budget for the one fix round: a few more steps, never more time or money than the run had. */
export function fixRoundSteps(run: AgentRun<unknown>): number {
  return run.steps + 15;
}

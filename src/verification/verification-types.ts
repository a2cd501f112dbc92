export type CommandKey = 'setup' | 'test' | 'lint' | 'coverage';

/** Commands from `verification:` in wrench.config.yml; an empty string turns that command off. */
export type VerificationOverride = Partial<Record<CommandKey, string>>;

export interface VerificationCommands {
  setup?: string;
  test?: string;
  lint?: string;
  coverage?: string;
  /** Why each command was chosen, e.g. "test: `npm test` (package.json scripts.test)". */
  sources: string[];
}

export interface TestSummary {
  passed?: number;
  failed?: number;
  skipped?: number;
  /** Names of the failing tests as the runner prints them. */
  failedTests: string[];
  /** The runner recognised in the output: vitest, jest, mocha, node-test, tap, pytest, go, cargo. */
  runner?: string;
}

export interface CommandOutcome {
  command: string;
  exitCode: number | null;
  timedOut: boolean;
  passed: boolean;
  summary: TestSummary;
  /** The last ~3000 characters of the output, without colour codes. */
  outputTail: string;
  durationMs: number;
}

export interface VerificationRun {
  test?: CommandOutcome;
  lint?: CommandOutcome;
}

export type VerificationVerdict = 'improved' | 'unchanged' | 'regressed' | 'not-run';

export interface TestCounts {
  passed?: number;
  failed?: number;
}

export interface VerificationComparison {
  verdict: VerificationVerdict;
  /** Failed after the change, not before (by name). */
  newFailures: string[];
  /** Failed before, passed or absent after. */
  fixed: string[];
  stillFailing: string[];
  before: TestCounts;
  after: TestCounts;
  lint: { before?: boolean; after?: boolean };
}

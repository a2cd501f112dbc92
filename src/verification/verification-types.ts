import type { EgressRefusal } from '../sandbox/egress/egress-proxy.js';
export type CommandKey = 'setup' | 'test' | 'lint' | 'coverage';

/** Commands from `verification:` in wrench.config.yml; an empty string turns that command off. */
export type VerificationOverride = Partial<Record<CommandKey, string>> & DependencyCacheSettings;

/** How a repository's restored dependencies are kept current (`cache:` of `.wrench.yml`, or its override in wrench.config.yml). */
export interface DependencyCacheSettings {
  /** Files or globs (inside the tree) added to the dependency key, for inputs the setup step turns into generated files. */
  dependencyKeyFiles?: string[];
  /** A cheap command run in place of the setup step when dependencies are restored or kept (e.g. `npx prisma generate`). */
  refresh?: string;
}

export interface VerificationCommands {
  setup?: string;
  test?: string;
  lint?: string;
  coverage?: string;
  /** Why each command was chosen, e.g. "test: `npm test` (package.json scripts.test)". */
  sources: string[];
  /** Where the checks came from, for the report, e.g. "checks from .github/workflows/ci.yml (job test)". */
  origin?: string;
  /** Lines the report shows about the commands: a `.wrench.yml` that was not used, CI variables left out. */
  notes?: string[];
  /** Plain variables from the CI job's `env:` or `.wrench.yml`, given to the setup step and the checks. */
  env?: Record<string, string>;
  /** The runtime versions the CI job or `.wrench.yml` asks for (each list newest first). */
  runtimeHints?: RuntimeHints;
  /** The runtimes the commands run on, once provisioned by the runner. */
  environment?: CheckEnvironment;
  /** Added to the dependency key (see `DependencyCacheSettings`). */
  dependencyKeyFiles?: string[];
  /** Run on a dependency cache hit, in the sandbox as the setup step (see `DependencyCacheSettings`). */
  refresh?: string;
}

export interface RuntimeHints {
  node?: { versions: string[]; source: string };
  /** `node-version-file` of the CI's setup-node. */
  nodeVersionFile?: string;
  python?: { versions: string[]; source: string };
  /** The package manager the CI sets up (`pnpm@9` from `pnpm/action-setup`), for when package.json names none. */
  packageManager?: { spec: string; source: string };
}

/** What every setup step and check of a job runs with: runtimes first on PATH, bound read-only into the sandbox. */
export interface CheckEnvironment {
  /** Directories put first on PATH, in order. */
  path: string[];
  /** Host directories the sandbox shows read-only (the provisioned runtimes). */
  readOnlyDirs: string[];
  env: Record<string, string>;
  /** One line per runtime for the report: the version used and where it came from, or why the wanted one was not had. */
  lines: string[];
  /** Names the runtimes (versions and paths): part of the dependency and baseline keys. */
  key: string;
  /** The lines saying the checks do not run on what the repository asks for (its CI's runtime): the pull request is then a draft. */
  mismatches?: string[];
}

export interface TestSummary {
  passed?: number;
  failed?: number;
  skipped?: number;
  /** Names of the failing tests as the runner prints them. */
  failedTests: string[];
  /** The runner recognised in the output: vitest, jest, mocha, uvu, node-test, tap, pytest, go, cargo; `plain` for a bare closing count line. */
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
  /** Destinations the sandbox's egress proxy refused while the command ran. */
  egressRefused?: EgressRefusal[];
  /** A setup step not run again: when it failed on the same dependency key (ISO time), and this is that run's outcome. */
  rememberedAt?: string;
}

export interface VerificationRun {
  test?: CommandOutcome;
  lint?: CommandOutcome;
  /** The setup step of this run's own tree, when it failed: its checks ran without the dependencies. */
  setupFailed?: CommandOutcome;
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

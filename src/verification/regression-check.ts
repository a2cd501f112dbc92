import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sandbox } from '../sandbox/sandbox.js';
import { runGit } from '../workspace/run-git.js';
import { existsAt } from '../workspace/working-tree-changes.js';
import { runCommandOutcome } from './run-command-outcome.js';
import { isTestFile } from './test-files.js';
import type { CommandOutcome } from './verification-types.js';

export interface NamedTest {
  name: string;
  file?: string;
  command?: string;
}

export interface RegressionCheckOptions {
  sandbox: Sandbox;
  dir: string;
  /** The commit the fix started from. */
  baseSha: string;
  /** Every path the fix changed (working tree against `baseSha`). */
  changed: readonly string[];
  /** The regression tests the agent named. */
  tests: readonly NamedTest[];
  /** The repository's test command, for tests named without their own command. */
  testCommand?: string;
  /** The test command's run after the change (the runner's verification), reused when given. */
  afterRun?: CommandOutcome;
  signal?: AbortSignal;
}

export type RegressionVerdict = 'proven' | 'not-failing-before' | 'failing-after' | 'not-run';

export interface RegressionResult {
  test: string;
  verdict: RegressionVerdict;
  /** How it was run, e.g. `node --test test/dates.test.js`. */
  command: string;
}

export interface RegressionEvidence {
  testFiles: string[];
  sourceFiles: string[];
  results: RegressionResult[];
  /** Why nothing could be checked, when that is so. */
  note?: 'no-test' | 'tests-only' | 'no-command';
}

/**
 * Checks that the fix's regression tests fail without the fix and pass with it: the changed source files
 * (everything but tests) are put back to the base version, the tests run, then the fix is restored byte for
 * byte. Tests with their own command are judged by its exit code; others by name in the test command's output.
 */
export async function checkRegressionTests(options: RegressionCheckOptions): Promise<RegressionEvidence> {
  const named = new Set(options.tests.map((t) => t.file).filter((f): f is string => !!f));
  const testFiles = options.changed.filter((file) => isTestFile(file) || named.has(file));
  const sourceFiles = options.changed.filter((file) => !testFiles.includes(file) && !file.startsWith('wrench-'));
  const evidence: RegressionEvidence = { testFiles, sourceFiles, results: [] };
  // Only a test the diff holds can show the fix: a name the agent gave with no changed test file (a placeholder, a
  // test that was never written) is not run.
  if (testFiles.length === 0) return { ...evidence, note: 'no-test' };
  if (sourceFiles.length === 0) return { ...evidence, note: 'tests-only' };

  const tests = options.tests.filter((t) => !t.file || testFiles.includes(t.file));
  const byCommand = tests.flatMap((t) => (t.command ? [{ name: t.name, command: t.command }] : []));
  const byName = tests.filter((t) => !t.command);
  if (byName.length === 0 && byCommand.length === 0 && !options.testCommand) return { ...evidence, note: 'no-command' };
  const suite = options.testCommand && (byName.length > 0 || byCommand.length === 0) ? options.testCommand : undefined;
  const run = (command: string) => runCommandOutcome({ sandbox: options.sandbox, dir: options.dir, command, signal: options.signal });

  const after = new Map<string, CommandOutcome>();
  for (const test of byCommand) after.set(test.command, await run(test.command));
  if (suite) after.set(suite, options.afterRun?.command === suite ? options.afterRun : await run(suite));

  const before = await withoutTheFix(options, sourceFiles, async () => {
    const outcomes = new Map<string, CommandOutcome>();
    for (const command of after.keys()) outcomes.set(command, await run(command));
    return outcomes;
  });

  for (const test of byCommand) evidence.results.push(judgeByExit(test.name, test.command, outcomeOf(before, test.command), outcomeOf(after, test.command)));
  if (suite) {
    const suiteBefore = outcomeOf(before, suite);
    const suiteAfter = outcomeOf(after, suite);
    const names = byName.length ? byName.map((t) => t.name) : newlyPassing(suiteBefore, suiteAfter);
    if (names.length === 0) evidence.results.push({ test: testFiles.join(', ') || 'the changed tests', verdict: 'not-failing-before', command: suite });
    for (const name of names) evidence.results.push(judgeByName(name, suite, suiteBefore, suiteAfter));
  }
  return evidence;
}

/** The outcome of a command this check ran; a command it did not run is a bug here. */
function outcomeOf(outcomes: ReadonlyMap<string, CommandOutcome>, command: string): CommandOutcome {
  const outcome = outcomes.get(command);
  if (!outcome) throw new Error(`The regression check has no outcome of \`${command}\`.`);
  return outcome;
}

/** Runs `work` with the changed source files at their base version, then restores the fix exactly. */
async function withoutTheFix<T>(options: RegressionCheckOptions, sourceFiles: readonly string[], work: () => Promise<T>): Promise<T> {
  const saved = new Map<string, Buffer | null>();
  for (const file of sourceFiles) saved.set(file, await readFile(path.join(options.dir, file)).catch(() => null));
  try {
    for (const file of saved.keys()) {
      if (await existsAt(options.dir, options.baseSha, file))
        await runGit(['restore', `--source=${options.baseSha}`, '--worktree', '--', file], { cwd: options.dir });
      else await rm(path.join(options.dir, file), { force: true });
    }
    return await work();
  } finally {
    for (const [file, content] of saved) {
      if (content === null) await rm(path.join(options.dir, file), { force: true });
      else await writeFile(path.join(options.dir, file), content);
    }
  }
}

function judgeByExit(test: string, command: string, before: CommandOutcome, after: CommandOutcome): RegressionResult {
  const verdict = !after.passed ? 'failing-after' : before.passed ? 'not-failing-before' : 'proven';
  return { test, verdict, command };
}

function judgeByName(test: string, command: string, before: CommandOutcome, after: CommandOutcome): RegressionResult {
  const failed = (outcome: CommandOutcome) =>
    outcome.summary.failedTests.some((name) => sameTest(name, test)) || (!outcome.passed && outcome.summary.failedTests.length === 0);
  const verdict = failed(after) ? 'failing-after' : failed(before) ? 'proven' : 'not-failing-before';
  return { test, verdict, command };
}

/** Tests that fail without the fix and not with it. */
function newlyPassing(before: CommandOutcome, after: CommandOutcome): string[] {
  return before.summary.failedTests.filter((name) => !after.summary.failedTests.some((other) => sameTest(other, name)));
}

/** Runners print names with suite prefixes (`dates > isWeekend > friday`): compare the endings. */
function sameTest(printed: string, named: string): boolean {
  const a = printed.trim().toLowerCase();
  const b = named.trim().toLowerCase();
  return a === b || a.endsWith(b) || b.endsWith(a);
}

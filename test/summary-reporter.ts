import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * Ends the run with the plain line CI tools read: `tests: N passed, N failed, N skipped`, followed by the test files
 * that failed outside any test (an import or syntax error, a failing beforeAll/afterAll) and errors vitest caught
 * outside every file, when there are any: each of these fails the run as surely as a failed test.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []): void {
    process.stdout.write(`\n${summaryLine(testModules, unhandledErrors.length)}\n`);
  }
}

export function summaryLine(testModules: ReadonlyArray<TestModule>, unhandledErrors: number): string {
  const count = (state: 'passed' | 'failed' | 'skipped') => testModules.reduce((sum, m) => sum + [...m.children.allTests(state)].length, 0);
  let line = `tests: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`;
  const brokenFiles = testModules.filter(failedOutsideTests).length;
  if (brokenFiles > 0) line += `, ${brokenFiles} test file(s) failed to load or set up`;
  if (unhandledErrors > 0) line += `, ${unhandledErrors} unhandled error(s)`;
  return line;
}

function failedOutsideTests(testModule: TestModule): boolean {
  if (testModule.errors().length > 0) return true;
  return [...testModule.children.allSuites()].some((suite) => suite.errors().length > 0);
}

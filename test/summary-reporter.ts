import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with the plain line CI tools read: `N passed, N failed, N skipped`. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = (state: 'passed' | 'failed' | 'skipped') => testModules.reduce((sum, m) => sum + [...m.children.allTests(state)].length, 0);
    process.stdout.write(`\ntests: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped\n`);
  }
}

import type { CommandOutcome, TestSummary } from '../../../src/verification/verification-types.js';

/** A test command's outcome: passed when nothing failed, unless told otherwise. */
export function testOutcome(summary: Partial<TestSummary>, extra: Partial<CommandOutcome> = {}): CommandOutcome {
  const full: TestSummary = { failedTests: [], ...summary };
  const passed = extra.passed ?? (full.failed ?? 0) === 0;
  return {
    command: 'npm test',
    exitCode: passed ? 0 : 1,
    timedOut: false,
    passed,
    summary: full,
    outputTail: passed ? 'all good' : 'not ok 1 - formats 1024 as 1 KiB\n# fail 1',
    durationMs: 1200,
    ...extra,
  };
}

export function lintOutcome(passed: boolean): CommandOutcome {
  return {
    command: 'npm run lint',
    exitCode: passed ? 0 : 1,
    timedOut: false,
    passed,
    summary: { failedTests: [] },
    outputTail: passed ? '' : "src/a.ts:1:7  error  'x' is assigned a value but never used",
    durationMs: 300,
  };
}

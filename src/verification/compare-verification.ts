import type { CommandOutcome, TestCounts, VerificationComparison, VerificationRun } from './verification-types.js';

interface TestDifference {
  newFailures: string[];
  fixed: string[];
  stillFailing: string[];
  regressed: boolean;
  improved: boolean;
}

/**
 * What the change did to the repository's own checks. Regressed when a test fails that did not fail before
 * (by name when both runs name their failures; otherwise when the suite passed before and fails after, the
 * failed count grew, or a suite that completed before no longer does), or when lint passed before and fails after.
 */
export function compareVerification(before: VerificationRun | undefined, after: VerificationRun): VerificationComparison {
  const tests = compareTests(before?.test, after.test);
  const lint = { before: before?.lint?.passed, after: after.lint?.passed };
  const lintRegressed = lint.before === true && lint.after === false;
  const lintImproved = lint.before === false && lint.after === true;
  const verdict =
    !after.test && !after.lint ? 'not-run' : tests.regressed || lintRegressed ? 'regressed' : tests.improved || lintImproved ? 'improved' : 'unchanged';
  return {
    verdict,
    newFailures: tests.newFailures,
    fixed: tests.fixed,
    stillFailing: tests.stillFailing,
    before: counts(before?.test),
    after: counts(after.test),
    lint,
  };
}

function compareTests(before: CommandOutcome | undefined, after: CommandOutcome | undefined): TestDifference {
  if (!after) return { newFailures: [], fixed: [], stillFailing: [], regressed: false, improved: false };
  const beforeNames = new Set(before?.summary.failedTests ?? []);
  const afterNames = new Set(after.summary.failedTests);
  const newFailures = [...afterNames].filter((name) => !beforeNames.has(name));
  const stillFailing = [...afterNames].filter((name) => beforeNames.has(name));
  const fixed = namesComplete(after) ? [...beforeNames].filter((name) => !afterNames.has(name)) : [];
  if (!before) return { newFailures, fixed: [], stillFailing, regressed: !after.passed, improved: false };

  const failedBefore = before.summary.failed;
  const failedAfter = after.summary.failed;
  const countGrew = failedBefore !== undefined && failedAfter !== undefined && failedAfter > failedBefore;
  const countShrank = failedBefore !== undefined && failedAfter !== undefined && failedAfter < failedBefore;
  const byName = namesComplete(before) && namesComplete(after);
  const regressed = byName ? newFailures.length > 0 : (before.passed && !after.passed) || countGrew || (namesComplete(before) && !after.passed);
  const improved = !regressed && (fixed.length > 0 || (!before.passed && after.passed) || (!byName && countShrank));
  return { newFailures, fixed, stillFailing, regressed, improved };
}

/** Whether the run's failing names account for its result: it passed, or it failed and named what failed. */
function namesComplete(outcome: CommandOutcome): boolean {
  return !outcome.timedOut && (outcome.passed || outcome.summary.failedTests.length > 0);
}

function counts(outcome: CommandOutcome | undefined): TestCounts {
  const result: TestCounts = {};
  if (outcome?.summary.passed !== undefined) result.passed = outcome.summary.passed;
  if (outcome?.summary.failed !== undefined) result.failed = outcome.summary.failed;
  return result;
}

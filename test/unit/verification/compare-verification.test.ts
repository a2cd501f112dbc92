import { describe, expect, it } from 'vitest';
import { compareVerification } from '../../../src/verification/compare-verification.js';
import { lintOutcome, testOutcome } from './outcomes.js';

const KIB = 'formats 1024 as 1 KiB';
const ADDS = 'adds';

describe('compareVerification', () => {
  it('is improved when a failing test passes after the change', () => {
    const before = { test: testOutcome({ passed: 10, failed: 1, failedTests: [KIB] }) };
    const after = { test: testOutcome({ passed: 11, failed: 0 }) };
    expect(compareVerification(before, after)).toEqual({
      verdict: 'improved',
      newFailures: [],
      fixed: [KIB],
      stillFailing: [],
      before: { passed: 10, failed: 1 },
      after: { passed: 11, failed: 0 },
      lint: { before: undefined, after: undefined },
    });
  });

  it('is regressed when a test that passed before fails, by name, even if another was fixed', () => {
    const before = { test: testOutcome({ passed: 10, failed: 1, failedTests: [KIB] }) };
    const after = { test: testOutcome({ passed: 10, failed: 1, failedTests: [ADDS] }) };
    expect(compareVerification(before, after)).toMatchObject({ verdict: 'regressed', newFailures: [ADDS], fixed: [KIB], stillFailing: [] });
  });

  it('is unchanged when the same tests fail', () => {
    const run = { test: testOutcome({ passed: 10, failed: 1, failedTests: [KIB] }) };
    expect(compareVerification(run, run)).toMatchObject({ verdict: 'unchanged', newFailures: [], fixed: [], stillFailing: [KIB] });
  });

  it('falls back to the exit code when names are unknown: passing before, failing after is regressed', () => {
    const before = { test: testOutcome({}) };
    const after = { test: testOutcome({}, { passed: false, exitCode: 2 }) };
    expect(compareVerification(before, after).verdict).toBe('regressed');
    expect(compareVerification(after, before).verdict).toBe('improved');
  });

  it('falls back to counts when names are unknown', () => {
    const before = { test: testOutcome({ failed: 1 }, { passed: false }) };
    const worse = { test: testOutcome({ failed: 3 }, { passed: false }) };
    expect(compareVerification(before, worse).verdict).toBe('regressed');
    expect(compareVerification(worse, before).verdict).toBe('improved');
  });

  it('is regressed when a suite that named its failures no longer completes', () => {
    const before = { test: testOutcome({ failed: 1, failedTests: [KIB] }) };
    const after = { test: testOutcome({}, { passed: false, timedOut: true, exitCode: null }) };
    expect(compareVerification(before, after)).toMatchObject({ verdict: 'regressed', fixed: [] });
  });

  it('is regressed when lint passed before and fails after, and improved the other way', () => {
    const tests = testOutcome({ passed: 3, failed: 0 });
    expect(compareVerification({ test: tests, lint: lintOutcome(true) }, { test: tests, lint: lintOutcome(false) })).toMatchObject({
      verdict: 'regressed',
      lint: { before: true, after: false },
    });
    expect(compareVerification({ test: tests, lint: lintOutcome(false) }, { test: tests, lint: lintOutcome(true) }).verdict).toBe('improved');
  });

  it('is not-run when nothing ran after the change', () => {
    expect(compareVerification(undefined, {}).verdict).toBe('not-run');
  });

  it('without a baseline, counts every failure as new', () => {
    expect(compareVerification(undefined, { test: testOutcome({ passed: 2, failed: 1, failedTests: [KIB] }) })).toMatchObject({
      verdict: 'regressed',
      newFailures: [KIB],
      before: {},
    });
    expect(compareVerification(undefined, { test: testOutcome({ passed: 3, failed: 0 }) }).verdict).toBe('unchanged');
  });
});

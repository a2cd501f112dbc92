/**
 * What the egress policy (or the operator's upstream proxy) refused during a setup step: `target` ("host:port"),
 * `address`, `upstream` ("proxy.corp:3128 (HTTPS_PROXY)"), `answer` (its status line or error code) and `more` (the
 * other targets refused) as they are.
 */
const egressEn = {
  egressNotAllowed: (target: string) => `${target}: not in the egress allow list (sandbox.egress.allow)`,
  egressMetadata: (target: string, address: string) => `${target}: resolves to ${address}, the cloud metadata address`,
  egressNonPublic: (target: string, address: string) => `${target}: resolves to ${address}, not a public address (loopback, private or link-local)`,
  egressUpstreamRefused: (target: string, upstream: string, answer: string) => `${target}: the upstream proxy ${upstream} answered ${answer}`,
  egressUpstreamUnreachable: (target: string, upstream: string, answer: string) => `${target}: the upstream proxy ${upstream} could not be reached (${answer})`,
  setupCouldNotReach: (refusal: string, more: readonly string[]) =>
    `Setup could not reach ${refusal}${more.length ? ` (and ${more.length} more refused: ${more.join(', ')})` : ''}.`,
};

export type EgressStrings = typeof egressEn;

/**
 * Wrench's own words in the rendering of its checks, in English: the source the thread catalogues
 * (src/slack/strings/) translate, and the fallback. Commands, test names, the counts Wrench read from the test output
 * ("3 passed, 1 failed") and the output itself are filled in as they are.
 */
export const verificationEn = {
  verdicts: { improved: 'improved', unchanged: 'same as before', regressed: 'regressed', 'not-run': 'not run' } as Record<string, string>,
  passed: 'passed',
  failed: 'failed',
  timedOut: 'timed out',
  /** A check that ran out of time, as its outcome: "timed out after 2 min". */
  timedOutAfter: (duration: string) => `timed out after ${duration}`,
  /** How a setup step ended, after its command (`null`: it was killed). */
  setupTimedOut: (duration: string) => `timed out after ${duration}`,
  exitedWith: (code: number | null) => `exited with code ${code ?? 'none (killed)'}`,
  failedWithExit: (code: number | null) => `failed (exit code ${code ?? 'none: killed'})`,
  couldNotInstall: 'could not install dependencies',
  noTestCommand: 'No test command was found (override it under `verification:` in wrench.config.yml).',
  notRun: (command: string) => `${command} was not run.`,
  setupFailed: (command: string, how: string) =>
    `**Could not install dependencies**: ${command} ${how}. The checks below ran without them, so they do not show whether the change works.`,
  baseSetupFailed: (command: string, how: string) =>
    `**Could not install dependencies on the base commit**: ${command} ${how} there, so the checks on the base commit do not count and the change's checks are compared with nothing.`,
  lastLines: 'Last lines of its output:',
  /** A setup step not run again (`ago`: "4 min", "50s"). */
  setupRemembered: (ago: string) =>
    `Not run again: it failed ${ago} ago on the same lock files, setup command and runtimes, and that run is shown here. It runs again once the failure is older than \`cache.setupFailureMinutes\`.`,
  header: (withBaseline: boolean, verdict: string) =>
    `Checks run by Wrench ${withBaseline ? 'on the base commit and after the change' : 'after the change'}: **${verdict}**.`,
  newFailures: (names: string) => `New failures: ${names}.`,
  stillFailing: (names: string) => `Still failing (failed before the change too): ${names}.`,
  fixed: (names: string) => ` Fixed: ${names}.`,
  andMore: (names: string, more: number) => `${names} and ${more} more`,
  sameAsBefore: (outcome: string) => `same as before: ${outcome}`,
  beforeAfter: (before: string, after: string) => `before ${before} → after ${after}`,
  afterOnly: (outcome: string) => `${outcome} after the change; the base commit was not checked`,
  bothTimes: (state: string) => `${state} before and after`,
  stateChange: (before: string, after: string) => `${before} before → ${after} after`,
  outputEnd: (command: string) => `Output of ${command} (end):`,
  ...egressEn,
};

export type VerificationStrings = typeof verificationEn;

/**
 * A bug fix's sections in English (the source the thread catalogues translate): its root cause (the agent's words)
 * and Wrench's check of the regression test. `test`, `how` (" (`command`)") and `files` come in backticks, as they are.
 */
export const regressionEn = {
  rootCause: 'Root cause',
  regressionTest: 'Regression test',
  noTest: ':warning: No regression test: the change adds or changes no test file, so nothing shows the bug is fixed.',
  testsOnly: 'The change only touches tests, so there is no fix to check them against.',
  noCommand: 'No test command was found, so the regression test could not be run.',
  checkedBy: (files: string) => `_Checked by Wrench: the tests ran with the fixed source files (${files}) put back to the base version, then with the fix._`,
  proven: (test: string, how: string) => `:white_check_mark: Regression test ${test} failed before the fix and passes after${how}.`,
  failingAfter: (test: string, how: string) => `:x: Regression test ${test} still fails with the fix${how}.`,
  notFailingBefore: (test: string, how: string) => `:warning: ${test} passes without the fix too, so it does not show the bug${how}.`,
  notRun: (test: string, how: string) => `${test} was not run${how}.`,
  /** The check itself failed; `error` in its own words. */
  couldNotCheck: (error: string) => `I could not check the regression test: ${error}`,
};

export type RegressionStrings = typeof regressionEn;

/** A testing run's coverage section in English. `command` in backticks; `value` a percentage or `notMeasured`. */
export const coverageEn = {
  title: 'Coverage',
  metrics: { lines: 'lines', statements: 'statements', coverage: 'coverage' } as Record<string, string>,
  notMeasured: 'not measured',
  notMeasuredFailed: 'not measured (the command failed)',
  afterOnly: (command: string, metric: string, after: string) => `${command}: ${metric} ${after} after the change (the base commit was not measured).`,
  beforeAfter: (command: string, metric: string, before: string, after: string, change: string) =>
    `${command}: ${metric} ${before} before → ${after} after${change}.`,
  unchanged: ' (unchanged)',
  /** `delta` signed: "+18.75", "−2". */
  points: (delta: string) => ` (${delta} points)`,
};

export type CoverageStrings = typeof coverageEn;

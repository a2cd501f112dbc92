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
};

export type VerificationStrings = typeof verificationEn;

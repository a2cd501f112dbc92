export { compareVerification } from './compare-verification.js';
export { detectCommands } from './detect-commands.js';
export { parseTestOutput } from './parse-test-output.js';
export { renderVerification, setupEgressLine } from './render-verification.js';
export { DEFAULT_VERIFICATION_TIMEOUT_MS } from './run-command-outcome.js';
export { runSetup, runVerification, type RunVerificationOptions } from './run-verification.js';
export { stripAnsi } from './strip-ansi.js';
export type {
  CommandOutcome,
  TestSummary,
  VerificationCommands,
  VerificationComparison,
  VerificationOverride,
  VerificationRun,
  VerificationVerdict,
} from './verification-types.js';

import { describeRefusal } from '../sandbox/egress/egress-proxy.js';
import type { CommandOutcome, VerificationCommands, VerificationComparison, VerificationRun } from './verification-types.js';

const MAX_NAMES = 10;
const VERDICT_WORDS = { improved: 'improved', unchanged: 'same as before', regressed: 'regressed', 'not-run': 'not run' } as const;
const NO_TEST_COMMAND = 'No test command was found (override it under `verification:` in wrench.config.yml).';

/**
 * The verification result as compact Markdown for the Slack reply and the pull request body: each command
 * before → after, the tests fixed and newly failing by name, and the failing output when the change regressed.
 */
export function renderVerification(
  commands: VerificationCommands,
  comparison: VerificationComparison,
  before: VerificationRun | undefined,
  after: VerificationRun,
  setupFailed?: CommandOutcome,
  baseSetupFailed?: CommandOutcome,
): string {
  const setup = setupFailed ? `${setupFailureText(setupFailed)}\n\n` : '';
  const base = baseSetupFailed && !setupFailed ? `${baseSetupFailureText(baseSetupFailed)}\n\n` : '';
  return setup + base + renderComparison(commands, comparison, before, after, setupFailed !== undefined);
}

/** The base commit's own setup failed (its tree is checked apart from the change's): no baseline to compare with. */
function baseSetupFailureText(setup: CommandOutcome): string {
  const how = setup.timedOut ? `timed out after ${duration(setup.durationMs)}` : `exited with code ${setup.exitCode ?? 'none (killed)'}`;
  return `**Could not install dependencies on the base commit**: \`${code(setup.command)}\` ${how} there, so the checks on the base commit do not count and the change's checks are compared with nothing.`;
}

/**
 * A setup step that failed: the command, its exit code and the last lines of its output. The checks that ran
 * after it ran without the dependencies, so they do not say whether the change works.
 */
export function setupFailureText(setup: CommandOutcome): string {
  const how = setup.timedOut ? `timed out after ${duration(setup.durationMs)}` : `exited with code ${setup.exitCode ?? 'none (killed)'}`;
  const tail = setup.outputTail.trim().split('\n').slice(-15).join('\n');
  return [
    `**Could not install dependencies**: \`${code(setup.command)}\` ${how}. The checks below ran without them, so they do not show whether the change works.`,
    setupEgressLine(setup) ?? '',
    tail ? `Last lines of its output:\n${fence(tail)}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * One line naming what the egress policy refused during a setup step (undefined when it refused nothing), e.g.
 * "Setup could not reach evil.example:443: not in the egress allow list (sandbox.egress.allow)".
 */
export function setupEgressLine(setup: Pick<CommandOutcome, 'egressRefused'>): string | undefined {
  const [first, ...more] = setup.egressRefused ?? [];
  if (!first) return undefined;
  return `Setup could not reach ${describeRefusal(first)}${more.length ? ` (and ${more.length} more refused: ${more.map((r) => `${r.host}:${r.port}`).join(', ')})` : ''}.`;
}

function renderComparison(
  commands: VerificationCommands,
  comparison: VerificationComparison,
  before: VerificationRun | undefined,
  after: VerificationRun,
  setupFailed: boolean,
): string {
  if (comparison.verdict === 'not-run') {
    const text = commands.test ? `\`${code(commands.test)}\` was not run.` : NO_TEST_COMMAND;
    return [text, ...(commands.notes ?? [])].join('\n');
  }
  const lines = [after.test ? testLine(after.test, before?.test, comparison) : NO_TEST_COMMAND];
  if (comparison.newFailures.length) lines.push(`New failures: ${nameList(comparison.newFailures)}.`);
  if (comparison.stillFailing.length) lines.push(`Still failing (failed before the change too): ${nameList(comparison.stillFailing)}.`);
  if (after.lint) lines.push(lintLine(after.lint, before?.lint));
  lines.push(...environmentLines(commands));

  const when = before ? 'on the base commit and after the change' : 'after the change';
  const passed = [after.test, after.lint].every((outcome) => !outcome || outcome.passed);
  // Without a baseline there is nothing to be "the same as": say how the checks came out.
  const verdict = setupFailed ? 'could not install dependencies' : before ? VERDICT_WORDS[comparison.verdict] : passed ? 'passed' : 'failed';
  const header = `Checks run by Wrench ${when}: **${verdict}**.`;
  const blocks = [header, lines.map((line) => `- ${line}`).join('\n')];
  if (comparison.verdict === 'regressed') {
    for (const outcome of [after.test, after.lint]) {
      if (outcome && !outcome.passed && outcome.outputTail) blocks.push(`Output of \`${code(outcome.command)}\` (end):\n${fence(outcome.outputTail)}`);
    }
  }
  return blocks.join('\n\n');
}

/** Where the commands came from and what they ran on, so a reader can tell whether this is the repository's own CI setup. */
function environmentLines(commands: VerificationCommands): string[] {
  const origin = commands.origin ? [`${commands.origin.charAt(0).toUpperCase()}${commands.origin.slice(1)}.`] : [];
  return [...origin, ...(commands.environment?.lines ?? []), ...(commands.notes ?? [])];
}

function testLine(after: CommandOutcome, before: CommandOutcome | undefined, comparison: VerificationComparison): string {
  const change = !before
    ? undefined
    : describeOutcome(before) === describeOutcome(after)
      ? `same as before: ${describeOutcome(after)}`
      : `before ${describeOutcome(before)} → after ${describeOutcome(after)}`;
  const text = change ?? `${describeOutcome(after)} after the change; the base commit was not checked`;
  const fixed = comparison.fixed.length ? ` Fixed: ${nameList(comparison.fixed)}.` : '';
  return `\`${code(after.command)}\`: ${text}.${fixed}`;
}

function lintLine(after: CommandOutcome, before: CommandOutcome | undefined): string {
  const state = (outcome: CommandOutcome) => (outcome.timedOut ? 'timed out' : outcome.passed ? 'passed' : 'failed');
  const change = !before
    ? `${state(after)} after the change; the base commit was not checked`
    : state(before) === state(after)
      ? `${state(after)} before and after`
      : `${state(before)} before → ${state(after)} after`;
  return `\`${code(after.command)}\`: ${change}.`;
}

function describeOutcome(outcome: CommandOutcome): string {
  if (outcome.timedOut) return `timed out after ${duration(outcome.durationMs)}`;
  const { passed, failed, skipped } = outcome.summary;
  const counts = [passed !== undefined ? `${passed} passed` : '', failed !== undefined ? `${failed} failed` : '', skipped ? `${skipped} skipped` : ''].filter(
    Boolean,
  );
  if (counts.length) return counts.join(', ');
  return outcome.passed ? 'passed' : `failed (exit code ${outcome.exitCode ?? 'none: killed'})`;
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `${seconds}s` : `${Math.round(seconds / 60)} min`;
}

function nameList(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMES).map((name) => `\`${code(name)}\``);
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** Text safe inside single backticks. */
function code(text: string): string {
  return text.replace(/`/g, "'").replace(/\s+/g, ' ');
}

function fence(text: string): string {
  return `\`\`\`\n${text.replace(/```/g, "'''")}\n\`\`\``;
}

import { METADATA_ADDRESS } from '../sandbox/egress/blocked-addresses.js';
import type { EgressRefusal } from '../sandbox/egress/egress-proxy.js';
import type { CommandOutcome, VerificationCommands, VerificationComparison, VerificationRun } from './verification-types.js';
import { type EgressStrings, verificationEn, type VerificationStrings } from './verification-strings.js';

const MAX_NAMES = 10;

/**
 * The verification result as compact Markdown for the Slack reply and the pull request body: each command
 * before → after, the tests fixed and newly failing by name, and the failing output when the change regressed. Wrench's
 * words come from `strings` (English by default: the pull request body and the run page).
 */
export function renderVerification(
  commands: VerificationCommands,
  comparison: VerificationComparison,
  before: VerificationRun | undefined,
  after: VerificationRun,
  setupFailed?: CommandOutcome,
  baseSetupFailed?: CommandOutcome,
  strings: VerificationStrings = verificationEn,
): string {
  const setup = setupFailed ? `${setupFailureText(setupFailed, strings)}\n\n` : '';
  const base = baseSetupFailed && !setupFailed ? `${baseSetupFailureText(baseSetupFailed, strings)}\n\n` : '';
  return setup + base + renderComparison(commands, comparison, before, after, setupFailed !== undefined, strings);
}

/** How a setup step ended: "timed out after 2 min", "exited with code 1". */
function setupHow(setup: CommandOutcome, t: VerificationStrings): string {
  return setup.timedOut ? t.setupTimedOut(duration(setup.durationMs)) : t.exitedWith(setup.exitCode);
}

/** The base commit's own setup failed (its tree is checked apart from the change's): no baseline to compare with. */
function baseSetupFailureText(setup: CommandOutcome, t: VerificationStrings): string {
  return t.baseSetupFailed(`\`${code(setup.command)}\``, setupHow(setup, t));
}

/**
 * A setup step that failed: the command, its exit code and the last lines of its output. The checks that ran
 * after it ran without the dependencies, so they do not say whether the change works.
 */
export function setupFailureText(setup: CommandOutcome, t: VerificationStrings = verificationEn): string {
  const tail = setup.outputTail.trim().split('\n').slice(-15).join('\n');
  return [
    t.setupFailed(`\`${code(setup.command)}\``, setupHow(setup, t)),
    setup.rememberedAt ? t.setupRemembered(duration(Math.max(0, Date.now() - Date.parse(setup.rememberedAt)))) : '',
    setupEgressLine(setup.egressRefused, t) ?? '',
    tail ? `${t.lastLines}\n${fence(tail)}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * One line naming what the egress policy refused during a setup step (undefined when it refused nothing), in
 * `t`'s words, e.g. "Setup could not reach evil.example:443: not in the egress allow list (sandbox.egress.allow)."
 */
export function setupEgressLine(refused: readonly EgressRefused[] | undefined, t: EgressStrings = verificationEn): string | undefined {
  const [first, ...more] = refused ?? [];
  if (!first) return undefined;
  return t.setupCouldNotReach(
    describeRefused(first, t),
    more.map((r) => `${r.host}:${r.port}`),
  );
}

export type EgressRefused = Pick<EgressRefusal, 'host' | 'port' | 'reason' | 'address' | 'upstream' | 'upstreamSetting' | 'upstreamAnswer'>;

function describeRefused(refusal: EgressRefused, t: EgressStrings): string {
  const target = `${refusal.host}:${refusal.port}`;
  if (refusal.reason === 'not-allowed') return t.egressNotAllowed(target);
  const upstream = `${refusal.upstream} (${refusal.upstreamSetting})`;
  if (refusal.reason === 'upstream-refused') return t.egressUpstreamRefused(target, upstream, refusal.upstreamAnswer ?? '');
  if (refusal.reason === 'upstream-unreachable') return t.egressUpstreamUnreachable(target, upstream, refusal.upstreamAnswer ?? '');
  const address = refusal.address ?? '';
  return address === METADATA_ADDRESS ? t.egressMetadata(target, address) : t.egressNonPublic(target, address);
}

function renderComparison(
  commands: VerificationCommands,
  comparison: VerificationComparison,
  before: VerificationRun | undefined,
  after: VerificationRun,
  setupFailed: boolean,
  t: VerificationStrings,
): string {
  if (comparison.verdict === 'not-run') {
    const text = commands.test ? t.notRun(`\`${code(commands.test)}\``) : t.noTestCommand;
    return [text, ...(commands.notes ?? [])].join('\n');
  }
  const lines = [after.test ? testLine(after.test, before?.test, comparison, t) : t.noTestCommand];
  if (comparison.newFailures.length) lines.push(t.newFailures(nameList(comparison.newFailures, t)));
  if (comparison.stillFailing.length) lines.push(t.stillFailing(nameList(comparison.stillFailing, t)));
  if (after.lint) lines.push(lintLine(after.lint, before?.lint, t));
  lines.push(...environmentLines(commands));

  const passed = [after.test, after.lint].every((outcome) => !outcome || outcome.passed);
  // Without a baseline there is nothing to be "the same as": say how the checks came out.
  const verdict = setupFailed ? t.couldNotInstall : before ? (t.verdicts[comparison.verdict] ?? comparison.verdict) : passed ? t.passed : t.failed;
  const header = t.header(!!before, verdict);
  const blocks = [header, lines.map((line) => `- ${line}`).join('\n')];
  if (comparison.verdict === 'regressed') {
    for (const outcome of [after.test, after.lint]) {
      if (outcome && !outcome.passed && outcome.outputTail) blocks.push(`${t.outputEnd(`\`${code(outcome.command)}\``)}\n${fence(outcome.outputTail)}`);
    }
  }
  return blocks.join('\n\n');
}

/** Where the commands came from and what they ran on, so a reader can tell whether this is the repository's own CI setup. */
function environmentLines(commands: VerificationCommands): string[] {
  const origin = commands.origin ? [`${commands.origin.charAt(0).toUpperCase()}${commands.origin.slice(1)}.`] : [];
  return [...origin, ...(commands.environment?.lines ?? []), ...(commands.notes ?? [])];
}

function testLine(after: CommandOutcome, before: CommandOutcome | undefined, comparison: VerificationComparison, t: VerificationStrings): string {
  const describe = (outcome: CommandOutcome) => describeOutcome(outcome, t);
  const change = !before
    ? undefined
    : describe(before) === describe(after)
      ? t.sameAsBefore(describe(after))
      : t.beforeAfter(describe(before), describe(after));
  const text = change ?? t.afterOnly(describe(after));
  const fixed = comparison.fixed.length ? t.fixed(nameList(comparison.fixed, t)) : '';
  return `\`${code(after.command)}\`: ${text}.${fixed}`;
}

function lintLine(after: CommandOutcome, before: CommandOutcome | undefined, t: VerificationStrings): string {
  const state = (outcome: CommandOutcome) => (outcome.timedOut ? t.timedOut : outcome.passed ? t.passed : t.failed);
  const change = !before ? t.afterOnly(state(after)) : state(before) === state(after) ? t.bothTimes(state(after)) : t.stateChange(state(before), state(after));
  return `\`${code(after.command)}\`: ${change}.`;
}

/** The counts as Wrench read them from the test output ("3 passed, 1 failed"), which stay as they are; else Wrench's words. */
function describeOutcome(outcome: CommandOutcome, t: VerificationStrings): string {
  if (outcome.timedOut) return t.timedOutAfter(duration(outcome.durationMs));
  const { passed, failed, skipped } = outcome.summary;
  const counts = [passed !== undefined ? `${passed} passed` : '', failed !== undefined ? `${failed} failed` : '', skipped ? `${skipped} skipped` : ''].filter(
    Boolean,
  );
  if (counts.length) return counts.join(', ');
  return outcome.passed ? t.passed : t.failedWithExit(outcome.exitCode);
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `${seconds}s` : `${Math.round(seconds / 60)} min`;
}

function nameList(names: readonly string[], t: VerificationStrings): string {
  const shown = names.slice(0, MAX_NAMES).map((name) => `\`${code(name)}\``);
  const more = names.length - shown.length;
  return more > 0 ? t.andMore(shown.join(', '), more) : shown.join(', ');
}

/** Text safe inside single backticks. */
function code(text: string): string {
  return text.replace(/`/g, "'").replace(/\s+/g, ' ');
}

function fence(text: string): string {
  return `\`\`\`\n${text.replace(/```/g, "'''")}\n\`\`\``;
}

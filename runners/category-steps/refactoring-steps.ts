import { refactoringReportSchema } from '../../src/agent/category-reports.js';
import type { CommandOutcome } from '../../src/verification/index.js';
import type { ResultSection } from '../../src/reporting/run-result.js';
import { stringsFor, type ThreadStrings } from '../../src/slack/strings/index.js';
import type { CategorySteps, StepContext } from './step-types.js';
import { threadStrings } from './thread-strings.js';

const FAILING_IS_FINE = [
  /\b(?:even though|even if|although|though|despite|regardless of|whether or not)\b[^.\n]{0,60}\b(?:tests?|suite|ci|build|specs?)\b[^.\n]{0,40}\b(?:fail\w*|broken|red)\b/i,
  /\b(?:ignore|skip|disregard)\b[^.\n]{0,30}\bfailing\s+(?:tests?|specs?|suite)\b/i,
  /\b(?:tests?|suite|ci|build)\s+(?:is|are)\s+(?:already\s+|currently\s+|known\s+to\s+be\s+)?(?:failing|broken|red)\b/i,
];

/** Whether the instruction says to go ahead although the suite fails on the base commit. */
export function allowsFailingBaseline(instruction: string): boolean {
  return FAILING_IS_FINE.some((pattern) => pattern.test(instruction));
}

/**
 * Refactoring: the full suite must pass before (else Wrench says so and does not start, unless the
 * instruction says to go ahead) and after; the report lists what moved and what was renamed.
 */
export function refactoringSteps(ctx: StepContext): CategorySteps {
  return {
    async before() {
      const test = ctx.verifier?.detected.test;
      if (!test)
        return {
          requirements: [
            'The repository has no test command Wrench could find, so nothing checks that behaviour is unchanged: keep every step mechanical and say so in your report.',
          ],
        };
      const baseline = (await ctx.verifier?.waitForBaseline())?.test;
      if (!baseline || baseline.passed) {
        return {
          requirements: [
            `The full suite (\`${test}\`) passes on the base commit; it must pass after your refactoring too, with no test changed to make it pass.`,
          ],
        };
      }
      if (allowsFailingBaseline(ctx.job.instruction)) {
        return {
          requirements: [
            `The full suite (\`${test}\`) already fails on the base commit (${failures(baseline, stringsFor('en').refactoring)}); as the instruction allows, go ahead, but nothing that passes now may fail afterwards.`,
          ],
        };
      }
      const english = stringsFor('en').refactoring;
      const thread = threadLanguage(ctx.job);
      return {
        stop: {
          headline: english.suiteFailsHeadline,
          answer: english.suiteFailsAnswer(`\`${test}\``, failures(baseline, english)),
          ...(thread ? { inThread: { headline: thread.suiteFailsHeadline, answer: thread.suiteFailsAnswer(`\`${test}\``, failures(baseline, thread)) } } : {}),
        },
      };
    },
    async after({ report, verification }) {
      const sections: ResultSection[] = [];
      const parsed = refactoringReportSchema.safeParse(report ?? {});
      const moved = parsed.success ? parsed.data.moved : [];
      const renamed = parsed.success ? parsed.data.renamed : [];
      const english = stringsFor('en').refactoring;
      const inThread = threadLanguage(ctx.job);
      const code = (text: string) => `\`${text}\``;
      const lines = (t: ThreadStrings['refactoring']) =>
        [...moved.map((m) => t.moved(m.what, code(m.from), code(m.to))), ...renamed.map((r) => t.renamed(r.kind, code(r.from), code(r.to)))].join('\n');
      const both = (title: (t: ThreadStrings['refactoring']) => string, body: (t: ThreadStrings['refactoring']) => string) => ({
        title: title(english),
        body: body(english),
        ...(inThread ? { inThread: { title: title(inThread), body: body(inThread) } } : {}),
      });
      if (moved.length || renamed.length) sections.push({ ...both((t) => t.movedAndRenamed, lines), claim: true });
      const before = ctx.verifier?.baselineRun?.test;
      const after = verification?.after?.test;
      if (after)
        sections.push(
          both(
            (t) => t.fullSuite,
            (t) => t.suiteBeforeAfter(code(after.command), before?.passed, after.passed),
          ),
        );
      const suiteFails = after && !after.passed && before?.passed && !verification?.regressed;
      const draftReason = suiteFails ? stringsFor('en').refactoring.draftSuiteFails : undefined;
      const thread = suiteFails ? threadLanguage(ctx.job) : undefined;
      return { sections, draftReason, ...(thread ? { threadDraftReason: thread.draftSuiteFails } : {}) };
    },
  };
}

function failures(outcome: CommandOutcome, t: ThreadStrings['refactoring']): string {
  const names = outcome.summary.failedTests.slice(0, 5).map((name) => `\`${name.replace(/`/g, "'")}\``);
  if (outcome.timedOut) return t.timedOut;
  if (names.length) return t.failing(outcome.summary.failed ?? names.length, names.join(', '));
  return t.exitCode(String(outcome.exitCode ?? 'none'));
}

/** A refactoring's words in the thread's language, when a run asked in Slack speaks another than English. */
function threadLanguage(job: StepContext['job']): ThreadStrings['refactoring'] | undefined {
  return threadStrings(job)?.refactoring;
}

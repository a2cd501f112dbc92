import { refactoringReportSchema } from '../../src/agent/category-reports.js';
import type { CommandOutcome } from '../../src/verification/index.js';
import type { ResultSection } from '../../src/reporting/run-result.js';
import type { CategorySteps, StepContext } from './step-types.js';

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
            `The full suite (\`${test}\`) already fails on the base commit (${failures(baseline)}); as the instruction allows, go ahead, but nothing that passes now may fail afterwards.`,
          ],
        };
      }
      return {
        stop: {
          headline: ':warning: The test suite fails on the base commit, so I did not start the refactoring.',
          answer: [
            `A refactoring must keep a passing suite passing, and \`${test}\` already fails before any change: ${failures(baseline)}.`,
            'Fix those tests first, or mention me again saying to refactor even though the tests fail.',
          ].join(' '),
        },
      };
    },
    async after({ report, verification }) {
      const sections: ResultSection[] = [];
      const parsed = refactoringReportSchema.safeParse(report ?? {});
      const moved = parsed.success ? parsed.data.moved : [];
      const renamed = parsed.success ? parsed.data.renamed : [];
      const lines = [
        ...moved.map((m) => `- Moved ${m.what}: \`${m.from}\` → \`${m.to}\``),
        ...renamed.map((r) => `- Renamed ${r.kind ? `${r.kind} ` : ''}\`${r.from}\` → \`${r.to}\``),
      ];
      if (lines.length) sections.push({ title: 'Moved and renamed', body: lines.join('\n'), claim: true });
      const before = ctx.verifier?.baselineRun?.test;
      const after = verification?.after?.test;
      if (after) {
        const state = (o: CommandOutcome | undefined) => (o ? (o.passed ? 'passes' : 'fails') : 'was not run');
        sections.push({ title: 'Full suite', body: `\`${after.command}\` ${state(before)} on the base commit and ${state(after)} after the refactoring.` });
      }
      const draftReason =
        after && !after.passed && before?.passed && !verification?.regressed
          ? 'A refactoring must leave the full suite passing, and it fails after this change.'
          : undefined;
      return { sections, draftReason };
    },
  };
}

function failures(outcome: CommandOutcome): string {
  const names = outcome.summary.failedTests.slice(0, 5).map((name) => `\`${name.replace(/`/g, "'")}\``);
  if (outcome.timedOut) return 'it timed out';
  if (names.length) return `${outcome.summary.failed ?? names.length} failing, including ${names.join(', ')}`;
  return `exit code ${outcome.exitCode ?? 'none'}`;
}

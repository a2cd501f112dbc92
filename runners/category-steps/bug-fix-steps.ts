import { bugFixReportSchema } from '../../src/agent/category-reports.js';
import { describeError } from '../../src/errors.js';
import { checkRegressionTests } from '../../src/verification/regression-check.js';
import { renderRegressionEvidence } from '../../src/verification/render-regression.js';
import { workingTreeChanges } from '../../src/workspace/working-tree-changes.js';
import type { CategorySteps, StepContext } from './step-types.js';
import { sectionFor } from './thread-strings.js';

/**
 * Bug fixing: the regression test must fail before the fix and pass after. Wrench checks that itself by
 * running the new or changed tests with the fixed source files put back to the base version, then with the fix.
 */
export function bugFixSteps(ctx: StepContext): CategorySteps {
  return {
    async before() {
      return {
        requirements: [
          'Add a regression test that fails without your fix and passes with it, and name it in your report (`regressionTests`, with a command that runs just that test when there is one). Wrench runs it with your source changes reverted to check that it fails, then with them.',
        ],
      };
    },
    async after({ report, verification }) {
      const parsed = bugFixReportSchema.safeParse(report ?? {});
      const tests = parsed.success ? parsed.data.regressionTests : [];
      try {
        const changed = await workingTreeChanges(ctx.dir, ctx.startSha);
        if (changed.length === 0) return {};
        await ctx.progress({ key: 'regressionTestFails' });
        const evidence = await checkRegressionTests({
          sandbox: ctx.sandbox,
          dir: ctx.dir,
          baseSha: ctx.startSha,
          changed,
          tests,
          testCommand: ctx.verifier?.detected.test,
          afterRun: verification?.after?.test,
          signal: ctx.signal,
        });
        const cause = parsed.success ? parsed.data.rootCause : undefined;
        const rootCause = cause ? [sectionFor(ctx.job, (t) => ({ title: t.regression.rootCause, body: cause }), { claim: true })] : [];
        const regression = sectionFor(ctx.job, (t) => ({ title: t.regression.regressionTest, body: renderRegressionEvidence(evidence, t.regression) }));
        return { sections: [...rootCause, regression] };
      } catch (error) {
        ctx.log.warn({ err: error }, 'regression check failed');
        const problem = describeError(error);
        return { sections: [sectionFor(ctx.job, (t) => ({ title: t.regression.regressionTest, body: t.regression.couldNotCheck(problem) }))] };
      }
    },
  };
}

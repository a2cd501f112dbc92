import { commandRunEnv } from '../../src/verification/command-env.js';
import { measureCoverage } from '../../src/verification/measure-coverage.js';
import { renderCoverageChange, type CoverageMeasurement } from '../../src/verification/render-coverage.js';
import type { CategorySteps, StepContext } from './step-types.js';
import { sectionFor } from './thread-strings.js';

/** Testing: coverage on the base commit and after the change, when the repository has a coverage command. */
export function coverageSteps(ctx: StepContext): CategorySteps {
  const command = () => ctx.verifier?.detected.coverage;
  const environment = () => (ctx.verifier ? commandRunEnv(ctx.verifier.detected, ctx.dir) : undefined);
  let before: CoverageMeasurement | undefined;
  return {
    async before() {
      const coverage = command();
      if (!coverage) return { environment: ['The repository has no coverage command that Wrench found; judge the untested paths by reading the tests.'] };
      await ctx.progress({ key: 'coverageOnBase', command: coverage });
      before = await measureCoverage({ sandbox: ctx.sandbox, dir: ctx.dir, command: coverage, signal: ctx.signal, environment: environment() });
      const now = before.total ? `${before.total.percent}% of ${before.total.metric}` : 'no total could be read';
      return { environment: [`Coverage: \`${coverage}\` measures it; on the base commit: ${now}. Wrench measures it again after your change.`] };
    },
    async after() {
      const coverage = command();
      if (!coverage) return {};
      await ctx.progress({ key: 'coverageAfter' });
      const after = await measureCoverage({ sandbox: ctx.sandbox, dir: ctx.dir, command: coverage, signal: ctx.signal, environment: environment() });
      return { sections: [sectionFor(ctx.job, (t) => ({ title: t.coverage.title, body: renderCoverageChange(before, after, t.coverage) }))] };
    },
  };
}

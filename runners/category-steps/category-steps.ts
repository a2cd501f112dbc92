import { bugFixSteps } from './bug-fix-steps.js';
import { coverageSteps } from './coverage-steps.js';
import { dataAnalysisSteps } from './data-analysis-steps.js';
import { refactoringSteps } from './refactoring-steps.js';
import { scrapingSteps } from './scraping-steps.js';
import type { CategorySteps, StepContext } from './step-types.js';

/** The steps a change run of this category takes around the agent (none for features). */
export function categorySteps(ctx: StepContext): CategorySteps {
  switch (ctx.job.category) {
    case 'testing':
      return coverageSteps(ctx);
    case 'data-analysis':
      return dataAnalysisSteps(ctx);
    case 'web-scraping':
      return scrapingSteps(ctx);
    case 'refactoring':
      return refactoringSteps(ctx);
    case 'bug-fixing':
      return bugFixSteps(ctx);
    default:
      return {};
  }
}

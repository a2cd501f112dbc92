import { scrapingRequirements } from '../../src/agent/scraping-requirements.js';
import type { CategorySteps, StepContext } from './step-types.js';

/** Web scraping: the instruction's pacing, retries and logging become hard requirements; tests stay offline. */
export function scrapingSteps(ctx: StepContext): CategorySteps {
  return {
    async before() {
      return {
        requirements: scrapingRequirements(ctx.job.instruction, ctx.job.elements),
        environment: [
          ctx.network
            ? 'Network access is on for your commands (web-scraping policy), so you may look at the site; keep to the rate limit while you do.'
            : 'Network access is off for this run (sandbox policy): work from saved pages and fixtures only.',
        ],
      };
    },
  };
}

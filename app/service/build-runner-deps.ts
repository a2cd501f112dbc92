import Anthropic from '@anthropic-ai/sdk';
import type { RunnerDeps } from '../../runners/runner-deps.js';
import type { ModelBudget } from '../../src/agent/model-budget.js';
import type { Config } from '../../src/config/load-config.js';
import { countingFetch } from '../../src/metrics/count-api-calls.js';
import { metrics } from '../../src/metrics/metrics.js';
import { createGitHubAccess } from '../../src/github/github-access.js';
import type { Logger } from '../../src/logging/logger.js';
import type { NamedSecret, Redactor } from '../../src/security/redact.js';

/**
 * The clients runners use, built once: the SDK's own retries (with backoff) cover 429, 5xx and 529; with a `modelBudget`
 * every attempt first waits for the fleet's shared model rate budget (a 429's retry-after holds every worker).
 */
export function buildRunnerDeps(
  config: Config,
  logger: Logger,
  redact: Redactor,
  secrets: string[],
  credentials?: NamedSecret[],
  modelBudget?: ModelBudget,
): RunnerDeps {
  const env = config.env;
  const github = createGitHubAccess(env, logger);
  return {
    config,
    logger,
    redact,
    secrets,
    credentials,
    anthropic: new Anthropic({
      apiKey: env.ANTHROPIC_API_KEY ?? 'missing',
      baseURL: env.ANTHROPIC_BASE_URL,
      maxRetries: 4,
      fetch: countingFetch('anthropic', metrics),
      middleware: modelBudget ? [modelBudget.middleware()] : undefined,
    }),
    github: github?.octokit ?? null,
    gitCredential: github?.gitCredential,
  };
}

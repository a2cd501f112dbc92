import Anthropic from '@anthropic-ai/sdk';
import type { RunnerDeps } from '../../runners/runner-deps.js';
import type { Config } from '../../src/config/load-config.js';
import { countingFetch } from '../../src/metrics/count-api-calls.js';
import { metrics } from '../../src/metrics/metrics.js';
import { createGitHubAccess } from '../../src/github/github-access.js';
import type { Logger } from '../../src/logging/logger.js';
import type { NamedSecret, Redactor } from '../../src/security/redact.js';

/** The clients runners use, built once: the SDK's own retries (with backoff) cover 429, 5xx and 529. */
export function buildRunnerDeps(config: Config, logger: Logger, redact: Redactor, secrets: string[], credentials?: NamedSecret[]): RunnerDeps {
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
    }),
    github: github?.octokit ?? null,
    gitCredential: github?.gitCredential,
  };
}

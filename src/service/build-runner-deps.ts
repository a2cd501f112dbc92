import Anthropic from '@anthropic-ai/sdk';
import type { RunnerDeps } from '../../runners/runner-deps.js';
import type { Config } from '../config/load-config.js';
import { createOctokit } from '../github/create-octokit.js';
import type { Logger } from '../logging/logger.js';
import { type Redactor } from '../security/redact.js';

/** The clients runners use, built once: the SDK's own retries (with backoff) cover 429, 5xx and 529. */
export function buildRunnerDeps(config: Config, logger: Logger, redact: Redactor, secrets: string[]): RunnerDeps {
  const env = config.env;
  return {
    config,
    logger,
    redact,
    secrets,
    anthropic: new Anthropic({ apiKey: env.ANTHROPIC_API_KEY ?? 'missing', baseURL: env.ANTHROPIC_BASE_URL, maxRetries: 4 }),
    github: env.GITHUB_TOKEN ? createOctokit({ token: env.GITHUB_TOKEN, baseUrl: env.GITHUB_API_URL, logger }) : null,
    githubToken: env.GITHUB_TOKEN,
  };
}

import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { countingFetch } from '../metrics/count-api-calls.js';
import { metrics } from '../metrics/metrics.js';
import type { Logger } from '../logging/logger.js';

/** Retries 5xx and network errors; waits out primary and secondary rate limits (twice each). */
export const WrenchOctokit = Octokit.plugin(throttling, retry).defaults({ userAgent: 'wrench' });
export type GitHubClient = InstanceType<typeof WrenchOctokit>;

export interface OctokitOptions {
  token?: string;
  /** Instead of a token: e.g. a GitHub App's per-repository installation tokens (github-access.ts). */
  authStrategy?: () => unknown;
  baseUrl: string;
  logger?: Logger;
  retryAfterBase?: number;
  /** No request log lines at all (the CLI prints its own words; Octokit would print its own). */
  silent?: boolean;
}

/**
 * Octokit's request log reports every failed request as an error, including the 4xx answers callers
 * expect and handle (a 404 probe, a 422 for a review comment outside the diff, retried body-only);
 * those are warnings. Callers log what they could not handle themselves.
 */
const CLIENT_ERROR_LINE = / - 4\d\d with id /;

export function createOctokit(options: OctokitOptions): GitHubClient {
  const log = options.logger;
  const quiet = () => {};
  return new WrenchOctokit({
    ...(options.authStrategy ? { authStrategy: options.authStrategy } : { auth: options.token }),
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    request: { fetch: countingFetch('github', metrics) },
    log: options.silent
      ? { debug: quiet, info: quiet, warn: quiet, error: quiet }
      : log
        ? { debug: quiet, info: quiet, warn: (m: string) => log.warn(m), error: (m: string) => (CLIENT_ERROR_LINE.test(m) ? log.warn(m) : log.error(m)) }
        : undefined,
    retry: { retryAfterBaseValue: options.retryAfterBase ?? 1000 },
    throttle: {
      onRateLimit: (retryAfter: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number) => {
        log?.warn({ retryAfter, url: request.url }, 'GitHub rate limit reached');
        if (retryCount < 2) metrics.apiRetries.inc({ service: 'github' });
        return retryCount < 2;
      },
      onSecondaryRateLimit: (retryAfter: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number) => {
        log?.warn({ retryAfter, url: request.url }, 'GitHub secondary rate limit reached');
        if (retryCount < 2) metrics.apiRetries.inc({ service: 'github' });
        return retryCount < 2;
      },
    },
  });
}

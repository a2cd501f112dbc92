import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';
import { countingFetch } from '../metrics/count-api-calls.js';
import { metrics } from '../metrics/metrics.js';
import type { Logger } from '../logging/logger.js';

/**
 * Writes that notify people (comments, pull requests, reviews) spaced as GitHub's REST guidance asks for every write:
 * at least one second apart, which also keeps under its 80 content-creating requests a minute. The plugin's own
 * default is three seconds, so a note on one pull request held the next run's pull request (and its reply) that long.
 * One group for the process, as the plugin's own groups are.
 */
const notifyingWrites = new Bottleneck.Group({ maxConcurrent: 1, minTime: 1000 });

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
      notifications: notifyingWrites,
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

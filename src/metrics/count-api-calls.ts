import { ErrorCode, WebClientEvent, type WebClient } from '@slack/web-api';
import type { ApiService, Metrics } from './metrics.js';

/**
 * A fetch that counts failed calls (HTTP status >= 400, or the network) and retries of one service,
 * and times each Anthropic Messages call (every attempt, retries included).
 * The Anthropic SDK marks its retries with `x-stainless-retry-count`; Octokit's retry plugin repeats
 * the same request, which is counted as another call (and its failure as an error).
 */
export function countingFetch(service: ApiService, metrics: Metrics, base: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const retryCount = Number(new Headers(init?.headers).get('x-stainless-retry-count') ?? 0);
    if (retryCount > 0) metrics.apiRetries.inc({ service });
    const timer = service === 'anthropic' && isMessagesCall(input) ? metrics.modelCallDuration.startTimer() : undefined;
    try {
      const response = await base(input, init);
      timer?.({ outcome: response.ok ? 'ok' : 'error' });
      if (response.status >= 400) metrics.apiErrors.inc({ service, code: String(response.status) });
      return response;
    } catch (error) {
      timer?.({ outcome: 'error' });
      if ((error as Error).name !== 'AbortError') metrics.apiErrors.inc({ service, code: 'network' });
      throw error;
    }
  };
}

function isMessagesCall(input: Parameters<typeof fetch>[0]): boolean {
  const url = input instanceof Request ? input.url : String(input);
  return new URL(url).pathname.endsWith('/v1/messages');
}

/**
 * Counts a Slack client's failed calls by Slack's documented error code (`ratelimited` for HTTP 429, as Slack's
 * own `ok: false` answers say it), its HTTP status, or `network`; and each 429 the client itself waits out and
 * retries as one retry. A client that rejects rate-limited calls (`rejectRateLimitedCalls`) retries nothing: its
 * 429 is one `ratelimited` error, and whoever retries it (the outbox) counts that retry.
 * The client's methods are bound to `apiCall` when it is built, so the count hooks the two steps `apiCall`
 * takes on the instance: `makeRequest` (HTTP) and `buildResult` (Slack's `ok: false` answers).
 */
export function countSlackCalls(client: WebClient, metrics: Metrics): void {
  const target = client as unknown as {
    makeRequest: (...args: unknown[]) => Promise<unknown>;
    buildResult: (...args: unknown[]) => Promise<{ ok?: boolean; error?: string }>;
    rejectRateLimitedCalls?: boolean;
  };
  const makeRequest = target.makeRequest.bind(client);
  const buildResult = target.buildResult.bind(client);
  target.makeRequest = async (...args) => {
    try {
      return await makeRequest(...args);
    } catch (error) {
      metrics.apiErrors.inc({ service: 'slack', code: slackFailureCode(error) });
      throw error;
    }
  };
  target.buildResult = async (...args) => {
    const result = await buildResult(...args);
    if (result.ok === false) metrics.apiErrors.inc({ service: 'slack', code: result.error ?? 'unknown' });
    return result;
  };
  client.on(WebClientEvent.RATE_LIMITED, () => {
    if (!target.rejectRateLimitedCalls) metrics.apiRetries.inc({ service: 'slack' });
  });
}

/** The label for an HTTP-level failure of `@slack/web-api` (its own `slack_webapi_…` codes are not Slack's). */
function slackFailureCode(error: unknown): string {
  const e = error as { code?: string; statusCode?: number; original?: { message?: string } };
  if (e.code === ErrorCode.RateLimitedError) return 'ratelimited';
  if (e.code === ErrorCode.HTTPError && e.statusCode) return String(e.statusCode);
  // A 429 waited out until the retries ran out ends as a request error quoting it.
  if (e.code === ErrorCode.RequestError && e.original?.message?.startsWith('A rate limit was exceeded')) return 'ratelimited';
  return 'network';
}

/** For clients with their own transport (pdjs): one failed call. */
export function countApiError(service: ApiService, metrics: Metrics, code: string | number): void {
  metrics.apiErrors.inc({ service, code: String(code) });
}

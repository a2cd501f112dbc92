import { WebClientEvent, type WebClient } from '@slack/web-api';
import type { ApiService, Metrics } from './metrics.js';

/**
 * A fetch that counts failed calls (HTTP status >= 400, or the network) and retries of one service.
 * The Anthropic SDK marks its retries with `x-stainless-retry-count`; Octokit's retry plugin repeats
 * the same request, which is counted as another call (and its failure as an error).
 */
export function countingFetch(service: ApiService, metrics: Metrics, base: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const retryCount = Number(new Headers(init?.headers).get('x-stainless-retry-count') ?? 0);
    if (retryCount > 0) metrics.apiRetries.inc({ service });
    try {
      const response = await base(input, init);
      if (response.status >= 400) metrics.apiErrors.inc({ service, code: String(response.status) });
      return response;
    } catch (error) {
      if ((error as Error).name !== 'AbortError') metrics.apiErrors.inc({ service, code: 'network' });
      throw error;
    }
  };
}

/**
 * Counts a Slack client's failed calls by Slack's error code (or HTTP failure) and its rate-limited retries.
 * The client's methods are bound to `apiCall` when it is built, so the count hooks the two steps `apiCall`
 * takes on the instance: `makeRequest` (HTTP) and `buildResult` (Slack's `ok: false` answers).
 */
export function countSlackCalls(client: WebClient, metrics: Metrics): void {
  const target = client as unknown as {
    makeRequest: (...args: unknown[]) => Promise<unknown>;
    buildResult: (...args: unknown[]) => Promise<{ ok?: boolean; error?: string }>;
  };
  const makeRequest = target.makeRequest.bind(client);
  const buildResult = target.buildResult.bind(client);
  target.makeRequest = async (...args) => {
    try {
      return await makeRequest(...args);
    } catch (error) {
      const e = error as { code?: string; statusCode?: number };
      metrics.apiErrors.inc({ service: 'slack', code: e.statusCode ? String(e.statusCode) : (e.code ?? 'network') });
      throw error;
    }
  };
  target.buildResult = async (...args) => {
    const result = await buildResult(...args);
    if (result.ok === false) metrics.apiErrors.inc({ service: 'slack', code: result.error ?? 'unknown' });
    return result;
  };
  client.on(WebClientEvent.RATE_LIMITED, () => metrics.apiRetries.inc({ service: 'slack' }));
}

/** For clients with their own transport (pdjs): one failed call. */
export function countApiError(service: ApiService, metrics: Metrics, code: string | number): void {
  metrics.apiErrors.inc({ service, code: String(code) });
}

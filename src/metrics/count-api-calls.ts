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

/** Counts a Slack client's failed calls by Slack's error code and its rate-limited retries. */
export function countSlackCalls(client: WebClient, metrics: Metrics): void {
  const apiCall = client.apiCall.bind(client);
  client.apiCall = (async (...args: Parameters<typeof apiCall>) => {
    try {
      return await apiCall(...args);
    } catch (error) {
      const e = error as { data?: { error?: string }; code?: string };
      metrics.apiErrors.inc({ service: 'slack', code: e.data?.error ?? e.code ?? 'unknown' });
      throw error;
    }
  }) as typeof client.apiCall;
  client.on(WebClientEvent.RATE_LIMITED, () => metrics.apiRetries.inc({ service: 'slack' }));
}

/** For clients with their own transport (pdjs): one failed call. */
export function countApiError(service: ApiService, metrics: Metrics, code: string | number): void {
  metrics.apiErrors.inc({ service, code: String(code) });
}

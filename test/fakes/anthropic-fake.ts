import { PromptCache } from './anthropic/prompt-cache.js';
import { RateLimits, type RateLimitsOptions } from './anthropic/rate-limits.js';
import { ScriptPlayer } from './anthropic/script-player.js';
import { anthropicRequestHandler } from './anthropic/server.js';
import type { RecordedRequest, ScriptItem } from './anthropic/types.js';
import { listen } from './shared/http.js';
import { pollFor } from './shared/wait-for.js';

export { textResponse, toolUseResponse, errorResponse, toolUseId, type ToolCall } from './anthropic/builders.js';
export { errorBody } from './anthropic/error-body.js';
export { estimateTokens } from './anthropic/prompt-segments.js';
export type * from './anthropic/types.js';

export interface AnthropicFakeOptions {
  /** Accept only this key (x-api-key or Bearer); by default any non-empty key. */
  apiKey?: string;
  /** Check requests as the real API does (required fields, tool_use/tool_result pairing, <= 4 cache breakpoints). Default true. */
  validate?: boolean;
  /** Prompt prefixes shorter than this are not cached; default 0 (the real API: 1024+). */
  minCacheableTokens?: number;
  /**
   * Enforce the API's rate limits per model (token buckets refilled over `windowMs`, a minute by default): every answer
   * carries the `anthropic-ratelimit-*` headers, a request over a limit gets 429 with `retry-after`. Off by default.
   */
  rateLimits?: RateLimitsOptions;
}

export interface AnthropicFake {
  /** The SDK's `baseURL` / ANTHROPIC_BASE_URL. */
  url: string;
  /** Every POST /v1/messages in arrival order (headers and parsed body), including refused ones. */
  requests: RecordedRequest[];
  countTokenRequests: RecordedRequest[];
  /** Replaces the script and starts it from the beginning. */
  setScript(items: ScriptItem[]): void;
  push(...items: ScriptItem[]): void;
  /** Scripted replies not yet played. */
  remaining(): number;
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Forgets the simulated prompt cache. */
  clearCache(): void;
  /** Requests refused with 429 by `rateLimits`. */
  rateLimited(): number;
  stop(): Promise<void>;
}

export async function startAnthropicFake(script: ScriptItem[] = [], options: AnthropicFakeOptions = {}): Promise<AnthropicFake> {
  const player = new ScriptPlayer(script);
  const cache = new PromptCache({ minCacheableTokens: options.minCacheableTokens });
  const requests: RecordedRequest[] = [];
  const countTokenRequests: RecordedRequest[] = [];
  const rateLimits = options.rateLimits ? new RateLimits(options.rateLimits) : undefined;
  const server = await listen(
    anthropicRequestHandler({ player, cache, requests, countTokenRequests, apiKey: options.apiKey, validate: options.validate ?? true, rateLimits }),
    'anthropic-fake',
  );
  return {
    url: server.url,
    requests,
    countTokenRequests,
    setScript: (items) => player.set(items),
    push: (...items) => player.push(...items),
    remaining: () => player.remaining,
    waitForRequests: (count, timeoutMs = 5000) =>
      pollFor(
        () => (requests.length >= count ? requests.slice(0, count) : undefined),
        timeoutMs,
        () => `expected ${count} model request(s), got ${requests.length}`,
      ),
    clearCache: () => cache.clear(),
    rateLimited: () => rateLimits?.refused ?? 0,
    stop: () => server.close(),
  };
}

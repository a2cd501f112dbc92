/**
 * The Messages API's rate limits as Anthropic documents them: token buckets per organization and model for requests,
 * input tokens (uncached input and cache writes; cache reads are free) and output tokens (estimated from `max_tokens`
 * when the request arrives, adjusted to the real output at the end), refilled continuously up to the limit over the
 * window (a minute; shorter in tests). Every answer carries `anthropic-ratelimit-{requests,input-tokens,output-tokens}-
 * {limit,remaining,reset}` (reset: RFC 3339 time the bucket is full again); a request over a limit is refused with 429
 * `rate_limit_error` and `retry-after` in whole seconds.
 */
export interface RateLimitsOptions {
  requests?: number;
  inputTokens?: number;
  outputTokens?: number;
  /** Default 60,000. */
  windowMs?: number;
}

type Dimension = 'requests' | 'input-tokens' | 'output-tokens';

class Bucket {
  private level: number;
  private at = Date.now();
  constructor(
    readonly limit: number,
    private readonly windowMs: number,
  ) {
    this.level = limit;
  }
  available(now = Date.now()): number {
    this.level = Math.min(this.limit, this.level + ((now - this.at) * this.limit) / this.windowMs);
    this.at = now;
    return this.level;
  }
  take(amount: number): void {
    this.available();
    this.level -= amount;
  }
  msUntil(amount: number): number {
    return Math.max(0, ((Math.min(amount, this.limit) - this.available()) * this.windowMs) / this.limit);
  }
  resetAt(): string {
    return new Date(Date.now() + this.msUntil(this.limit)).toISOString();
  }
}

export class RateLimits {
  private readonly buckets = new Map<string, Map<Dimension, Bucket>>();
  /** How many requests were refused with 429. */
  refused = 0;

  constructor(private readonly options: RateLimitsOptions) {}

  private of(model: string): Map<Dimension, Bucket> {
    let buckets = this.buckets.get(model);
    if (!buckets) {
      const windowMs = this.options.windowMs ?? 60_000;
      buckets = new Map();
      if (this.options.requests) buckets.set('requests', new Bucket(this.options.requests, windowMs));
      if (this.options.inputTokens) buckets.set('input-tokens', new Bucket(this.options.inputTokens, windowMs));
      if (this.options.outputTokens) buckets.set('output-tokens', new Bucket(this.options.outputTokens, windowMs));
      this.buckets.set(model, buckets);
    }
    return buckets;
  }

  /** Takes a request's share, or says how long until it would fit (ms). */
  admit(model: string, need: { inputTokens: number; maxTokens: number }): { ok: true } | { ok: false; retryAfterMs: number; dimension: Dimension } {
    const buckets = this.of(model);
    const amounts: Record<Dimension, number> = { requests: 1, 'input-tokens': need.inputTokens, 'output-tokens': need.maxTokens };
    for (const [dimension, bucket] of buckets) {
      const wait = bucket.msUntil(amounts[dimension]);
      if (bucket.available() < Math.min(amounts[dimension], bucket.limit)) {
        this.refused += 1;
        return { ok: false, retryAfterMs: Math.max(1, wait), dimension };
      }
    }
    for (const [dimension, bucket] of buckets) bucket.take(amounts[dimension]);
    return { ok: true };
  }

  /** Gives back the output estimated from max_tokens that was not used. */
  adjustOutput(model: string, maxTokens: number, used: number): void {
    this.of(model)
      .get('output-tokens')
      ?.take(used - maxTokens);
  }

  headers(model: string): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [dimension, bucket] of this.of(model)) {
      headers[`anthropic-ratelimit-${dimension}-limit`] = String(bucket.limit);
      headers[`anthropic-ratelimit-${dimension}-remaining`] = String(Math.max(0, Math.floor(bucket.available())));
      headers[`anthropic-ratelimit-${dimension}-reset`] = bucket.resetAt();
    }
    return headers;
  }
}

import type { SlackFailure } from './types.js';

interface Outage<F> {
  failure: F;
  /** The methods that fail; undefined: every method. */
  methods?: string[];
  /** Ends by itself at this time (ms since the epoch); undefined: until `recover()`. */
  until?: number;
}

/**
 * Failures per method: queued ones, each used once and in order, and outages ("fail for a while, then
 * recover") that answer every matching call with the same failure until they end.
 */
export class FailureQueue<F> {
  private readonly queued = new Map<string, F[]>();
  private outages: Outage<F>[] = [];

  push(key: string, failure: F, times = 1): void {
    const list = this.queued.get(key) ?? [];
    for (let i = 0; i < times; i += 1) list.push(failure);
    this.queued.set(key, list);
  }

  /** Every call to `methods` (default: all) fails with `failure` until `recover()` or for `forMs`. */
  startOutage(failure: F, options: { methods?: string[]; forMs?: number } = {}): void {
    this.outages.push({ failure, methods: options.methods, until: options.forMs === undefined ? undefined : Date.now() + options.forMs });
  }

  /** Ends every outage. */
  recover(): void {
    this.outages = [];
  }

  take(key: string): F | undefined {
    const queued = this.queued.get(key)?.shift();
    if (queued) return queued;
    this.outages = this.outages.filter((o) => o.until === undefined || o.until > Date.now());
    return this.outages.find((o) => !o.methods || o.methods.includes(key))?.failure;
  }

  clear(): void {
    this.queued.clear();
    this.outages = [];
  }
}

export type SlackFailureQueue = FailureQueue<SlackFailure>;

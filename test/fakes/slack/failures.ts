import type { SlackFailure } from './types.js';

/** Failures queued per method, each used once, in order. */
export class FailureQueue<F> {
  private readonly queued = new Map<string, F[]>();

  push(key: string, failure: F, times = 1): void {
    const list = this.queued.get(key) ?? [];
    for (let i = 0; i < times; i += 1) list.push(failure);
    this.queued.set(key, list);
  }

  take(key: string): F | undefined {
    return this.queued.get(key)?.shift();
  }

  clear(): void {
    this.queued.clear();
  }
}

export type SlackFailureQueue = FailureQueue<SlackFailure>;

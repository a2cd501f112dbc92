import type { PatternFailures } from '../shared/pattern-failures.js';

export { PatternFailures, type FailurePattern } from '../shared/pattern-failures.js';

export interface GitHubFailure {
  status: 403 | 429 | 500 | 502 | 503 | number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type GitHubFailures = PatternFailures<GitHubFailure>;

/** What GitHub sends for each kind of failure unless the test says otherwise. */
export function failureResponse(failure: GitHubFailure): { body: unknown; headers: Record<string, string> } {
  const now = Math.floor(Date.now() / 1000);
  // A 403 with a body of its own is another refusal (a missing permission: see permissions.ts), not a rate limit.
  if (failure.status === 403 && failure.body === undefined) {
    return {
      body: {
        message: 'API rate limit exceeded for user ID 1.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
        status: '403',
      },
      headers: {
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-used': '5000',
        'x-ratelimit-reset': String(now + 1),
        'x-ratelimit-resource': 'core',
        ...failure.headers,
      },
    };
  }
  if (failure.status === 429) {
    return {
      body: failure.body ?? {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: '429',
      },
      headers: { 'retry-after': '1', ...failure.headers },
    };
  }
  return { body: failure.body ?? { message: 'Server Error', status: String(failure.status) }, headers: { ...failure.headers } };
}

/** A request held on its way through the fake (`GitHubFake.holdNext`). */
export interface HeldRequest {
  /** `before`: held before GitHub acts on it; `after`: it acted, and only its answer is held. */
  when: 'before' | 'after';
  /** Resolves once a matching request has arrived and is being held. */
  reached: Promise<void>;
  release(): void;
}

/** A hold as the server sees it: it says the request arrived, then waits for the release. */
export interface RequestHold {
  when: HeldRequest['when'];
  arrived(): void;
  released: Promise<void>;
}

export function requestHold(when: HeldRequest['when']): { held: HeldRequest; hold: RequestHold } {
  let arrived = () => {};
  let release = () => {};
  const reached = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held: { when, reached, release }, hold: { when, arrived, released } };
}

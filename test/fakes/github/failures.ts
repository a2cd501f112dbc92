export interface GitHubFailure {
  status: 403 | 429 | 500 | 502 | 503 | number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type FailurePattern = string | RegExp;

interface Queued {
  pattern: FailurePattern;
  failure: GitHubFailure;
}

/**
 * Failures for requests whose `"METHOD /path"` matches: a RegExp, or a string that is either
 * `"METHOD /path"` or just a path (exact, or a prefix ending in `*`). Each is used once.
 */
export class GitHubFailures {
  private readonly queued: Queued[] = [];

  add(pattern: FailurePattern, failure: GitHubFailure, times = 1): void {
    for (let i = 0; i < times; i += 1) this.queued.push({ pattern, failure });
  }

  take(method: string, path: string): GitHubFailure | undefined {
    const index = this.queued.findIndex(({ pattern }) => matches(pattern, method, path));
    if (index < 0) return undefined;
    return this.queued.splice(index, 1)[0].failure;
  }

  clear(): void {
    this.queued.length = 0;
  }
}

function matches(pattern: FailurePattern, method: string, path: string): boolean {
  const line = `${method} ${path}`;
  if (pattern instanceof RegExp) return pattern.test(line);
  const target = pattern.includes(' ') ? line : path;
  return pattern.endsWith('*') ? target.startsWith(pattern.slice(0, -1)) : target === pattern;
}

/** What GitHub sends for each kind of failure unless the test says otherwise. */
export function failureResponse(failure: GitHubFailure): { body: unknown; headers: Record<string, string> } {
  const now = Math.floor(Date.now() / 1000);
  if (failure.status === 403) {
    return {
      body: failure.body ?? { message: 'API rate limit exceeded for user ID 1.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api', status: '403' },
      headers: { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-used': '5000', 'x-ratelimit-reset': String(now + 1), 'x-ratelimit-resource': 'core', ...failure.headers },
    };
  }
  if (failure.status === 429) {
    return {
      body: failure.body ?? { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits', status: '429' },
      headers: { 'retry-after': '1', ...failure.headers },
    };
  }
  return { body: failure.body ?? { message: 'Server Error', status: String(failure.status) }, headers: { ...failure.headers } };
}

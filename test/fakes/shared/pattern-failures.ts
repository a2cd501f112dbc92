export type FailurePattern = string | RegExp;

/**
 * Failures for requests whose `"METHOD /path"` matches: a RegExp, or a string that is either
 * `"METHOD /path"` or just a path (exact, or a prefix ending in `*`). Each queued failure is used once.
 */
export class PatternFailures<F> {
  private readonly queued: { pattern: FailurePattern; failure: F }[] = [];

  add(pattern: FailurePattern, failure: F, times = 1): void {
    for (let i = 0; i < times; i += 1) this.queued.push({ pattern, failure });
  }

  take(method: string, path: string): F | undefined {
    const index = this.queued.findIndex(({ pattern }) => matches(pattern, method, path));
    if (index < 0) return undefined;
    return this.queued.splice(index, 1)[0]!.failure;
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

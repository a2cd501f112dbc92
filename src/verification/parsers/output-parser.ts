import type { TestSummary } from '../verification-types.js';

/** Reads one runner's output (colour codes already removed, split into lines); undefined when not its format. */
export type OutputParser = (lines: readonly string[]) => TestSummary | undefined;

/** "2 failed | 10 passed | 1 skipped" or "1 failed, 2 passed": the number before each word. */
export function countWords(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [, count, word = ''] of text.matchAll(/(\d+) ([a-z]+)/gi)) counts[word.toLowerCase()] = (counts[word.toLowerCase()] ?? 0) + Number(count);
  return counts;
}

/** Adds up the given words, or undefined when none of them appears. */
export function sumOf(counts: Record<string, number>, ...words: string[]): number | undefined {
  const present = words.filter((word) => counts[word] !== undefined);
  return present.length ? present.reduce((total, word) => total + (counts[word] ?? 0), 0) : undefined;
}

/** A test's display name without a trailing duration such as "12ms", "(3 ms)" or "(0.5ms)". */
export function withoutDuration(name: string): string {
  return name.replace(/\s+\(?\d+(?:\.\d+)?\s?m?s\)?$/, '').trim();
}

export function unique(names: readonly string[]): string[] {
  return [...new Set(names.filter((name) => name.length > 0))];
}

import type { TestSummary } from '../verification-types.js';
import { countWords } from './output-parser.js';

/** A closing line of counts only, e.g. "1 passed, 1 failed" or "Tests: 3 passed; 0 failed; 1 skipped." */
const COUNTS_LINE =
  /^(?:[a-z ]+:\s*)?(\d+ (?:passed|passing|failed|failing|skipped|pending)(?:[,;|]?\s+\d+ (?:passed|passing|failed|failing|skipped|pending))*)\.?$/i;

/** Any runner whose output ends (last non-empty lines) with a plain count line: the counts, no names. */
export function parsePlainCounts(lines: readonly string[]): TestSummary | undefined {
  const lastLines = lines
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .slice(-3);
  const match = lastLines.map((line) => COUNTS_LINE.exec(line)?.[1]).findLast((text) => text !== undefined);
  if (match === undefined) return undefined;
  const counts = countWords(match);
  return {
    runner: 'plain',
    passed: (counts.passed ?? 0) + (counts.passing ?? 0),
    failed: (counts.failed ?? 0) + (counts.failing ?? 0),
    skipped: (counts.skipped ?? 0) + (counts.pending ?? 0),
    failedTests: [],
  };
}

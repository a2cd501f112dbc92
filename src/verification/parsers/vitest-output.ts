import type { TestSummary } from '../verification-types.js';
import { countWords, unique, withoutDuration } from './output-parser.js';

const SUMMARY = /^\s*Tests\s+((?:\d+ [a-z]+(?: \| )?)+)\s*\(\d+\)\s*$/;
const FAIL = /^\s*FAIL\s+(.+?)\s*$/;
const CROSS = /^\s*[×✗]\s+(.+)$/;

/** Vitest: "Tests  2 failed | 10 passed (12)" and "FAIL  file > suite > name". */
export function parseVitest(lines: readonly string[]): TestSummary | undefined {
  const summary = lines.map((line) => SUMMARY.exec(line)?.[1]).findLast((text) => text !== undefined);
  if (summary === undefined) return undefined;
  const counts = countWords(summary);
  const fails = lines.flatMap((line) => FAIL.exec(line)?.[1] ?? []).map((name) => name.replace(/\s*\[ .+ \]$/, ''));
  const crosses = lines.flatMap((line) => CROSS.exec(line)?.[1] ?? []).map(withoutDuration);
  return {
    runner: 'vitest',
    passed: counts.passed ?? 0,
    failed: counts.failed ?? 0,
    skipped: (counts.skipped ?? 0) + (counts.todo ?? 0),
    failedTests: unique(fails.length ? fails : crosses),
  };
}

import type { TestSummary } from '../verification-types.js';
import { countWords, sumOf, unique } from './output-parser.js';

const SUMMARY = /^=*\s*((?:\d+ [a-z]+(?:, )?)+|no tests ran) in \d+(?:\.\d+)?s\b.*?=*\s*$/;
const SHORT = /^(?:FAILED|ERROR) (\S+?(?:\[.*?\])?)(?: - .*)?$/;
const VERBOSE = /^(\S+::\S.*?) (?:FAILED|ERROR)(?:\s+\[\s*\d+%\])?\s*$/;
const COUNT_WORDS = /^\d+ (failed|passed|skipped|errors?|xfailed|xpassed|warnings?|deselected|rerun)$/;

/** pytest: "=== 2 failed, 5 passed in 0.12s ===" (bare with -q) and "FAILED tests/test_x.py::test_name - ...". */
export function parsePytest(lines: readonly string[]): TestSummary | undefined {
  const summary = lines.map((line) => SUMMARY.exec(line)?.[1]).findLast((text) => text !== undefined && isPytestCounts(text));
  if (summary === undefined) return undefined;
  const counts = countWords(summary);
  const names = lines.flatMap((line) => SHORT.exec(line)?.[1] ?? VERBOSE.exec(line)?.[1] ?? []);
  return {
    runner: 'pytest',
    passed: counts.passed ?? 0,
    failed: sumOf(counts, 'failed', 'error', 'errors') ?? 0,
    skipped: counts.skipped ?? 0,
    failedTests: unique(names),
  };
}

function isPytestCounts(text: string): boolean {
  return text === 'no tests ran' || text.split(', ').every((part) => COUNT_WORDS.test(part));
}

import type { TestSummary } from '../verification-types.js';
import { unique } from './output-parser.js';

const PASSING = /^\s*(\d+) passing\b/;
const FAILING = /^\s*(\d+) failing\s*$/;
const PENDING = /^\s*(\d+) pending\s*$/;
const FAILURE_START = /^\s*\d+\) (.*)$/;
const MAX_TITLE_LINES = 12;

/**
 * Mocha: "N passing (5ms)", "N failing", "N pending", then each failure as "1) suite" with the nested
 * titles on the following lines, the last one ending in ":". Names are joined "suite > test".
 */
export function parseMocha(lines: readonly string[]): TestSummary | undefined {
  const passing = lines.map((line) => PASSING.exec(line)?.[1]).findLast((count) => count !== undefined);
  const failingAt = lines.findLastIndex((line) => FAILING.test(line));
  const failing = FAILING.exec(lines[failingAt] ?? '')?.[1];
  if (passing === undefined && failing === undefined) return undefined;
  const pending = lines.map((line) => PENDING.exec(line)?.[1]).findLast((count) => count !== undefined);
  return {
    runner: 'mocha',
    passed: passing === undefined ? 0 : Number(passing),
    failed: failing === undefined ? 0 : Number(failing),
    skipped: pending === undefined ? 0 : Number(pending),
    failedTests: failing === undefined ? [] : unique(failureTitles(lines.slice(failingAt + 1))),
  };
}

function failureTitles(lines: readonly string[]): string[] {
  const titles: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = FAILURE_START.exec(lines[i] ?? '')?.[1];
    if (first === undefined) continue;
    const parts: string[] = [];
    let last = first.trim();
    let j = i;
    while (!last.endsWith(':') && j + 1 < lines.length && j - i < MAX_TITLE_LINES) {
      parts.push(last);
      j++;
      last = (lines[j] ?? '').trim();
    }
    if (!last.endsWith(':')) continue;
    parts.push(last.slice(0, -1));
    titles.push(parts.filter(Boolean).join(' > '));
    i = j;
  }
  return titles;
}

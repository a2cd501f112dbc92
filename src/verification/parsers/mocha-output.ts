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
  const passingAt = lines.findLastIndex((line) => PASSING.test(line));
  const failingAt = lines.findLastIndex((line) => FAILING.test(line));
  if (passingAt < 0 && failingAt < 0) return undefined;
  const pending = lines.map((line) => PENDING.exec(line)).findLast(Boolean);
  return {
    runner: 'mocha',
    passed: passingAt < 0 ? 0 : Number(PASSING.exec(lines[passingAt])![1]),
    failed: failingAt < 0 ? 0 : Number(FAILING.exec(lines[failingAt])![1]),
    skipped: pending ? Number(pending[1]) : 0,
    failedTests: failingAt < 0 ? [] : unique(failureTitles(lines.slice(failingAt + 1))),
  };
}

function failureTitles(lines: readonly string[]): string[] {
  const titles: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = FAILURE_START.exec(lines[i])?.[1];
    if (first === undefined) continue;
    const parts = [first.trim()];
    let j = i;
    while (!parts[parts.length - 1].endsWith(':') && j + 1 < lines.length && j - i < MAX_TITLE_LINES) {
      j++;
      parts.push(lines[j].trim());
    }
    if (!parts[parts.length - 1].endsWith(':')) continue;
    parts[parts.length - 1] = parts[parts.length - 1].slice(0, -1);
    titles.push(parts.filter(Boolean).join(' > '));
    i = j;
  }
  return titles;
}

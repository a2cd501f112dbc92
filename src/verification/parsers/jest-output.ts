import type { TestSummary } from '../verification-types.js';
import { countWords, unique, withoutDuration } from './output-parser.js';

const SUMMARY = /^\s*Tests:\s+(.*\d+ total)\s*$/;
const FILE = /^\s*(?:FAIL|PASS)\s+(\S+)/;
const BULLET = /^\s*● (.+?)\s*$/;
const CROSS = /^\s*✕\s+(.+)$/;
const NOT_A_TEST = /^(Validation (Warning|Error)|Deprecation Warning|Multiple configurations found)/;

/** Jest: "Tests: 1 failed, 2 passed, 3 total" and "● suite › name". */
export function parseJest(lines: readonly string[]): TestSummary | undefined {
  const summary = lines.map((line) => SUMMARY.exec(line)?.[1]).findLast((text) => text !== undefined);
  if (summary === undefined) return undefined;
  const counts = countWords(summary);
  const bullets: string[] = [];
  let file = '';
  for (const line of lines) {
    file = FILE.exec(line)?.[1] ?? file;
    const name = BULLET.exec(line)?.[1];
    if (!name || NOT_A_TEST.test(name)) continue;
    bullets.push(name === 'Test suite failed to run' ? file || name : name);
  }
  const crosses = lines.flatMap((line) => CROSS.exec(line)?.[1] ?? []).map(withoutDuration);
  return {
    runner: 'jest',
    passed: counts.passed ?? 0,
    failed: counts.failed ?? 0,
    skipped: (counts.skipped ?? 0) + (counts.todo ?? 0) + (counts.pending ?? 0),
    failedTests: unique(bullets.length ? bullets : crosses),
  };
}

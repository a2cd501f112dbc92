import type { TestSummary } from '../verification-types.js';
import { unique } from './output-parser.js';

const TOTAL = /^\s*Total:\s+(\d+)\s*$/;
const PASSED = /^\s*Passed:\s+(\d+)\s*$/;
const SKIPPED = /^\s*Skipped:\s+(\d+)\s*$/;
const FAILURE = /^\s*FAIL\s+(?:(\S+)\s+)?"(.+)"\s*$/;

/**
 * uvu: "Total: N", "Passed: N", "Skipped: N" after the run, each failure as `FAIL  "test"` (or `FAIL  suite  "test"`).
 * Several files run one after another add up.
 */
export function parseUvu(lines: readonly string[]): TestSummary | undefined {
  let total: number | undefined;
  let passed = 0;
  let skipped = 0;
  for (const [i, line] of lines.entries()) {
    const found = TOTAL.exec(line);
    const pass = found && PASSED.exec(lines[i + 1] ?? '');
    if (!found || !pass) continue;
    total = (total ?? 0) + Number(found[1]);
    passed += Number(pass[1]);
    skipped += Number(SKIPPED.exec(lines[i + 2] ?? '')?.[1] ?? 0);
  }
  if (total === undefined) return undefined;
  const failedTests = unique(
    lines.flatMap((line) => {
      const [, suite, test] = FAILURE.exec(line) ?? [];
      if (test === undefined) return [];
      return suite ? `${suite} > ${test}` : test;
    }),
  );
  return { runner: 'uvu', passed, failed: Math.max(0, total - passed - skipped), skipped, failedTests };
}

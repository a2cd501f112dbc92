import type { TestSummary } from '../verification-types.js';
import { unique } from './output-parser.js';

const RESULT = /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored/;
const FAILED_TEST = /^test (.+?) \.\.\. FAILED\s*$/;

/** cargo test: one "test result: FAILED. 3 passed; 1 failed; ..." per test binary, "test mod::name ... FAILED". */
export function parseCargoTest(lines: readonly string[]): TestSummary | undefined {
  const results = lines.map((line) => RESULT.exec(line)).filter((match) => match !== null);
  if (!results.length) return undefined;
  const total = (group: number) => results.reduce((sum, match) => sum + Number(match[group]), 0);
  return {
    runner: 'cargo',
    passed: total(1),
    failed: total(2),
    skipped: total(3),
    failedTests: unique(lines.flatMap((line) => FAILED_TEST.exec(line)?.[1] ?? [])),
  };
}

import { parseCargoTest } from './parsers/cargo-test-output.js';
import { parseGoTest } from './parsers/go-test-output.js';
import { parseJest } from './parsers/jest-output.js';
import { parseMocha } from './parsers/mocha-output.js';
import { parseNodeSpec } from './parsers/node-spec-output.js';
import type { OutputParser } from './parsers/output-parser.js';
import { parsePlainCounts } from './parsers/plain-counts-output.js';
import { parsePytest } from './parsers/pytest-output.js';
import { parseTap } from './parsers/tap-output.js';
import { parseUvu } from './parsers/uvu-output.js';
import { parseVitest } from './parsers/vitest-output.js';
import { stripAnsi } from './strip-ansi.js';
import type { TestSummary } from './verification-types.js';

/** Most distinctive formats first (a plain closing count line last): the first parser that recognises the output wins. */
const PARSERS: readonly OutputParser[] = [
  parseVitest,
  parseJest,
  parseCargoTest,
  parsePytest,
  parseNodeSpec,
  parseMocha,
  parseUvu,
  parseTap,
  parseGoTest,
  parsePlainCounts,
];

/**
 * Counts and failing test names from a test command's output. An unknown format gives no counts and no
 * names: the exit code alone then decides.
 */
export function parseTestOutput(output: string, exitCode: number | null): TestSummary {
  const lines = stripAnsi(output).split('\n');
  for (const parse of PARSERS) {
    const summary = parse(lines);
    if (!summary) continue;
    if (summary.failed === undefined && exitCode === 0) summary.failed = 0;
    return summary;
  }
  return { failedTests: [] };
}

import type { TestSummary } from '../verification-types.js';
import { unique, withoutDuration } from './output-parser.js';

const TOTAL = /^ℹ (tests|pass|fail|cancelled|skipped|todo) (\d+)\s*$/;
const LINE = /^(\s*)([▶✔✖﹣])\s+(.+?)\s*$/;
const FAILING_SECTION = /^✖ failing tests:/;

interface OpenSuite {
  indent: number;
  name: string;
  failedInside: boolean;
}

/**
 * node:test's spec reporter: "✔ name (1ms)", "✖ name (2ms)", suites opened with "▶ name" and closed at the
 * same indentation, totals as "ℹ pass N". Failing names are the leaves, joined "suite > test".
 */
export function parseNodeSpec(lines: readonly string[]): TestSummary | undefined {
  const totals: Record<string, number> = {};
  for (const line of lines) {
    const [, word, count] = TOTAL.exec(line) ?? [];
    if (word !== undefined) totals[word] = Number(count);
  }
  if (totals.pass === undefined && totals.fail === undefined) return undefined;
  return {
    runner: 'node-test',
    passed: totals.pass ?? 0,
    failed: (totals.fail ?? 0) + (totals.cancelled ?? 0),
    skipped: (totals.skipped ?? 0) + (totals.todo ?? 0),
    failedTests: unique(failingNames(lines)),
  };
}

function failingNames(lines: readonly string[]): string[] {
  const names: string[] = [];
  const open: OpenSuite[] = [];
  const record = (name: string) => {
    names.push([...open.map((suite) => suite.name), name].join(' > '));
    for (const suite of open) suite.failedInside = true;
  };
  for (const line of lines) {
    if (FAILING_SECTION.test(line)) break;
    const match = LINE.exec(line);
    if (!match) continue;
    const [, leading = '', mark, text = ''] = match;
    const indent = leading.length;
    const directive = /\s# (SKIP|TODO)\b/.test(text);
    const name = withoutDuration(text.replace(/\s+# (SKIP|TODO)\b.*$/, ''));
    closeWhile(open, (suite) => suite.indent > indent);
    const top = open.at(-1);
    if (top !== undefined && top.indent === indent && top.name === name) {
      open.pop();
      if (mark === '✖' && !top.failedInside) record(name);
      continue;
    }
    closeWhile(open, (suite) => suite.indent >= indent);
    if (mark === '▶') open.push({ indent, name, failedInside: false });
    else if (mark === '✖' && !directive) record(name);
  }
  return names;
}

function closeWhile(open: OpenSuite[], closes: (suite: OpenSuite) => boolean): void {
  for (let top = open.at(-1); top !== undefined && closes(top); top = open.at(-1)) open.pop();
}

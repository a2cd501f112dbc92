import { stripAnsi } from './strip-ansi.js';

export interface CoverageTotal {
  /** 0–100. */
  percent: number;
  /** What was measured: lines, statements. */
  metric: 'lines' | 'statements';
  /** The tool whose output it was read from. */
  tool: 'istanbul' | 'node-test' | 'pytest-cov' | 'go' | 'tarpaulin' | 'coverage.py';
}

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;

/**
 * The total coverage a coverage command printed: istanbul's text and text-summary reporters (c8, nyc, jest,
 * vitest), `node --test --experimental-test-coverage`, pytest-cov / coverage.py, `go test -cover` and
 * `go tool cover -func`, cargo tarpaulin. Lines when the tool reports them, else statements.
 */
export function parseCoverage(rawOutput: string): CoverageTotal | undefined {
  const output = stripAnsi(rawOutput).replace(/\r/g, '');
  return nodeTest(output) ?? istanbulTable(output) ?? istanbulSummary(output) ?? pythonTotal(output) ?? goTotal(output) ?? tarpaulin(output);
}

/**
 * `# all files | 80.00 | 50.00 | 66.67 |` under `# file | line % | branch % | funcs % | uncovered lines`: the TAP
 * reporter's comments (Node 20's default without a TTY), or `ℹ all files | ...` from the spec reporter (Node 22+).
 */
function nodeTest(output: string): CoverageTotal | undefined {
  const match = new RegExp(String.raw`^(?:#|ℹ)?\s*all files\s*\|\s*${NUMBER}\s*\|`, 'mi').exec(output);
  if (!match || !/line %/i.test(output)) return undefined;
  return { percent: Number(match[1]), metric: 'lines', tool: 'node-test' };
}

/** `All files |   85.71 |   66.67 |   100 |   85.71 |` under `File | % Stmts | % Branch | % Funcs | % Lines |`. */
function istanbulTable(output: string): CoverageTotal | undefined {
  const lines = output.split('\n');
  const index = lines.findLastIndex((line) => /^\s*All files\s*\|/i.test(line));
  const totals = lines[index];
  if (totals === undefined) return undefined;
  const values = totals
    .split('|')
    .slice(1)
    .map((cell) => cell.trim());
  const header = lines
    .slice(0, index)
    .reverse()
    .find((line) => /%\s*Stmts|%\s*Lines/i.test(line));
  const columns =
    header
      ?.split('|')
      .slice(1)
      .map((cell) => cell.trim().toLowerCase()) ?? [];
  const linesColumn = columns.findIndex((c) => c.includes('% lines'));
  const statementsColumn = columns.findIndex((c) => c.includes('% stmts'));
  const pick = (column: number) => (column >= 0 && /^\d+(?:\.\d+)?$/.test(values[column] ?? '') ? Number(values[column]) : undefined);
  const linesValue = pick(linesColumn);
  if (linesValue !== undefined) return { percent: linesValue, metric: 'lines', tool: 'istanbul' };
  const statements = pick(statementsColumn) ?? pick(0);
  return statements !== undefined ? { percent: statements, metric: 'statements', tool: 'istanbul' } : undefined;
}

/** `Lines        : 85.71% ( 6/7 )` and `Statements   : 85.71% ( 6/7 )` (text-summary). */
function istanbulSummary(output: string): CoverageTotal | undefined {
  const lines = new RegExp(String.raw`^\s*Lines\s*:\s*${NUMBER}%`, 'mi').exec(output);
  if (lines) return { percent: Number(lines[1]), metric: 'lines', tool: 'istanbul' };
  const statements = new RegExp(String.raw`^\s*Statements\s*:\s*${NUMBER}%`, 'mi').exec(output);
  return statements ? { percent: Number(statements[1]), metric: 'statements', tool: 'istanbul' } : undefined;
}

/** `TOTAL    120     30    75%` (pytest-cov, `coverage report`). */
function pythonTotal(output: string): CoverageTotal | undefined {
  const match = [...output.matchAll(new RegExp(String.raw`^TOTAL\s+(?:\d+\s+)+${NUMBER}%\s*$`, 'gm'))].at(-1);
  if (!match) return undefined;
  return { percent: Number(match[1]), metric: 'statements', tool: /pytest|cov-report|coverage:/i.test(output) ? 'pytest-cov' : 'coverage.py' };
}

/** `total: (statements) 75.0%` from `go tool cover -func`, else `coverage: 75.0% of statements` per package (their mean). */
function goTotal(output: string): CoverageTotal | undefined {
  const total = new RegExp(String.raw`^total:\s+\(statements\)\s+${NUMBER}%`, 'mi').exec(output);
  if (total) return { percent: Number(total[1]), metric: 'statements', tool: 'go' };
  const packages = [...output.matchAll(new RegExp(String.raw`coverage:\s+${NUMBER}% of statements`, 'g'))].map((m) => Number(m[1]));
  if (packages.length === 0) return undefined;
  const mean = packages.reduce((sum, value) => sum + value, 0) / packages.length;
  return { percent: Math.round(mean * 100) / 100, metric: 'statements', tool: 'go' };
}

/** `75.00% coverage, 30/40 lines covered` (cargo tarpaulin). */
function tarpaulin(output: string): CoverageTotal | undefined {
  const match = new RegExp(String.raw`${NUMBER}% coverage, \d+/\d+ lines covered`).exec(output);
  return match ? { percent: Number(match[1]), metric: 'lines', tool: 'tarpaulin' } : undefined;
}

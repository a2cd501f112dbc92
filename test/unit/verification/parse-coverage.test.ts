import { describe, expect, it } from 'vitest';
import { parseCoverage } from '../../../src/verification/parse-coverage.js';
import { renderCoverageChange } from '../../../src/verification/render-coverage.js';

const NODE_TEST = `# pass 1
# start of coverage report
# ---------------------------------------------------------------
# file           | line % | branch % | funcs % | uncovered lines
# ---------------------------------------------------------------
# src/m.js       |  75.00 |    66.67 |   50.00 | 2
# test/m.test.js | 100.00 |   100.00 |  100.00 |
# ---------------------------------------------------------------
# all files      |  87.50 |    80.00 |   66.67 |
# ---------------------------------------------------------------
# end of coverage report`;

/** Node 22+ prints the spec reporter's lines without a TTY too. */
const NODE_TEST_SPEC = `ℹ tests 1
ℹ start of coverage report
ℹ ----------------------------------------------------------
ℹ file      | line % | branch % | funcs % | uncovered lines
ℹ ----------------------------------------------------------
ℹ lib.js    |  90.00 |   100.00 |   50.00 | 3
ℹ ----------------------------------------------------------
ℹ all files |  90.00 |   100.00 |   50.00 |
ℹ ----------------------------------------------------------
ℹ end of coverage report`;

const ISTANBUL = `----------|---------|----------|---------|---------|-------------------
File      | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s
----------|---------|----------|---------|---------|-------------------
All files |   85.71 |    66.67 |     100 |   83.33 |
 cart.js  |   85.71 |    66.67 |     100 |   83.33 | 12
----------|---------|----------|---------|---------|-------------------`;

describe('parseCoverage', () => {
  it('reads node --test --experimental-test-coverage', () => {
    expect(parseCoverage(NODE_TEST)).toEqual({ percent: 87.5, metric: 'lines', tool: 'node-test' });
  });

  it('reads the spec reporter of Node 22 and later', () => {
    expect(parseCoverage(NODE_TEST_SPEC)).toEqual({ percent: 90, metric: 'lines', tool: 'node-test' });
  });

  it('reads the istanbul table of c8, nyc, jest and vitest (the lines column), with colours', () => {
    expect(parseCoverage(`\u001b[32m${ISTANBUL}\u001b[0m`)).toEqual({ percent: 83.33, metric: 'lines', tool: 'istanbul' });
  });

  it('reads istanbul text-summary', () => {
    expect(parseCoverage('=== Coverage summary ===\nStatements   : 90.5% ( 19/21 )\nBranches     : 50% ( 1/2 )\nLines        : 88.24% ( 15/17 )')).toEqual({
      percent: 88.24,
      metric: 'lines',
      tool: 'istanbul',
    });
  });

  it('reads pytest-cov and coverage.py totals', () => {
    const out =
      '---------- coverage: platform linux, python 3.11.2 -----------\nName      Stmts   Miss  Cover\n-------------------------------\napp.py       20      5    75%\n-------------------------------\nTOTAL        20      5    75%\n';
    expect(parseCoverage(out)).toEqual({ percent: 75, metric: 'statements', tool: 'pytest-cov' });
    expect(parseCoverage('Name Stmts Miss Branch BrPart Cover\nTOTAL 120 30 40 5 72%')?.percent).toBe(72);
  });

  it('reads go test -cover (the mean of packages) and go tool cover -func (the total)', () => {
    expect(parseCoverage('ok  \tacme/a\t0.01s\tcoverage: 80.0% of statements\nok  \tacme/b\t0.01s\tcoverage: 60.0% of statements')?.percent).toBe(70);
    expect(parseCoverage('acme/a/a.go:3:\tF\t100.0%\ntotal:\t\t\t(statements)\t66.7%')).toEqual({ percent: 66.7, metric: 'statements', tool: 'go' });
  });

  it('reads cargo tarpaulin, and nothing from output without a total', () => {
    expect(parseCoverage('|| Tested/Total Lines:\n75.00% coverage, 30/40 lines covered')?.percent).toBe(75);
    expect(parseCoverage('# pass 3\n# fail 0')).toBeUndefined();
  });
});

describe('renderCoverageChange', () => {
  const m = (percent?: number, passed = true) => ({
    command: 'npm run coverage',
    passed,
    total: percent === undefined ? undefined : { percent, metric: 'lines' as const, tool: 'node-test' as const },
  });

  it('shows before → after with the change in points', () => {
    expect(renderCoverageChange(m(62.5), m(81.25))).toBe('`npm run coverage`: lines 62.5% before → 81.25% after (+18.75 points).');
    expect(renderCoverageChange(m(80), m(80))).toBe('`npm run coverage`: lines 80% before → 80% after (unchanged).');
  });

  it('says what could not be measured', () => {
    expect(renderCoverageChange(m(undefined, false), m(70))).toBe('`npm run coverage`: lines not measured (the command failed) before → 70% after.');
    expect(renderCoverageChange(undefined, m(70))).toContain('the base commit was not measured');
  });
});

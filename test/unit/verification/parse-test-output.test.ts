import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../../src/verification/parse-test-output.js';
import { readFixture } from './read-fixture.js';

const parse = (fixture: string, exitCode: number | null = 1) => parseTestOutput(readFixture(fixture), exitCode);

describe('parseTestOutput', () => {
  describe('vitest', () => {
    const expected = {
      runner: 'vitest',
      passed: 2,
      failed: 2,
      skipped: 1,
      failedTests: ['test/math.test.ts > formatBytes > formats 1024 as 1 KiB', 'test/math.test.ts > formatBytes > nested > rounds down'],
    };

    it('reads the summary and FAIL lines of a coloured run', () => {
      expect(parse('vitest-color.txt')).toEqual(expected);
    });

    it('reads the same from a plain run', () => {
      expect(parse('vitest-plain.txt')).toEqual(expected);
    });

    it('names a test file that failed to load by its path', () => {
      expect(parse('vitest-load-error.txt').failedTests).toEqual(['test/broken.test.ts', ...expected.failedTests]);
    });

    it('falls back to × lines when there are no FAIL lines', () => {
      const output = [' ❯ test/a.test.ts (2 tests | 1 failed) 5ms', '   × formats 1024 as 1 KiB 3ms', '      Tests  1 failed | 1 passed (2)'].join('\n');
      expect(parseTestOutput(output, 1)).toMatchObject({ runner: 'vitest', failed: 1, passed: 1, failedTests: ['formats 1024 as 1 KiB'] });
    });
  });

  it('reads jest: "Tests:" totals, ● names and suites that failed to run', () => {
    expect(parse('jest-color.txt')).toEqual({
      runner: 'jest',
      passed: 3,
      failed: 2,
      skipped: 1,
      failedTests: ['formatBytes › formats 1024 as 1 KiB', 'formatBytes › nested › rounds down', 'src/broken.test.js'],
    });
  });

  it('reads jest ✕ lines when the ● details are missing', () => {
    const output = ['FAIL src/a.test.js', '  ✕ formats 1024 as 1 KiB (4 ms)', 'Tests:       1 failed, 2 passed, 3 total'].join('\n');
    expect(parseTestOutput(output, 1)).toMatchObject({ runner: 'jest', failed: 1, passed: 2, failedTests: ['formats 1024 as 1 KiB'] });
  });

  it('reads mocha: passing, failing, pending and the nested failure titles', () => {
    expect(parse('mocha-color.txt')).toEqual({
      runner: 'mocha',
      passed: 2,
      failed: 2,
      skipped: 1,
      failedTests: ['formatBytes > formats 1024 as 1 KiB', 'formatBytes > nested > rounds down'],
    });
  });

  it('reads uvu: totals of each file run added up, failures by name', () => {
    const output = [
      'test/math.js',
      '\u001b[32m• \u001b[39m\u001b[31m✘ \u001b[39m  (1 / 2)',
      '',
      '   FAIL  "adds negative numbers"',
      '    Expected values to be strictly equal:  (is)',
      '',
      '  Total:     2',
      '  Passed:    1',
      '  Skipped:   0',
      '  Duration:  1.20ms',
      '',
      'test/strings.js',
      '• • •   (3 / 3)',
      '  Total:     4',
      '  Passed:    3',
      '  Skipped:   1',
      '  Duration:  0.90ms',
    ].join('\n');
    expect(parseTestOutput(output, 1)).toEqual({ runner: 'uvu', passed: 4, failed: 1, skipped: 1, failedTests: ['adds negative numbers'] });
  });

  it('reads a passing mocha run', () => {
    expect(parseTestOutput('\n  math\n    ✔ adds\n\n\n  1 passing (3ms)\n\n', 0)).toEqual({
      runner: 'mocha',
      passed: 1,
      failed: 0,
      skipped: 0,
      failedTests: [],
    });
  });

  describe('node:test', () => {
    const expected = {
      runner: 'node-test',
      passed: 2,
      failed: 2,
      skipped: 1,
      failedTests: ['formats 1024 as 1 KiB', 'units > rounding > rounds down'],
    };

    it('reads TAP with nested subtests, naming only the failing leaves', () => {
      expect(parse('node-test-tap.txt')).toEqual(expected);
    });

    it('reads the spec reporter, coloured or not', () => {
      expect(parse('node-test-spec.txt')).toEqual(expected);
      expect(parse('node-test-spec-color.txt')).toEqual(expected);
    });

    it('names a failing suite hook when no test inside it failed', () => {
      const output = ['▶ units', '  ✔ knows bytes (0.3ms)', '✖ units (1ms)', '  Error: before hook', 'ℹ pass 1', 'ℹ fail 1'].join('\n');
      expect(parseTestOutput(output, 1).failedTests).toEqual(['units']);
    });
  });

  it('reads tape-style TAP without dashes, with a skipped test and diagnostics', () => {
    expect(parse('tape.txt')).toEqual({ runner: 'tap', passed: 1, failed: 1, skipped: 1, failedTests: ['1024 is 1 KiB'] });
  });

  it('reads plain TAP without totals by counting results', () => {
    const output = ['TAP version 13', 'ok 1 - adds', 'not ok 2 - divides # TODO later', 'not ok 3 - formats', '1..3'].join('\n');
    expect(parseTestOutput(output, 1)).toEqual({ runner: 'tap', passed: 1, failed: 1, skipped: 1, failedTests: ['formats'] });
  });

  describe('pytest', () => {
    const failedTests = ['tests/test_fmt.py::test_kib', 'tests/test_fmt.py::test_param[2048-2.0 KiB]'];

    it('reads -q output, where the summary line has no === around it', () => {
      expect(parse('pytest-q.txt')).toEqual({ runner: 'pytest', passed: 3, failed: 2, skipped: 1, failedTests });
    });

    it('reads coloured output', () => {
      expect(parse('pytest-color.txt')).toEqual({ runner: 'pytest', passed: 3, failed: 2, skipped: 1, failedTests });
    });

    it('counts collection errors as failures named by file', () => {
      expect(parse('pytest-collect-error.txt')).toEqual({ runner: 'pytest', passed: 0, failed: 1, skipped: 0, failedTests: ['tests/test_broken.py'] });
    });

    it('reads verbose result lines', () => {
      const output = [
        'tests/test_a.py::test_one PASSED      [ 50%]',
        'tests/test_a.py::test_two FAILED      [100%]',
        '==== 1 failed, 1 passed in 0.02s ====',
      ].join('\n');
      expect(parseTestOutput(output, 1).failedTests).toEqual(['tests/test_a.py::test_two']);
    });
  });

  describe('go test', () => {
    it('reads -v output: leaf subtests, passes and skips', () => {
      expect(parse('go-test-verbose.txt')).toEqual({ runner: 'go', passed: 3, failed: 1, skipped: 1, failedTests: ['TestFormatBytes/1024'] });
    });

    it('names a package that failed to build; passes are unknown without -v', () => {
      expect(parse('go-test-build-failure.txt')).toEqual({
        runner: 'go',
        passed: undefined,
        failed: 2,
        skipped: undefined,
        failedTests: ['TestFormatBytes', 'example.com/bytes/parse'],
      });
    });

    it('reads a passing run from its package lines', () => {
      expect(parseTestOutput('ok  \texample.com/bytes/units\t0.002s\n', 0)).toMatchObject({ runner: 'go', failed: 0, failedTests: [] });
    });
  });

  it('reads cargo test, adding up every test binary', () => {
    const expected = { runner: 'cargo', passed: 2, failed: 1, skipped: 1, failedTests: ['tests::kib'] };
    expect(parse('cargo-test.txt', 101)).toEqual(expected);
    expect(parse('cargo-test-color.txt', 101)).toEqual(expected);
  });

  it('reads a plain closing count line such as "1 passed, 1 failed"', () => {
    expect(parseTestOutput('ok add\nnot ok subtract\n1 passed, 1 failed\n', 1)).toEqual({ runner: 'plain', passed: 1, failed: 1, skipped: 0, failedTests: [] });
    expect(parseTestOutput('Tests: 3 passed; 0 failed; 1 skipped.\n', 0)).toMatchObject({ runner: 'plain', passed: 3, failed: 0, skipped: 1 });
    expect(parseTestOutput('1 passed, 1 failed\nsome later line\nand more\nand more\n', 1)).toEqual({ failedTests: [] });
  });

  it('leaves counts and names out for an unknown format', () => {
    expect(parseTestOutput('checking sizes... FAILED\n1 check did not pass\n', 1)).toEqual({ failedTests: [] });
    expect(parseTestOutput('', 0)).toEqual({ failedTests: [] });
  });
});

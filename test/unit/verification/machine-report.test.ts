import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goJsonText, parseGoJsonReport, parseJestJsonReport, parseJUnitReport, withMachineReport } from '../../../src/verification/machine-report.js';
import { readFixture } from './read-fixture.js';

describe('machine-readable test reports', () => {
  it("reads pytest's JUnit XML (xunit1) with the node ids pytest prints: classes, parameters, setup errors", () => {
    // Real output of pytest 9 with --junitxml -o junit_family=xunit1 on a file with passing, failing, skipped,
    // parametrised, class-based and fixture-error tests.
    expect(parseJUnitReport(readFixture('pytest-junit-xunit1.xml'))).toEqual({
      runner: 'pytest',
      passed: 3,
      failed: 4,
      skipped: 1,
      failedTests: [
        'tests/test_math.py::test_subtracts',
        'tests/test_math.py::test_even[1]',
        'tests/test_math.py::TestDivision::test_by_zero',
        'tests/test_math.py::test_uses_broken',
      ],
    });
  });

  it("reads vitest's JSON report with the names vitest prints after FAIL, a file that did not load by its path", () => {
    // Real output of vitest 4 (--reporter=json) run in /tmp/hyg-vt; stack traces cut to their first line.
    expect(parseJestJsonReport(readFixture('vitest-report.json'), '/tmp/hyg-vt')).toEqual({
      runner: 'vitest',
      passed: 2,
      failed: 3,
      skipped: 2,
      failedTests: ['test/broken.test.js', 'test/math.test.js > math > subtracts', 'test/math.test.js > top level fails'],
    });
  });

  it('adds the reporter only to a plain invocation of a runner that has one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wrench-machine-report-'));
    const report = await withMachineReport('python3 -m pytest -q', dir);
    expect(report).toMatchObject({ format: 'junit', runner: 'pytest' });
    expect(report!.command).toBe(`python3 -m pytest -q --junitxml=${report && 'file' in report ? report.file : ''} -o junit_family=xunit1`);
    expect(await withMachineReport('npx vitest run', dir)).toMatchObject({ format: 'jest-json', runner: 'vitest' });
    expect((await withMachineReport('jest --ci', dir))?.command).toMatch(/^jest --ci --json --outputFile=\.wrench-report-\w+\.json$/);

    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'vitest run' } }));
    expect((await withMachineReport('npm test', dir))?.command).toMatch(
      /^npm test -- --reporter=default --reporter=json --outputFile\.json=\.wrench-report-\w+\.json$/,
    );
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'vitest run && eslint .' } }));
    expect(await withMachineReport('npm test', dir)).toBeUndefined();

    expect(await withMachineReport('cargo test', dir)).toBeUndefined();
    expect(await withMachineReport('pytest -q; echo done', dir)).toBeUndefined();
    expect(await withMachineReport('pytest --junitxml=out.xml', dir)).toBeUndefined();
    expect(await withMachineReport('vitest run --reporter=dot', dir)).toBeUndefined();
  });

  it('reads go test -json events (real Go output): leaf tests, skips, a package that did not build; the text is rebuilt for people', () => {
    const output = readFixture('go-test-json.txt');
    expect(parseGoJsonReport(output)).toEqual({
      runner: 'go',
      passed: 2,
      failed: 2,
      skipped: 1,
      failedTests: ['TestSub/positive', 'example.com/calc/broken'],
    });
    const text = goJsonText(output);
    expect(text).toContain('--- FAIL: TestSub/positive');
    expect(text).toContain('broken/broken_test.go:5:34: undefined: undefinedCall');
    expect(text).not.toContain('"Action"');
    expect(parseGoJsonReport('ok  \texample.com/calc\t0.01s\n')).toBeUndefined();
  });

  it('adds -json to a plain go test, and leaves one that has it or go vet alone', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wrench-machine-report-'));
    expect(await withMachineReport('go test ./...', dir)).toEqual({ command: 'go test -json ./...', format: 'go-json', runner: 'go' });
    expect(await withMachineReport('go test -json ./...', dir)).toBeUndefined();
    expect(await withMachineReport('go vet ./...', dir)).toBeUndefined();
  });
});

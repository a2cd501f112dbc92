import type { TestSummary } from '../verification-types.js';
import { unique } from './output-parser.js';

const RESULT = /^\s*--- (FAIL|PASS|SKIP): (\S+)/;
const PACKAGE = /^(ok|FAIL|\?)\s+(\S+)\s+(?:\d|\(cached\)|\[)/;
const PACKAGE_BROKEN = /^FAIL\s+(\S+)\s+\[(?:build|setup) failed\]/;

/**
 * go test: "--- FAIL: TestName (0.00s)" (subtests indented, "TestName/case"), and per package "ok  pkg 0.1s"
 * or "FAIL pkg". A package that fails without naming a test (build failure, panic in init) counts by its path.
 */
export function parseGoTest(lines: readonly string[]): TestSummary | undefined {
  const results: Array<{ status: string; name: string }> = [];
  const brokenPackages: string[] = [];
  let namedSincePackage = false;
  let sawPackage = false;
  for (const line of lines) {
    const result = RESULT.exec(line);
    if (result) {
      const [, status = '', name = ''] = result;
      results.push({ status, name });
      if (status === 'FAIL') namedSincePackage = true;
      continue;
    }
    const pkg = PACKAGE.exec(line);
    if (!pkg) continue;
    sawPackage = true;
    const [, outcome, path = ''] = pkg;
    if (PACKAGE_BROKEN.test(line) || (outcome === 'FAIL' && !namedSincePackage)) brokenPackages.push(path);
    namedSincePackage = false;
  }
  if (!results.length && !sawPackage) return undefined;

  const leaves = (status: string) => leafNames(results.filter((r) => r.status === status).map((r) => r.name));
  const failedTests = unique([...leaves('FAIL'), ...brokenPackages]);
  const verbose = lines.some((line) => line.startsWith('=== RUN'));
  return {
    runner: 'go',
    passed: verbose ? leaves('PASS').length : undefined,
    failed: failedTests.length,
    skipped: verbose ? leaves('SKIP').length : undefined,
    failedTests,
  };
}

/** Drops a test whose subtests are listed too ("TestA" when "TestA/case" is there). */
function leafNames(names: readonly string[]): string[] {
  return unique(names).filter((name) => !names.some((other) => other.startsWith(`${name}/`)));
}

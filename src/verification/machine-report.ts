import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { TestSummary } from './verification-types.js';
import { unique } from './parsers/output-parser.js';

/**
 * A test command with its runner's machine-readable reporter added beside the usual output: pytest's JUnit XML
 * (xunit1, which names each test's file), vitest's and jest's JSON, a file in the workspace read and removed
 * right after the run; `go test -json`, whose events replace the output itself (the text is rebuilt from them).
 * Other runners (cargo, whose JSON needs a nightly flag, mocha...) keep the text parsers.
 */
export type MachineReport =
  | {
      command: string;
      /** The report's file name, relative to the command's directory. */
      file: string;
      format: 'junit' | 'jest-json';
      runner: 'pytest' | 'vitest' | 'jest';
    }
  | { command: string; format: 'go-json'; runner: 'go' };

const SHELL_SYNTAX = /[;&|<>`$()\n]/;
const PYTEST = /^(?:python3? -m pytest|pytest)(?:\s|$)/;
const VITEST = /^(?:npx (?:--no-install )?)?vitest(?:\s|$)/;
const JEST = /^(?:npx (?:--no-install )?)?jest(?:\s|$)/;
const NPM_TEST = /^npm (?:test|t|run test)$/;
const GO_TEST = /^go test(?:\s|$)/;

/** The command with a reporter added, or undefined when the runner has none or the command is not one plain invocation of it. */
export async function withMachineReport(command: string, dir: string): Promise<MachineReport | undefined> {
  const trimmed = command.trim();
  if (SHELL_SYNTAX.test(trimmed)) return undefined;
  if (GO_TEST.test(trimmed) && !/\s-json\b/.test(trimmed)) return { command: trimmed.replace(/^go test/, 'go test -json'), format: 'go-json', runner: 'go' };
  const id = randomUUID().slice(0, 8);
  if (PYTEST.test(trimmed) && !/--junit-?xml/.test(trimmed)) {
    const file = `.wrench-report-${id}.xml`;
    return { command: `${trimmed} --junitxml=${file} -o junit_family=xunit1`, file, format: 'junit', runner: 'pytest' };
  }
  const script = NPM_TEST.test(trimmed) ? await npmTestScript(dir) : undefined;
  const invocation = script ?? trimmed;
  if (SHELL_SYNTAX.test(invocation)) return undefined;
  const file = `.wrench-report-${id}.json`;
  const extra =
    VITEST.test(invocation) && !/--reporter/.test(invocation)
      ? { args: `--reporter=default --reporter=json --outputFile.json=${file}`, runner: 'vitest' as const }
      : JEST.test(invocation) && !/--json|--outputFile/.test(invocation)
        ? { args: `--json --outputFile=${file}`, runner: 'jest' as const }
        : undefined;
  if (!extra) return undefined;
  return { command: script ? `${trimmed} -- ${extra.args}` : `${trimmed} ${extra.args}`, file, format: 'jest-json', runner: extra.runner };
}

async function npmTestScript(dir: string): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> };
    const script = manifest.scripts?.test;
    return typeof script === 'string' ? script.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The summary from the report file (then removed) or go's events in `output`; undefined when there is none or it cannot be read. */
export async function readMachineReport(report: MachineReport, dir: string, output = ''): Promise<TestSummary | undefined> {
  if (report.format === 'go-json') return parseGoJsonReport(output);
  const file = path.join(dir, report.file);
  try {
    const text = await readFile(file, 'utf8');
    return report.format === 'junit' ? parseJUnitReport(text, report.runner) : parseJestJsonReport(text, dir, report.runner);
  } catch {
    return undefined;
  } finally {
    await rm(file, { force: true }).catch(() => undefined);
  }
}

interface JUnitCase {
  classname?: string;
  name?: string;
  file?: string;
  failure?: unknown;
  error?: unknown;
  skipped?: unknown;
}

/**
 * JUnit XML as pytest writes it (xunit1). Names are pytest's node ids, as its text output prints them:
 * `tests/test_x.py::TestClass::test_name[param]` (the class path is what `classname` adds to the module).
 */
export function parseJUnitReport(xml: string, runner = 'pytest'): TestSummary {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' });
  const root = parser.parse(xml) as { testsuites?: { testsuite?: Array<{ testcase?: JUnitCase[] }> }; testsuite?: Array<{ testcase?: JUnitCase[] }> };
  const suites = root.testsuites?.testsuite ?? root.testsuite ?? [];
  const cases = suites.flatMap((suite) => suite.testcase ?? []);
  const failed = cases.filter((c) => c.failure !== undefined || c.error !== undefined);
  const skipped = cases.filter((c) => c.skipped !== undefined && !failed.includes(c));
  return {
    runner,
    passed: cases.length - failed.length - skipped.length,
    failed: failed.length,
    skipped: skipped.length,
    failedTests: unique(failed.map(nodeId)),
  };
}

function nodeId(testCase: JUnitCase): string {
  const name = String(testCase.name ?? '');
  const classname = String(testCase.classname ?? '');
  if (!testCase.file) return classname ? `${classname}::${name}` : name;
  const module = testCase.file.replace(/\.py$/, '').split('/').join('.');
  const classes = classname.startsWith(`${module}.`) ? classname.slice(module.length + 1).split('.') : [];
  return [testCase.file, ...classes, name].join('::');
}

interface JestJson {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests?: number;
  numTodoTests?: number;
  testResults: Array<{ name: string; status: string; assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }> }>;
}

/**
 * Jest's `--json` report, which vitest's json reporter also writes. Names as vitest prints them after FAIL:
 * `test/file.test.ts > suite > test`; a file that failed without a failing test (it did not load) by its path.
 */
export function parseJestJsonReport(json: string, dir: string, runner = 'vitest'): TestSummary {
  const report = JSON.parse(json) as JestJson;
  const names: string[] = [];
  let brokenFiles = 0;
  for (const file of report.testResults) {
    const relative = path.isAbsolute(file.name) ? path.relative(dir, file.name) : file.name;
    const failing = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failing) names.push([relative, ...test.ancestorTitles, test.title].join(' > '));
    if (file.status === 'failed' && failing.length === 0) {
      names.push(relative);
      brokenFiles += 1;
    }
  }
  return {
    runner,
    passed: report.numPassedTests,
    failed: report.numFailedTests + brokenFiles,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    failedTests: unique(names),
  };
}

const BROKEN_PACKAGE = /^FAIL\s+(\S+)\s+\[(?:build|setup) failed\]/;

interface GoTestEvent {
  Action?: string;
  Package?: string;
  Test?: string;
  Output?: string;
}

function goEvents(output: string): Array<GoTestEvent | string> {
  return output.split('\n').map((line) => {
    if (!line.startsWith('{')) return line;
    try {
      return JSON.parse(line) as GoTestEvent;
    } catch {
      return line;
    }
  });
}

/**
 * `go test -json` events: a test's last pass/fail/skip counts (a test with subtests by its subtests only, as
 * "TestA/case"), and a package that failed without a failing test (build failure, panic in init) by its path.
 */
export function parseGoJsonReport(output: string): TestSummary | undefined {
  const all = goEvents(output);
  const events = all.filter((event): event is GoTestEvent => typeof event !== 'string' && typeof event.Action === 'string');
  if (!events.length) return undefined;
  const outcome = new Map<string, string>();
  // Before Go 1.24 a package that did not build is only a text line among the events.
  const failedPackages = all.flatMap((line) => (typeof line === 'string' ? (BROKEN_PACKAGE.exec(line)?.slice(1, 2) ?? []) : []));
  const packagesWithFailingTests = new Set<string>();
  for (const event of events) {
    const action = event.Action;
    if (action === undefined || !['pass', 'fail', 'skip'].includes(action)) continue;
    if (event.Test) {
      outcome.set(event.Test, action);
      if (event.Action === 'fail') packagesWithFailingTests.add(event.Package ?? '');
    } else if (event.Action === 'fail' && event.Package) failedPackages.push(event.Package);
  }
  const names = [...outcome.keys()];
  const leaves = names.filter((name) => !names.some((other) => other.startsWith(`${name}/`)));
  const having = (action: string) => leaves.filter((name) => outcome.get(name) === action);
  const brokenPackages = failedPackages.filter((pkg) => !packagesWithFailingTests.has(pkg));
  const failedTests = unique([...having('fail'), ...brokenPackages]);
  return { runner: 'go', passed: having('pass').length, failed: failedTests.length, skipped: having('skip').length, failedTests };
}

/** What `go test` would have printed: the events' output in order, with lines that were not events (stderr) kept. */
export function goJsonText(output: string): string {
  return goEvents(output)
    .map((event) => (typeof event === 'string' ? (event ? `${event}\n` : '') : (event.Output ?? '')))
    .join('');
}

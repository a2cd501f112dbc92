import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/create-sandbox.js';
import { checkRegressionTests } from '../../../src/verification/regression-check.js';
import { renderRegressionEvidence } from '../../../src/verification/render-regression.js';
import { regressionEn } from '../../../src/verification/verification-strings.js';
import { workingTreeChanges } from '../../../src/workspace/working-tree-changes.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  }).trim();

const FIXED = 'export const isWeekend = (day) => day === 0 || day === 6;\n';
const BUGGY = 'export const isWeekend = (day) => day === 0 || day >= 5;\n';
const TEST =
  "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { isWeekend } from '../src/dates.js';\ntest('friday is not weekend', () => assert.equal(isWeekend(5), false));\n";
const WEAK_TEST =
  "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { isWeekend } from '../src/dates.js';\ntest('sunday is weekend', () => assert.equal(isWeekend(0), true));\n";

describe('checkRegressionTests on a real repository', () => {
  let temp: TempDir;
  let dir: string;
  let base: string;

  beforeEach(async () => {
    temp = await makeTempDir('wrench-regression-');
    dir = temp.path;
    await mkdir(path.join(dir, 'src'));
    await mkdir(path.join(dir, 'test'));
    await writeFile(path.join(dir, 'package.json'), '{"type":"module"}\n');
    await writeFile(path.join(dir, 'src/dates.js'), BUGGY);
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'base');
    base = git(dir, 'rev-parse', 'HEAD');
    await writeFile(path.join(dir, 'src/dates.js'), FIXED);
    await writeFile(path.join(dir, 'src/new-helper.js'), 'export const x = 1;\n');
  });

  afterEach(() => temp.remove());

  const check = async (testText: string, tests: Array<{ name: string; file?: string; command?: string }>) => {
    await writeFile(path.join(dir, 'test/dates.test.js'), testText);
    const changed = await workingTreeChanges(dir, base);
    const sandbox = createSandbox({ mode: 'none', root: dir });
    return { changed, evidence: await checkRegressionTests({ sandbox, dir, baseSha: base, changed, tests, testCommand: 'node --test test/' }) };
  };

  it('proves a test that fails on the base source and passes with the fix, then restores the fix exactly', async () => {
    const { changed, evidence } = await check(TEST, [{ name: 'friday is not weekend', file: 'test/dates.test.js', command: 'node --test test/dates.test.js' }]);
    expect(changed).toEqual(['src/dates.js', 'src/new-helper.js', 'test/dates.test.js']);
    expect(evidence.testFiles).toEqual(['test/dates.test.js']);
    expect(evidence.sourceFiles).toEqual(['src/dates.js', 'src/new-helper.js']);
    expect(evidence.results).toEqual([{ test: 'friday is not weekend', verdict: 'proven', command: 'node --test test/dates.test.js' }]);
    expect(await readFile(path.join(dir, 'src/dates.js'), 'utf8')).toBe(FIXED);
    expect(await readFile(path.join(dir, 'src/new-helper.js'), 'utf8')).toBe('export const x = 1;\n');
    expect(git(dir, 'status', '--porcelain')).toContain('?? src/new-helper.js');
  });

  it('finds the proving test by name in the suite when the agent named none', async () => {
    const { evidence } = await check(TEST, []);
    expect(evidence.results).toEqual([{ test: 'friday is not weekend', verdict: 'proven', command: 'node --test test/' }]);
  });

  it('says when the test passes without the fix too', async () => {
    const { evidence } = await check(WEAK_TEST, [{ name: 'sunday is weekend', file: 'test/dates.test.js' }]);
    expect(evidence.results).toEqual([{ test: 'sunday is weekend', verdict: 'not-failing-before', command: 'node --test test/' }]);
  });

  it("runs no test the diff does not hold: a placeholder name with only README.md changed is 'no test', and the source is not put back", async () => {
    await writeFile(path.join(dir, 'src/dates.js'), BUGGY);
    await writeFile(path.join(dir, 'README.md'), '# dates\n');
    git(dir, 'clean', '-qfd');
    await writeFile(path.join(dir, 'README.md'), '# dates\nFixed the weekend check.\n');
    const changed = await workingTreeChanges(dir, base);
    expect(changed).toEqual(['README.md']);
    const sandbox = createSandbox({ mode: 'none', root: dir });
    const evidence = await checkRegressionTests({
      sandbox,
      dir,
      baseSha: base,
      changed,
      tests: [{ name: 'Done: regressionTests: name' }],
      testCommand: 'node --test test/',
    });
    expect(evidence).toEqual({ testFiles: [], sourceFiles: ['README.md'], results: [], note: 'no-test' });
    expect(renderRegressionEvidence(evidence)).toBe(regressionEn.noTest);
    expect(renderRegressionEvidence(evidence)).toContain('the change adds or changes no test file');
  });

  it('drops a named test whose file the diff does not change and runs the one it does', async () => {
    const { evidence } = await check(TEST, [
      { name: 'old test', file: 'test/old.test.js', command: 'node --test test/old.test.js' },
      { name: 'friday is not weekend', file: 'test/dates.test.js', command: 'node --test test/dates.test.js' },
    ]);
    expect(evidence.results).toEqual([{ test: 'friday is not weekend', verdict: 'proven', command: 'node --test test/dates.test.js' }]);
  });
});

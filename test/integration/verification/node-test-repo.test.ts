import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/create-sandbox.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { compareVerification } from '../../../src/verification/compare-verification.js';
import { detectCommands } from '../../../src/verification/detect-commands.js';
import { renderVerification } from '../../../src/verification/render-verification.js';
import { runSetup, runVerification } from '../../../src/verification/run-verification.js';
import type { VerificationCommands, VerificationRun } from '../../../src/verification/verification-types.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { writeFiles } from './write-files.js';

const BUGGY = `export function formatBytes(n) {
  return n > 1024 ? \`\${n / 1024} KiB\` : \`\${n} B\`;
}
`;
const FIXED = BUGGY.replace('n > 1024', 'n >= 1024');
const BROKEN = FIXED.replace('`${n} B`', '`${n} bytes`');

const TESTS = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes } from '../src/format-bytes.js';

test('formats 512 as 512 B', () => assert.equal(formatBytes(512), '512 B'));
test('formats 1024 as 1 KiB', () => assert.equal(formatBytes(1024), '1 KiB'));
test('formats 2048 as 2 KiB', () => assert.equal(formatBytes(2048), '2 KiB'));
`;

describe('verification of a real node:test repository through the sandbox', () => {
  let repo: TempDir;
  let sandbox: Sandbox;
  let commands: VerificationCommands;
  let base: VerificationRun;

  const verify = () => runVerification({ sandbox, dir: repo.path, commands, timeoutMs: 60_000 });

  beforeAll(async () => {
    repo = await makeTempDir('wrench-verify-node-');
    await writeFiles(repo.path, {
      'package.json': JSON.stringify({
        name: 'bytes',
        version: '1.0.0',
        type: 'module',
        scripts: { test: 'node --test', lint: 'node --check src/format-bytes.js' },
      }),
      'src/format-bytes.js': BUGGY,
      'test/format-bytes.test.js': TESTS,
    });
    sandbox = createSandbox({ mode: 'none', root: repo.path });
    commands = await detectCommands(repo.path);
    base = await verify();
  });

  afterAll(() => repo?.remove());

  it('detects npm test and npm run lint, with nothing to set up', async () => {
    expect(commands).toMatchObject({ test: 'npm test', lint: 'npm run lint' });
    expect(commands.setup).toBeUndefined();
    expect(await runSetup({ sandbox, dir: repo.path, commands })).toBeUndefined();
  });

  it('records the failing test on the base commit', () => {
    expect(base.test).toMatchObject({ command: 'npm test', passed: false, exitCode: 1, timedOut: false });
    expect(base.test!.summary).toMatchObject({ runner: 'node-test', passed: 2, failed: 1, failedTests: ['formats 1024 as 1 KiB'] });
    expect(base.lint).toMatchObject({ passed: true });
  });

  it('reports a fix as improved, with the test name under fixed', async () => {
    await writeFiles(repo.path, { 'src/format-bytes.js': FIXED });
    const after = await verify();
    const comparison = compareVerification(base, after);
    expect(comparison).toMatchObject({
      verdict: 'improved',
      fixed: ['formats 1024 as 1 KiB'],
      newFailures: [],
      before: { passed: 2, failed: 1 },
      after: { passed: 3, failed: 0 },
      lint: { before: true, after: true },
    });
    expect(renderVerification(commands, comparison, base, after)).toContain(
      '`npm test`: before 2 passed, 1 failed → after 3 passed, 0 failed. Fixed: `formats 1024 as 1 KiB`.',
    );
  });

  it('reports a breaking change as regressed, with the test name under new failures', async () => {
    await writeFiles(repo.path, { 'src/format-bytes.js': FIXED });
    const passing = await verify();
    await writeFiles(repo.path, { 'src/format-bytes.js': BROKEN });
    const after = await verify();
    const comparison = compareVerification(passing, after);
    expect(comparison).toMatchObject({ verdict: 'regressed', newFailures: ['formats 512 as 512 B'], fixed: [] });
    const text = renderVerification(commands, comparison, passing, after);
    expect(text).toContain('New failures: `formats 512 as 512 B`.');
    expect(text).toContain("'512 bytes'");
  });

  it('reports a syntax error as regressed in tests and in lint', async () => {
    await writeFiles(repo.path, { 'src/format-bytes.js': FIXED });
    const passing = await verify();
    await writeFiles(repo.path, { 'src/format-bytes.js': `${FIXED}\nexport const = ;\n` });
    const comparison = compareVerification(passing, await verify());
    expect(comparison).toMatchObject({ verdict: 'regressed', lint: { before: true, after: false } });
  });
});

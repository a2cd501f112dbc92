import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/create-sandbox.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { compareVerification } from '../../../src/verification/compare-verification.js';
import { detectCommands } from '../../../src/verification/detect-commands.js';
import { runVerification } from '../../../src/verification/run-verification.js';
import type { VerificationCommands, VerificationRun } from '../../../src/verification/verification-types.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { writeFiles } from './write-files.js';

const BUGGY = `def format_bytes(n):
    return f"{n // 1024} KiB" if n > 1024 else f"{n} B"
`;
const FIXED = BUGGY.replace('n > 1024', 'n >= 1024');
const BROKEN = FIXED.replace('f"{n} B"', 'f"{n} bytes"');

const TESTS = `from format_bytes import format_bytes

def test_small():
    assert format_bytes(512) == "512 B"

def test_kib():
    assert format_bytes(1024) == "1 KiB"
`;

async function pytestAvailable(): Promise<boolean> {
  const dir = await makeTempDir('wrench-pytest-probe-');
  try {
    const result = await createSandbox({ mode: 'none', root: dir.path }).exec('python3 -m pytest --version', { cwd: dir.path, timeoutMs: 30_000 });
    return result.exitCode === 0;
  } finally {
    await dir.remove();
  }
}

const hasPytest = await pytestAvailable();

describe.skipIf(!hasPytest)(
  `verification of a real pytest repository through the sandbox${hasPytest ? '' : ' (skipped: `python3 -m pytest --version` fails on this machine)'}`,
  () => {
    let repo: TempDir;
    let sandbox: Sandbox;
    let commands: VerificationCommands;
    let base: VerificationRun;

    const verify = () => runVerification({ sandbox, dir: repo.path, commands, timeoutMs: 60_000 });

    beforeAll(async () => {
      repo = await makeTempDir('wrench-verify-python-');
      await writeFiles(repo.path, { 'pytest.ini': '[pytest]\npythonpath = .\n', 'format_bytes.py': BUGGY, 'tests/test_format_bytes.py': TESTS });
      sandbox = createSandbox({ mode: 'none', root: repo.path });
      commands = await detectCommands(repo.path);
      base = await verify();
    });

    afterAll(() => repo?.remove());

    it('detects pytest and records the failing test on the base commit', () => {
      expect(commands.test).toBe('python3 -m pytest -q');
      expect(base.test!.summary).toEqual({ runner: 'pytest', passed: 1, failed: 1, skipped: 0, failedTests: ['tests/test_format_bytes.py::test_kib'] });
      // Read from pytest's JUnit XML, which is removed again: nothing is left in the working tree.
      expect(base.test!.command).toBe('python3 -m pytest -q');
      expect(readdirSync(repo.path).filter((name) => name.startsWith('.wrench-report'))).toEqual([]);
    });

    it('reports a fix as improved and a breaking change as regressed', async () => {
      await writeFiles(repo.path, { 'format_bytes.py': FIXED });
      const fixed = await verify();
      expect(compareVerification(base, fixed)).toMatchObject({ verdict: 'improved', fixed: ['tests/test_format_bytes.py::test_kib'] });

      await writeFiles(repo.path, { 'format_bytes.py': BROKEN });
      const broken = await verify();
      expect(compareVerification(fixed, broken)).toMatchObject({ verdict: 'regressed', newFailures: ['tests/test_format_bytes.py::test_small'] });
    });
  },
);

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCheckEnvironment } from '../../../src/runtimes/check-environment.js';
import { NodeRuntimes } from '../../../src/runtimes/node-runtimes.js';
import { createSandbox } from '../../../src/sandbox/create-sandbox.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { commandRunEnv } from '../../../src/verification/command-env.js';
import { detectCommands } from '../../../src/verification/detect-commands.js';
import { runSetup, runVerification } from '../../../src/verification/run-verification.js';
import type { VerificationCommands } from '../../../src/verification/verification-types.js';
import { LEGACY_NODE_MAJOR, legacyNodeRepoFiles, TEST_RUNTIMES_DIR } from '../../helpers/legacy-node-repo.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { writeFiles } from './write-files.js';

describe('checks on the runtime and with the commands of the repository’s own CI (bubblewrap)', () => {
  let repo: TempDir;
  let sandbox: Sandbox;
  let commands: VerificationCommands;

  beforeAll(async () => {
    repo = await makeTempDir('wrench-ci-runtime-');
    await writeFiles(repo.path, legacyNodeRepoFiles());
    sandbox = createSandbox({ mode: 'bwrap', root: repo.path });
    commands = await detectCommands(repo.path);
    commands.environment = await prepareCheckEnvironment(repo.path, commands.runtimeHints, { nodeRuntimes: new NodeRuntimes(TEST_RUNTIMES_DIR) });
  }, 300_000);

  afterAll(async () => {
    await repo?.remove();
  });

  it('runs the CI job’s test command, with its plain env, on the Node.js of .nvmrc, and the tests pass', async () => {
    expect(commands.test).toBe('npm run test:unit');
    expect(commands.origin).toBe('checks from .github/workflows/ci.yml (job test)');
    expect(commands.env).toEqual({ GREETING: 'hello from CI' });
    expect(commands.notes).toEqual(['Not passed from .github/workflows/ci.yml (job test): `DEPLOY_KEY` (secrets or expressions).']);
    expect(commands.environment?.lines).toEqual([
      expect.stringMatching(
        new RegExp(`^Node\\.js ${LEGACY_NODE_MAJOR}\\.\\d+\\.\\d+ \\(from the npm registry, [a-z ]+\\), for Node\\.js 14 \\(\\.nvmrc\\)\\.$`),
      ),
    ]);

    const run = await runVerification({ sandbox, dir: repo.path, commands, timeoutMs: 60_000 });
    expect(run.test?.outputTail).toContain('ok 2 - red text is coloured by default');
    expect(run.test).toMatchObject({ passed: true, summary: { passed: 4, failed: 0 } });
  });

  it('the same tests fail on Wrench’s own Node.js and with colour turned off, so the runtime and environment are what made them pass', async () => {
    const own = await runVerification({ sandbox, dir: repo.path, commands: { ...commands, environment: undefined }, timeoutMs: 60_000 });
    expect(own.test).toMatchObject({ passed: false, summary: { failed: 1, failedTests: ['a sealed token opens again'] } });
    const noColour = await runVerification({ sandbox, dir: repo.path, commands: { ...commands, env: { ...commands.env, NO_COLOR: '1' } }, timeoutMs: 60_000 });
    expect(noColour.test?.summary.failedTests).toEqual(['red text is coloured by default']);
  });

  it('shows the provisioned runtime read-only inside the sandbox', async () => {
    const home = commands.environment!.readOnlyDirs[0];
    const { env, readOnlyDirs } = commandRunEnv(commands, repo.path);
    const result = await sandbox.exec(`node --version && npm --version && touch ${home}/bin/planted`, {
      cwd: repo.path,
      timeoutMs: 30_000,
      env,
      readOnlyDirs,
    });
    expect(result.output).toMatch(new RegExp(`^v${LEGACY_NODE_MAJOR}\\.\\d+\\.\\d+\\n6\\.\\d+\\.\\d+\\n`));
    expect(result.output).toMatch(/Read-only file system/);
    expect(env?.npm_config_nodedir).toBe(home);
    expect(result.exitCode).not.toBe(0);
  });
});

describe('the package manager package.json pins (packageManager), as corepack gives it', () => {
  let repo: TempDir;

  afterAll(async () => {
    await repo?.remove();
  });

  it('puts pnpm of that version first on PATH for the checks, and the tests run through it', async () => {
    repo = await makeTempDir('wrench-ci-pnpm-');
    await writeFiles(repo.path, {
      'package.json': JSON.stringify({ name: 'pinned', version: '1.0.0', packageManager: 'pnpm@9.15.9', scripts: { test: 'node test.js' } }),
      'test.js': "console.log('ok 1 - runs under ' + process.env.npm_config_user_agent.split(' ')[0]);\nconsole.log('1..1');\n",
    });
    const sandbox = createSandbox({ mode: 'bwrap', root: repo.path });
    const commands = await detectCommands(repo.path);
    expect(commands.test).toBe('pnpm test');
    commands.environment = await prepareCheckEnvironment(repo.path, commands.runtimeHints, { nodeRuntimes: new NodeRuntimes(TEST_RUNTIMES_DIR) });
    expect(commands.environment.lines).toContainEqual(
      expect.stringMatching(/^pnpm 9\.15\.9 \(from the npm registry, [a-z ]+\), for package\.json packageManager\.$/),
    );
    const run = await runVerification({ sandbox, dir: repo.path, commands, timeoutMs: 60_000 });
    expect(run.test?.outputTail).toContain('ok 1 - runs under pnpm/9.15.9');
    expect(run.test).toMatchObject({ passed: true, summary: { passed: 1, failed: 0 } });
  }, 300_000);
});

describe('a pip setup step in a virtualenv of its own, as setup-python gives a Python of its own', () => {
  let repo: TempDir;

  afterAll(async () => {
    await repo?.remove();
  });

  it('installs the package offline into the checkout’s virtualenv, and the checks import it with `python`', async () => {
    repo = await makeTempDir('wrench-ci-venv-');
    await writeFiles(repo.path, {
      'setup.py': "from setuptools import setup\nsetup(name='greet', version='1.0', py_modules=['greet'])\n",
      'greet.py': "def hello(name):\n    return 'hello ' + name\n",
      'tests/test_greet.py':
        "import unittest\nimport greet\n\nclass T(unittest.TestCase):\n    def test_hello(self):\n        self.assertEqual(greet.hello('ci'), 'hello ci')\n",
      '.wrench.yml': 'setup: python -m pip install --no-index --no-build-isolation -e .\nchecks:\n  test: cd tests && python -m unittest -v\n',
    });
    execFileSync('git', ['init', '-q', repo.path]);
    // What an earlier job's commands left in a reused tree's virtualenv is not kept.
    await writeFiles(repo.path, { '.git/wrench-venv/bin/planted': 'left by an earlier job\n' });
    const sandbox = createSandbox({ mode: 'bwrap', root: repo.path });
    const commands = await detectCommands(repo.path);
    const setup = await runSetup({ sandbox, dir: repo.path, commands, network: false, timeoutMs: 120_000 });
    expect(setup?.passed, setup?.outputTail).toBe(true);
    expect(setup?.command).toBe('python -m pip install --no-index --no-build-isolation -e .');
    expect(existsSync(`${repo.path}/.git/wrench-venv/bin/planted`)).toBe(false);
    const run = await runVerification({ sandbox, dir: repo.path, commands, timeoutMs: 60_000 });
    expect(run.test?.outputTail).toContain('test_hello (test_greet.T');
    expect(run.test?.passed, run.test?.outputTail).toBe(true);
    expect(execFileSync('git', ['-C', repo.path, 'status', '--porcelain', '--ignored'], { encoding: 'utf8' })).not.toContain('wrench-venv');
  }, 180_000);
});

describe('folders of the workspace on the checks’ PATH', () => {
  let repo: TempDir;
  let outside: TempDir;

  afterAll(async () => {
    await Promise.all([repo?.remove(), outside?.remove()]);
  });

  it('never decide which bwrap Wrench starts on the host, and repository variables cannot preload a library there', async () => {
    [repo, outside] = await Promise.all([makeTempDir('wrench-ci-planted-'), makeTempDir('wrench-ci-canary-')]);
    const canary = `${outside.path}/host-was-reached`;
    const planted = `#!/bin/sh\ntouch '${canary}'\nexit 1\n`;
    await writeFiles(repo.path, {
      'package.json': JSON.stringify({ scripts: { test: 'node -e "console.log(1)"' } }),
      '.wrench.yml': 'env:\n  LD_PRELOAD: ./evil.so\n  BASH_ENV: ./evil.sh\n',
      'node_modules/.wrench-global/bin/bwrap': planted,
      'evil.sh': `touch '${canary}'\n`,
    });
    execFileSync('chmod', ['+x', `${repo.path}/node_modules/.wrench-global/bin/bwrap`]);
    const sandbox = createSandbox({ mode: 'bwrap', root: repo.path });
    const commands = await detectCommands(repo.path);
    commands.environment = await prepareCheckEnvironment(repo.path, commands.runtimeHints, { nodeRuntimes: new NodeRuntimes(TEST_RUNTIMES_DIR) });
    expect(commandRunEnv(commands, repo.path).env).not.toHaveProperty('LD_PRELOAD');
    const run = await runVerification({ sandbox, dir: repo.path, commands, timeoutMs: 60_000 });
    expect(existsSync(canary)).toBe(false);
    expect(run.test?.passed, run.test?.outputTail).toBe(true);
  }, 120_000);
});

describe('a pnpm workflow as public repositories write it: `corepack enable`, pnpm/action-setup `version: 9`, a matrix-only `if:`', () => {
  let repo: TempDir;

  afterAll(async () => {
    await repo?.remove();
  });

  it('sets up and tests with the pnpm 9 and Node.js 22 the workflow names, in the sandbox, with no corepack step', async () => {
    repo = await makeTempDir('wrench-ci-pnpm-action-');
    await writeFiles(repo.path, {
      'package.json': JSON.stringify({ name: 'action-setup', version: '1.0.0', private: true, scripts: { test: 'node test.js' } }),
      'test.js':
        "const agent = process.env.npm_config_user_agent.split(' ')[0];\nconsole.log(`ok 1 - ${agent} on node ${process.versions.node.split('.')[0]}`);\nconsole.log('1..1');\n",
      '.github/workflows/test.yml': [
        'name: Test',
        'on: [push, pull_request]',
        'jobs:',
        '  test:',
        '    runs-on: ubuntu-latest',
        '    strategy:',
        '      matrix:',
        '        node: [20, 22]',
        '    steps:',
        '      - uses: actions/checkout@v4',
        '      - run: corepack enable',
        '      - uses: pnpm/action-setup@v4',
        '        with:',
        '          version: 9',
        '      - uses: actions/setup-node@v4',
        '        with:',
        '          node-version: ${{ matrix.node }}',
        '          cache: pnpm',
        '      - run: pnpm install',
        '      - name: Test',
        '        if: matrix.node == 22',
        '        run: pnpm test',
        '',
      ].join('\n'),
    });
    const sandbox = createSandbox({ mode: 'bwrap', root: repo.path });
    const commands = await detectCommands(repo.path);
    expect(commands).toMatchObject({ setup: 'pnpm install', test: 'pnpm test', origin: 'checks from .github/workflows/test.yml (job test)' });
    commands.environment = await prepareCheckEnvironment(repo.path, commands.runtimeHints, { nodeRuntimes: new NodeRuntimes(TEST_RUNTIMES_DIR) });
    expect(commands.environment.lines).toEqual([
      expect.stringMatching(/^Node\.js 22\.\d+\.\d+ \(from the npm registry, [a-z ]+\), for the newest of Node\.js 22, 20 /),
      expect.stringMatching(/^pnpm 9\.\d+\.\d+ \(from the npm registry, [a-z ]+\), for pnpm\/action-setup of \.github\/workflows\/test\.yml \(job test\)\.$/),
    ]);
    const setup = await runSetup({ sandbox, dir: repo.path, commands, timeoutMs: 120_000 });
    expect(setup?.passed, setup?.outputTail).toBe(true);
    const run = await runVerification({ sandbox, dir: repo.path, commands, timeoutMs: 60_000 });
    expect(run.test?.outputTail).toMatch(/ok 1 - pnpm\/9\.\d+\.\d+ on node 22/);
    expect(run.test).toMatchObject({ passed: true, summary: { passed: 1, failed: 0 } });
  }, 400_000);
});

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareCheckEnvironment } from '../../../src/runtimes/check-environment.js';
import { hostRuntimeLine } from '../../../src/runtimes/host-runtimes.js';
import { NodeRuntimes } from '../../../src/runtimes/node-runtimes.js';
import { resolveNodeVersion, satisfiesNode } from '../../../src/runtimes/node-versions.js';
import { requestedRuntimes } from '../../../src/runtimes/requested-runtimes.js';
import { repoFiles } from '../../../src/verification/repo-files.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const AVAILABLE = ['12.22.12', '14.21.2', '14.21.3', '16.20.2', '18.20.8', '20.8.1', '20.19.5', '22.12.0', '23.11.1', '24.3.0', '25.0.0-rc.1', '4.1.0-pkg1'];

describe('resolveNodeVersion', () => {
  it.each([
    ['14', '14.21.3'],
    ['v14.21.2', '14.21.2'],
    ['14.x', '14.21.3'],
    ['^18 || ^20', '20.19.5'],
    ['>=16 <19', '18.20.8'],
    ['lts/fermium', '14.21.3'],
    ['lts/*', '22.12.0'],
    ['node', '24.3.0'],
    ['26', undefined],
    ['not a version', undefined],
  ])('%s → %s', (request, expected) => {
    expect(resolveNodeVersion(request, AVAILABLE)).toBe(expected);
  });

  it('reads engines ranges, and lets through a range it cannot read', () => {
    expect(satisfiesNode('26.10.0', '>=22.12.0')).toBe(true);
    expect(satisfiesNode('26.10.0', '>=12 <15')).toBe(false);
    expect(satisfiesNode('26.10.0', 'whatever')).toBe(true);
  });
});

let repo: TempDir | undefined;
afterEach(async () => {
  await repo?.remove();
  repo = undefined;
});

async function requestsFor(files: Record<string, string>, hints = {}) {
  repo = await makeTempDir('wrench-runtimes-');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(repo.path, path)), { recursive: true });
    await writeFile(join(repo.path, path), text);
  }
  return requestedRuntimes(repoFiles(repo.path), hints);
}

describe('requestedRuntimes', () => {
  it('takes the most specific file: .nvmrc over CI and engines; engines alone is a minimum', async () => {
    const ci = { node: { versions: ['20', '18'], source: 'ci.yml (job test)' } };
    expect((await requestsFor({ 'package.json': '{"engines":{"node":">=18"}}', '.nvmrc': 'lts/iron # the LTS\n' }, ci)).node).toEqual({
      versions: ['lts/iron'],
      source: '.nvmrc',
    });
    await repo?.remove();
    expect((await requestsFor({ 'package.json': '{"engines":{"node":">=18"}}' }, ci)).node).toEqual(ci.node);
    await repo?.remove();
    const engines = await requestsFor({ 'package.json': '{"engines":{"node":">=18"},"packageManager":"pnpm@9.1.0+sha512.abc"}' });
    expect(engines).toMatchObject({
      node: { versions: ['>=18'], minimum: true },
      packageManager: { spec: 'pnpm@9.1.0', source: 'package.json packageManager' },
      nodeProject: true,
    });
    await repo?.remove();
    // The CI's pnpm/action-setup version counts only where package.json names none.
    const action = { packageManager: { spec: 'pnpm@9', source: 'pnpm/action-setup of ci.yml (job test)' } };
    expect((await requestsFor({ 'package.json': '{}' }, action)).packageManager).toEqual(action.packageManager);
    await repo?.remove();
    expect((await requestsFor({ 'package.json': '{"packageManager":"pnpm@8.15.9"}' }, action)).packageManager?.spec).toBe('pnpm@8.15.9');
  });

  it('reads .node-version, .tool-versions, Volta and a setup-node node-version-file', async () => {
    expect((await requestsFor({ '.tool-versions': 'python 3.12.1\nnodejs 20.11.0\n' })).node?.source).toBe('.tool-versions');
    await repo?.remove();
    expect((await requestsFor({ 'package.json': '{"volta":{"node":"18.19.0"}}' })).node).toEqual({ versions: ['18.19.0'], source: 'package.json volta.node' });
    await repo?.remove();
    expect((await requestsFor({ 'config/node.txt': '16\n' }, { nodeVersionFile: 'config/node.txt' })).node).toEqual({
      versions: ['16'],
      source: 'config/node.txt',
    });
  });

  it('reads Python, Go and Rust requests', async () => {
    const requests = await requestsFor({
      'pyproject.toml': '[project]\nname = "x"\nrequires-python = ">=3.9"\n',
      'go.mod': 'module example.com/x\n\ngo 1.21\n',
      'rust-toolchain.toml': '[toolchain]\nchannel = "1.70.0"\n',
    });
    expect(requests).toMatchObject({
      python: { versions: ['>=3.9'], source: 'pyproject.toml requires-python', minimum: true },
      go: { versions: ['1.21'], source: 'go.mod', minimum: true },
      rust: { versions: ['1.70.0'], source: 'rust-toolchain.toml' },
      nodeProject: false,
    });
  });
});

describe('hostRuntimeLine', () => {
  const host = (version: string | undefined) => Promise.resolve(version);

  it("says the host's version meets a request, or plainly that it does not and what the checks ran on", async () => {
    expect(await hostRuntimeLine('python', { versions: ['>=3.9,!=3.10.0'], source: 'pyproject.toml requires-python', minimum: true }, host('3.11.7'))).toBe(
      "Python 3.11.7 (the host's) meets Python >=3.9,!=3.10.0 (pyproject.toml requires-python).",
    );
    expect(await hostRuntimeLine('python', { versions: ['3.8'], source: '.python-version' }, host('3.11.7'))).toBe(
      "⚠ Python 3.8 (.python-version) was asked for, but only the host's Python 3.11.7 is here (Wrench provisions Node.js only): the checks ran on 3.11.7.",
    );
    expect(await hostRuntimeLine('python', { versions: ['~=3.11'], source: 'pyproject.toml requires-python', minimum: true }, host('3.11.7'))).toMatch(
      /^Python 3\.11\.7 \(the host's\) meets/,
    );
    expect(await hostRuntimeLine('go', { versions: ['1.21'], source: 'go.mod', minimum: true }, host(undefined))).toBe(
      '⚠ Go 1.21 (go.mod) was asked for, but the checks have no go here: checks that need it cannot run.',
    );
    expect(await hostRuntimeLine('rust', { versions: ['stable'], source: 'rust-toolchain.toml' }, host('1.95.0'))).toMatch(
      /^Rust 1\.95\.0 \(the host's\) meets/,
    );
    expect(await hostRuntimeLine('rust', { versions: ['1.70'], source: 'rust-toolchain.toml' }, host('1.95.0'))).toMatch(
      /^⚠ Rust 1\.70 \(rust-toolchain\.toml\) was asked for/,
    );
  });
});

describe('prepareCheckEnvironment', () => {
  it('says in one line when the Node.js asked for cannot be had, and runs on its own Node.js', async () => {
    repo = await makeTempDir('wrench-runtimes-');
    await writeFile(join(repo.path, 'package.json'), '{"scripts":{"test":"node --test"}}');
    await writeFile(join(repo.path, '.nvmrc'), '14\n');
    // An npm that always fails stands for a registry that cannot be reached.
    const offline = new NodeRuntimes(join(repo.path, 'runtimes'), { npm: 'false' });
    const environment = await prepareCheckEnvironment(repo.path, undefined, { nodeRuntimes: offline });
    expect(environment.lines).toEqual([
      expect.stringMatching(
        /^⚠ Node\.js 14 \(\.nvmrc\) was asked for, but the npm registry could not be reached \(Command failed: false .*\), and no such build is cached: the checks ran on Node\.js \d+\.\d+\.\d+\.$/,
      ),
    ]);
    expect(environment.mismatches).toEqual(environment.lines);
    expect(environment.path).toEqual([dirname(process.execPath)]);
    expect(environment.readOnlyDirs).toEqual([]);
  });

  it('uses its own Node.js when it meets engines, and says so', async () => {
    repo = await makeTempDir('wrench-runtimes-');
    await writeFile(join(repo.path, 'package.json'), '{"engines":{"node":">=20"}}');
    const environment = await prepareCheckEnvironment(repo.path, undefined, { nodeRuntimes: new NodeRuntimes(join(repo.path, 'runtimes'), { npm: 'false' }) });
    expect(environment.lines).toEqual([`Node.js ${process.versions.node} (Wrench's own), for Node.js >=20 (package.json engines.node).`]);
  });

  it('says in one line that a Python the host lacks was asked for, and which one the checks ran on', async () => {
    repo = await makeTempDir('wrench-runtimes-');
    await writeFile(join(repo.path, '.python-version'), '2.7.18\n');
    const environment = await prepareCheckEnvironment(repo.path, undefined, {});
    expect(environment.lines).toEqual([
      expect.stringMatching(
        /^⚠ Python 2\.7\.18 \(\.python-version\) was asked for, but (only the host's Python 3\.\d+\.\d+ is here \(Wrench provisions Node\.js only\): the checks ran on 3\.\d+\.\d+|the checks have no python3 here: checks that need it cannot run)\.$/,
      ),
    ]);
  });

  it('asks for the version where the checks run when given a probe (the sandbox hides pyenv and rustup)', async () => {
    repo = await makeTempDir('wrench-runtimes-');
    await writeFile(join(repo.path, '.python-version'), '3.9\n');
    await writeFile(join(repo.path, 'rust-toolchain'), 'stable\n');
    const asked: string[] = [];
    const probe = async (command: string) => {
      asked.push(command);
      return command.includes('python3') ? 'Python 3.9.2\n' : undefined;
    };
    const environment = await prepareCheckEnvironment(repo.path, undefined, { probe });
    expect(asked).toEqual(['cd /tmp && python3 --version', 'cd /tmp && rustc --version']);
    expect(environment.lines).toEqual([
      "Python 3.9.2 (the host's) meets Python 3.9 (.python-version).",
      '⚠ Rust stable (rust-toolchain) was asked for, but the checks have no rustc here: checks that need it cannot run.',
    ]);
  });
});

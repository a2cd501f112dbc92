import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { createBwrapSandbox } from '../../../src/sandbox/bwrap-sandbox.js';
import { ChangeVerifier } from '../../../runners/verify-change.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { writeFiles } from '../verification/write-files.js';

const exec = promisify(execFile);
const git = (cwd: string, ...args: string[]) =>
  exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd }).then((out) => out.stdout.trim());

/**
 * The package managers' download caches are shared by the setup steps of every job on one repository (as Wrench's
 * data dir is: hidden from the sandbox, bound writable for setup only); the checks and the agent's commands never see
 * them, and another repository's setup has caches of its own.
 */
describe('shared download caches', () => {
  let root: TempDir;
  let origin: string;
  let dataDir: string;
  let downloads: string;
  let jobs = 0;
  const log = createLogger({ level: 'silent' });

  async function prepareJob(setup: string, test: string, repository = 'acme/app') {
    const dir = path.join(root.path, `job-${++jobs}`);
    await exec('git', ['clone', '--quiet', origin, dir]);
    const baseSha = await git(dir, 'rev-parse', 'HEAD');
    const sandbox = createBwrapSandbox({ root: dir, hiddenPaths: [dataDir] });
    const verifier = new ChangeVerifier(sandbox, dir, log, new AbortController().signal, { repository, baseSha, downloads });
    await verifier.prepare({ setup, test, lint: '' }, false, async () => undefined);
    return { dir, sandbox, verifier };
  }

  beforeAll(async () => {
    root = await makeTempDir('wrench-download-caches-');
    origin = path.join(root.path, 'origin');
    dataDir = path.join(root.path, 'data');
    downloads = path.join(dataDir, 'cache', 'downloads');
    await exec('mkdir', ['-p', origin, dataDir]);
    await git(origin, 'init', '--quiet', '-b', 'main');
    await writeFiles(origin, { 'README.md': 'app\n', '.gitignore': '*.txt\n' });
    await git(origin, 'add', '-A');
    await git(origin, 'commit', '--quiet', '-m', 'base');
  });

  afterAll(async () => {
    await root?.remove();
  });

  it("a job's setup step writes the shared cache and the next job's setup reads it; the checks and the agent cannot", async () => {
    const first = await prepareJob(
      'echo "$npm_config_cache|$PIP_CACHE_DIR" > setup-env.txt && echo tarball > "$npm_config_cache/pkg-1.0.0.tgz"',
      'echo "[$npm_config_cache]" > test-env.txt',
    );
    const cache = path.join(downloads, 'acme+app');
    expect((await readFile(path.join(first.dir, 'setup-env.txt'), 'utf8')).trim()).toBe(`${cache}/npm|${cache}/pip`);
    expect(await readdir(path.join(cache, 'npm'))).toEqual(['pkg-1.0.0.tgz']);
    expect((await readFile(path.join(first.dir, 'test-env.txt'), 'utf8')).trim()).toBe('[]');

    const second = await prepareJob('cat "$npm_config_cache/pkg-1.0.0.tgz" > seen.txt', 'true');
    expect((await readFile(path.join(second.dir, 'seen.txt'), 'utf8')).trim()).toBe('tarball');

    const agent = await second.sandbox.exec(`ls ${cache}/npm; echo planted > ${cache}/npm/planted.tgz`, { cwd: second.dir, timeoutMs: 20_000 });
    expect(agent.exitCode).not.toBe(0);
    expect(await readdir(path.join(cache, 'npm'))).toEqual(['pkg-1.0.0.tgz']);

    // Another repository's setup step cannot read this one's downloads, nor plant a package for it.
    const other = await prepareJob(
      `ls "${cache}/npm" > listing.txt 2>&1; echo planted > "$PIP_CACHE_DIR/evil.whl"; echo "$PIP_CACHE_DIR" > setup-env.txt`,
      'true',
      'acme/other',
    );
    expect((await readFile(path.join(other.dir, 'setup-env.txt'), 'utf8')).trim()).toBe(`${downloads}/acme+other/pip`);
    expect(await readFile(path.join(other.dir, 'listing.txt'), 'utf8')).not.toContain('pkg-1.0.0.tgz');
    expect(await readdir(path.join(cache, 'pip'))).toEqual([]);
  });

  it('is left out when the config turns it off: the setup step gets no cache variables', async () => {
    const dir = path.join(root.path, `job-${++jobs}`);
    await exec('git', ['clone', '--quiet', origin, dir]);
    const baseSha = await git(dir, 'rev-parse', 'HEAD');
    const verifier = new ChangeVerifier(createBwrapSandbox({ root: dir, hiddenPaths: [dataDir] }), dir, log, new AbortController().signal, {
      repository: 'acme/app',
      baseSha,
    });
    await verifier.prepare({ setup: 'echo "[$npm_config_cache]" > setup-env.txt', test: 'true', lint: '' }, false, async () => undefined);
    expect((await readFile(path.join(dir, 'setup-env.txt'), 'utf8')).trim()).toBe('[]');
  });
});

import { renderProgress } from '../../../src/reporting/progress.js';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { createSandbox } from '../../../src/sandbox/create-sandbox.js';
import { BaselineCache } from '../../../src/warm-cache/baseline-cache.js';
import { DependencySnapshots } from '../../../src/warm-cache/dependency-snapshots.js';
import { ChangeVerifier, type WarmStart } from '../../../runners/verify-change.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { writeFiles } from '../verification/write-files.js';

const exec = promisify(execFile);
const git = (cwd: string, ...args: string[]) =>
  exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd }).then((out) => out.stdout.trim());

const DEP_SOURCE = 'export const greeting = "hello";\n';
const TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { greeting } from 'dep';
test('the dependency greets', () => assert.equal(greeting, 'hello'));
`;

describe('warm starts: baseline and dependencies kept between jobs on one machine', () => {
  let root: TempDir;
  let origin: string;
  let counters: string;
  let jobs = 0;
  let warm: Omit<WarmStart, 'baseSha'>;
  const log = createLogger({ level: 'silent' });
  const runs = async (name: string) => (await readFile(path.join(counters, name), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

  /** One job's preparation, as the task runner does it: a fresh clone of the origin, then `prepare`. */
  async function prepareJob(caches: Omit<WarmStart, 'baseSha'> | null = warm) {
    const dir = path.join(root.path, `job-${++jobs}`);
    await exec('git', ['clone', '--quiet', origin, dir]);
    const baseSha = await git(dir, 'rev-parse', 'HEAD');
    const sandbox = createSandbox({ mode: 'none', root: dir });
    const verifier = new ChangeVerifier(sandbox, dir, log, new AbortController().signal, caches ? { ...caches, baseSha } : undefined);
    const phases: string[] = [];
    await verifier.prepare(
      {
        setup: `echo run >> ${counters}/setup && mkdir -p node_modules/dep && printf '{"name":"dep","type":"module","main":"index.js"}' > node_modules/dep/package.json && printf '${DEP_SOURCE.replace(/\n/g, '\\n').replace(/"/g, '\\"')}' > node_modules/dep/index.js`,
        test: `echo run >> ${counters}/test && node --test`,
        lint: '',
      },
      false,
      async (detail) => void phases.push(renderProgress(detail)),
    );
    return { dir, verifier, phases };
  }

  beforeAll(async () => {
    root = await makeTempDir('wrench-warm-start-');
    origin = path.join(root.path, 'origin');
    counters = path.join(root.path, 'counters');
    await exec('mkdir', ['-p', origin, counters]);
    await git(origin, 'init', '--quiet', '-b', 'main');
    await writeFiles(origin, {
      'package.json': JSON.stringify({ name: 'app', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }),
      'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { name: 'app' } } }),
      '.gitignore': 'node_modules/\n',
      'test/dep.test.js': TEST,
    });
    await git(origin, 'add', '-A');
    await git(origin, 'commit', '--quiet', '-m', 'base');
    const cache = path.join(root.path, 'cache');
    warm = {
      repository: 'acme/app',
      baselines: new BaselineCache(path.join(cache, 'baselines')),
      dependencies: new DependencySnapshots(path.join(cache, 'dependencies')),
    };
  });

  afterAll(async () => {
    await exec('chmod', ['-R', 'u+w', root.path]).catch(() => undefined);
    await root?.remove();
  });

  it('installs and runs the baseline for the first job, reuses both for the second job on the same commit', async () => {
    const first = await prepareJob();
    expect(await runs('setup')).toBe(1);
    expect(await runs('test')).toBe(1);
    expect(first.verifier.baselineRun?.test).toMatchObject({ passed: true, summary: { passed: 1, failed: 0 } });

    const second = await prepareJob();
    expect(await runs('setup')).toBe(1);
    expect(await runs('test')).toBe(1);
    expect(second.verifier.baselineRun).toEqual(first.verifier.baselineRun);
    expect(second.phases).toContain('dependencies restored from an earlier install of the same lock files');
    expect(await readFile(path.join(second.dir, 'node_modules/dep/index.js'), 'utf8')).toBe(DEP_SOURCE);

    // The restored dependencies really work: the checks after a change run against them.
    const outcome = await second.verifier.check();
    expect(outcome.after?.test).toMatchObject({ passed: true, summary: { passed: 1 } });
    expect(await runs('test')).toBe(2);
  });

  it('an agent editing a dependency in place changes its own copy only, not the next job', async () => {
    const edited = await prepareJob();
    const file = path.join(edited.dir, 'node_modules/dep/index.js');
    await writeFile(file, 'export const greeting = "tampered";\n');
    await exec('sh', ['-c', `echo '// more' >> ${file}`]);

    const next = await prepareJob();
    expect(await readFile(path.join(next.dir, 'node_modules/dep/index.js'), 'utf8')).toBe(DEP_SOURCE);
    expect(await runs('setup')).toBe(1);
  });

  it('a changed lock file installs afresh, and a new commit runs its own baseline', async () => {
    await writeFile(
      path.join(origin, 'package-lock.json'),
      JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { name: 'app', version: '1.0.1' } } }),
    );
    await git(origin, 'commit', '--quiet', '-am', 'bump the lock file');
    const before = { setup: await runs('setup'), test: await runs('test') };

    const job = await prepareJob();
    expect(await runs('setup')).toBe(before.setup + 1);
    expect(await runs('test')).toBe(before.test + 1);
    expect(job.phases.some((phase) => phase.startsWith('installing dependencies'))).toBe(true);

    await prepareJob();
    expect(await runs('setup')).toBe(before.setup + 1);
    expect(await runs('test')).toBe(before.test + 1);
  });

  it('with the caches off every job installs and runs its baseline', async () => {
    const before = { setup: await runs('setup'), test: await runs('test') };
    await prepareJob({ repository: 'acme/app' });
    await prepareJob(null);
    expect(await runs('setup')).toBe(before.setup + 2);
    expect(await runs('test')).toBe(before.test + 2);
  });
});

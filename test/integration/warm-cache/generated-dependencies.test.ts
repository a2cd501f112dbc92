import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { createSandbox } from '../../../src/sandbox/create-sandbox.js';
import { DependencySnapshots } from '../../../src/warm-cache/dependency-snapshots.js';
import type { VerificationOverride } from '../../../src/verification/verification-types.js';
import { ChangeVerifier, type WarmStart } from '../../../runners/verify-change.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { writeFiles } from '../verification/write-files.js';

const exec = promisify(execFile);
const git = (cwd: string, ...args: string[]) =>
  exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd }).then((out) => out.stdout.trim());

/**
 * A repository whose install writes generated code from an input outside the lock files, as `prisma generate` does
 * from `prisma/schema.prisma` in a postinstall script.
 */
describe('generated dependencies follow their inputs', () => {
  let root: TempDir;
  let origin: string;
  let counters: string;
  let jobs = 0;
  let warm: Omit<WarmStart, 'baseSha'>;
  const log = createLogger({ level: 'silent' });
  const runs = async (name: string) => (await readFile(path.join(counters, name), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
  const generate = 'mkdir -p node_modules/.prisma && cp prisma/schema.prisma node_modules/.prisma/client.txt';

  /** One job's preparation on a fresh clone of the origin; returns the generated client it ends up with. */
  async function prepareJob(settings: VerificationOverride = {}): Promise<string> {
    const dir = path.join(root.path, `job-${++jobs}`);
    await exec('git', ['clone', '--quiet', origin, dir]);
    const baseSha = await git(dir, 'rev-parse', 'HEAD');
    const verifier = new ChangeVerifier(createSandbox({ mode: 'none', root: dir }), dir, log, new AbortController().signal, { ...warm, baseSha });
    await verifier.prepare({ setup: `echo run >> ${counters}/setup && ${generate}`, test: '', lint: '', ...settings }, false, async () => undefined);
    return readFile(path.join(dir, 'node_modules/.prisma/client.txt'), 'utf8');
  }

  async function changeSchema(model: string): Promise<void> {
    await writeFile(path.join(origin, 'prisma/schema.prisma'), `model ${model} {}\n`);
    await git(origin, 'commit', '--quiet', '-am', `schema: ${model}`);
  }

  beforeAll(async () => {
    root = await makeTempDir('wrench-generated-deps-');
    origin = path.join(root.path, 'origin');
    counters = path.join(root.path, 'counters');
    await exec('mkdir', ['-p', origin, counters]);
    await git(origin, 'init', '--quiet', '-b', 'main');
    await writeFiles(origin, {
      'package.json': JSON.stringify({ name: 'app', version: '1.0.0', scripts: { postinstall: 'prisma generate' } }),
      'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { name: 'app' } } }),
      '.gitignore': 'node_modules/\n',
      'prisma/schema.prisma': 'model A {}\n',
    });
    await git(origin, 'add', '-A');
    await git(origin, 'commit', '--quiet', '-m', 'base');
    warm = { repository: 'acme/app', dependencies: new DependencySnapshots(path.join(root.path, 'cache', 'dependencies')) };
  });

  afterAll(async () => {
    await exec('chmod', ['-R', 'u+w', root.path]).catch(() => undefined);
    await root?.remove();
  });

  it('without a key file the snapshot of the same lock files is restored, generated output and all (stale)', async () => {
    expect(await prepareJob()).toBe('model A {}\n');
    await changeSchema('B');
    expect(await prepareJob()).toBe('model A {}\n');
    expect(await runs('setup')).toBe(1);
  });

  it('with the input among dependencyKeyFiles, a changed input installs afresh; an unchanged one restores', async () => {
    const before = await runs('setup');
    const keyed = { dependencyKeyFiles: ['prisma/*.prisma'] };
    expect(await prepareJob(keyed)).toBe('model B {}\n');
    expect(await runs('setup')).toBe(before + 1);
    expect(await prepareJob(keyed)).toBe('model B {}\n');
    expect(await runs('setup')).toBe(before + 1);
    await changeSchema('C');
    expect(await prepareJob(keyed)).toBe('model C {}\n');
    expect(await runs('setup')).toBe(before + 2);
  });

  it('a refresh step runs on a restored snapshot and brings the generated output up to date', async () => {
    const keyed = { dependencyKeyFiles: ['prisma/schema.prisma'], refresh: `echo run >> ${counters}/refresh && ${generate}` };
    await prepareJob(keyed);
    const installs = await runs('setup');
    await changeSchema('D');
    // The key no longer follows the schema: only the refresh step can bring it up to date.
    expect(await runs('refresh')).toBe(0);
    expect(await prepareJob({ refresh: keyed.refresh })).toBe('model D {}\n');
    expect(await runs('setup')).toBe(installs);
    expect(await runs('refresh')).toBe(1);
  });
});

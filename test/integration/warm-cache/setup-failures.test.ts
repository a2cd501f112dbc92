import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeVerifier, type WarmStart } from '../../../runners/verify-change.js';
import { createLogger } from '../../../src/logging/logger.js';
import { renderProgress } from '../../../src/reporting/progress.js';
import { createSandbox } from '../../../src/sandbox/create-sandbox.js';
import { parseAllowEntry } from '../../../src/sandbox/egress/egress-policy.js';
import { upstreamProxyFor } from '../../../src/sandbox/egress/upstream-proxy.js';
import { SetupFailures } from '../../../src/warm-cache/setup-failures.js';
import { startOperatorProxyFake } from '../../fakes/operator-proxy-fake.js';
import { startNpmRegistryFake } from '../../fakes/npm-registry-fake.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { writeFiles } from '../verification/write-files.js';

const exec = promisify(execFile);
const git = (cwd: string, ...args: string[]) =>
  exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd }).then((out) => out.stdout.trim());

/** A setup step that fails as an install against an unreachable registry does, after its retries. */
describe('a failed setup step is remembered per dependency key and said at once by the next job', () => {
  let root: TempDir;
  let origin: string;
  let counters: string;
  let jobs = 0;
  let clock = Date.parse('2026-11-29T05:00:00Z');
  let failures: SetupFailures;
  const log = createLogger({ level: 'silent' });
  const runs = async () => (await readFile(path.join(counters, 'setup'), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
  const setup = () =>
    `echo run >> ${counters}/setup && echo 'npm http fetch GET https://registry.example/left-pad attempt 3 failed with ECONNREFUSED' && echo 'npm error code ECONNREFUSED' >&2 && exit 1`;

  async function prepareJob(command = setup(), setupCaFile?: string, sandboxOf = (dir: string) => createSandbox({ mode: 'none', root: dir })) {
    const dir = path.join(root.path, `job-${++jobs}`);
    await exec('git', ['clone', '--quiet', origin, dir]);
    const baseSha = await git(dir, 'rev-parse', 'HEAD');
    const warm: WarmStart = { repository: 'acme/app', baseSha, setupFailures: failures, setupCaFile };
    const verifier = new ChangeVerifier(sandboxOf(dir), dir, log, new AbortController().signal, warm);
    const phases: string[] = [];
    await verifier.prepare({ setup: command, test: 'node --test', lint: '' }, true, async (detail) => void phases.push(renderProgress(detail)));
    return { verifier, phases, outcome: await verifier.check() };
  }

  beforeAll(async () => {
    root = await makeTempDir('wrench-setup-failures-');
    origin = path.join(root.path, 'origin');
    counters = path.join(root.path, 'counters');
    await exec('mkdir', ['-p', origin, counters]);
    await git(origin, 'init', '--quiet', '-b', 'main');
    await writeFiles(origin, {
      'package.json': JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'node --test' } }),
      'package-lock.json': JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { name: 'app' } } }),
      'test/ok.test.js': "import test from 'node:test';\ntest('ok', () => {});\n",
    });
    await git(origin, 'add', '-A');
    await git(origin, 'commit', '--quiet', '-m', 'base');
    failures = new SetupFailures(path.join(root.path, 'cache', 'setup-failures'), 15 * 60_000, () => clock);
  });

  afterAll(async () => {
    await root?.remove();
  });

  it('runs the step once; the next job on the same lock files does not run it and says its failure at once, with the command and last lines', async () => {
    const first = await prepareJob();
    expect(await runs()).toBe(1);
    expect(first.outcome.setupFailed?.rememberedAt).toBeUndefined();
    expect(first.phases.some((phase) => /install/i.test(phase))).toBe(true);

    clock += 4 * 60_000;
    const second = await prepareJob();
    expect(await runs()).toBe(1);
    expect(second.outcome.setupFailed).toMatchObject({ command: setup(), exitCode: 1, rememberedAt: '2026-11-29T05:00:00.000Z' });
    const text = second.outcome.text;
    expect(text).toContain('**Could not install dependencies**');
    expect(text).toContain(`\`${setup()}\``);
    expect(text).toContain('Not run again: it failed');
    expect(text).toContain('npm error code ECONNREFUSED');
    // The thread was told at once: no "installing" phase, the failure straight away.
    expect(second.phases).toHaveLength(first.phases.length - 1);
  });

  it('runs the step again once the failure is older than the limit, or when the setup command changes', async () => {
    clock += 16 * 60_000;
    await prepareJob();
    expect(await runs()).toBe(2);
    await prepareJob(`${setup()} # changed`);
    expect(await runs()).toBe(3);
  });

  it('runs the step again when the setup CA (sandbox.setupCaFile) changes: a new dependency key', async () => {
    clock += 60_000;
    await prepareJob();
    expect(await runs()).toBe(3);
    await prepareJob(setup(), '/etc/ssl/corp/proxy-ca.pem');
    expect(await runs()).toBe(4);
  });

  it("does not remember a failure the operator's upstream proxy caused (its 407): the next job runs the step again (real bwrap)", async () => {
    const operator = await startOperatorProxyFake({ user: 'wrench', password: 'right-password' });
    const registry = await startNpmRegistryFake({ 'left-pad': ['1.3.0'] }, { host: '127.0.0.2' });
    try {
      const target = new URL(registry.url).host;
      const command = `curl -sSf -m 10 -p ${registry.url}left-pad -o /dev/null`;
      const behind = (password: string) => (dir: string) =>
        createSandbox({
          mode: 'bwrap',
          root: dir,
          egressAllow: [parseAllowEntry(target)],
          egressUpstream: upstreamProxyFor({ upstreamProxy: operator.url.replace('right-password', password) }, {}),
        });
      clock += 60_000;
      const refused = await prepareJob(command, undefined, behind('wrong-password'));
      expect(refused.outcome.setupFailed?.egressRefused).toEqual([
        expect.objectContaining({ reason: 'upstream-refused', upstreamAnswer: '407 Proxy Authentication Required' }),
      ]);
      expect(refused.phases.join('\n')).toContain(`the upstream proxy 127.0.0.1:${operator.port} (sandbox.egress.upstreamProxy) answered 407`);
      // The operator fixes the password: the next job installs, instead of being told the old failure.
      const fixed = await prepareJob(command, undefined, behind('right-password'));
      expect(operator.seen.map((seen) => `${seen.method} ${seen.status}`)).toEqual(['CONNECT 407', 'CONNECT 200']);
      expect(fixed.outcome.setupFailed).toBeUndefined();
      expect(registry.clients).toEqual(['127.0.0.3']);
    } finally {
      await operator.stop();
      await registry.stop();
    }
  }, 60_000);
});

import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { hostPidsMatching, isAlive, waitFor } from './host-processes.js';

export type SandboxFactory = (root: string, secrets: string[]) => Sandbox;

const SECRET = 'sk-test-secret-value-0123456789';
const CREDENTIAL_VARS = {
  SLACK_BOT_TOKEN: 'xoxb-contract-test-token',
  SLACK_SIGNING_SECRET: 'contract-signing-secret',
  ANTHROPIC_API_KEY: 'sk-ant-contract-test',
  GITHUB_TOKEN: 'ghp_contracttesttoken',
  PAGERDUTY_API_TOKEN: 'pd-contract-token',
  REDIS_URL: 'redis://contract-test:6379',
};

/** What every sandbox mode promises: exit codes, merged bounded output, kills, cwd and env rules. */
export function describeSandboxContract(name: string, factory: SandboxFactory): void {
  describe(`${name}: the sandbox contract`, () => {
    let dir: TempDir;
    let sandbox: Sandbox;
    const saved: Record<string, string | undefined> = {};

    beforeAll(async () => {
      dir = await makeTempDir('wrench-sandbox-');
      sandbox = factory(dir.path, [SECRET]);
      for (const [key, value] of Object.entries(CREDENTIAL_VARS)) {
        saved[key] = process.env[key];
        process.env[key] = value;
      }
    });

    afterAll(async () => {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      await dir.remove();
    });

    const run = (command: string, options: Partial<Parameters<Sandbox['exec']>[1]> = {}) =>
      sandbox.exec(command, { cwd: dir.path, timeoutMs: 20_000, ...options });

    it('reports the exit code and the duration', async () => {
      expect((await run('true')).exitCode).toBe(0);
      const failed = await run('echo before; exit 7');
      expect(failed).toMatchObject({ exitCode: 7, output: 'before\n', timedOut: false, aborted: false, elidedChars: 0 });
      expect(failed.durationMs).toBeGreaterThanOrEqual(0);
      expect((await run('sleep 0.3')).durationMs).toBeGreaterThanOrEqual(250);
    });

    it('merges stdout and stderr in the order they were written', async () => {
      const result = await run('for i in 1 2 3; do echo out$i; echo err$i >&2; done');
      expect(result.output).toBe('out1\nerr1\nout2\nerr2\nout3\nerr3\n');
    });

    it('closes stdin so a command waiting for input ends at once', async () => {
      const result = await run('cat; read -r line; echo "read=$?"', { timeoutMs: 5_000 });
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, output: 'read=1\n' });
    });

    it('keeps the head and the tail of several megabytes of output, with the elided count', async () => {
      const result = await run('echo START; yes abcdefghij | head -c 8000000; echo; echo THE-END', { maxOutputChars: 10_000 });
      expect(result.exitCode).toBe(0);
      expect(result.output.startsWith('START\nabcdefghij')).toBe(true);
      expect(result.output.endsWith('THE-END\n')).toBe(true);
      expect(result.output).toContain(`[... ${result.elidedChars} characters elided ...]`);
      expect(result.elidedChars).toBe(6 + 8_000_000 + 1 + 8 - 10_000);
      expect(result.output.length).toBeLessThan(10_100);
    });

    it('defaults to 10 000 characters of output', async () => {
      const result = await run('yes 0123456789 | head -c 100000');
      expect(result.elidedChars).toBe(90_000);
    });

    it('does not buffer a huge output in memory', async () => {
      global.gc?.();
      const before = process.memoryUsage().rss;
      const result = await run('head -c 300000000 /dev/zero | tr "\\0" x', { timeoutMs: 60_000 });
      const grown = process.memoryUsage().rss - before;
      expect(result.elidedChars).toBe(300_000_000 - 10_000);
      expect(grown).toBeLessThan(120 * 1024 * 1024);
    });

    it('kills the whole process group on timeout, background jobs included', async () => {
      const tag = `4${Date.now() % 100000}.5`;
      const pending = run(`sleep ${tag} & sleep ${tag} | sleep ${tag}; echo never`, { timeoutMs: 700 });
      expect(await waitFor(() => hostPidsMatching(`sleep ${tag}`).length >= 3)).toBe(true);
      const pids = hostPidsMatching(`sleep ${tag}`);
      const result = await pending;
      expect(result).toMatchObject({ timedOut: true, aborted: false });
      expect(result.output).not.toContain('never');
      expect(await waitFor(() => pids.every((pid) => !isAlive(pid)))).toBe(true);
    });

    it('kills background jobs left behind when the command ends', async () => {
      const tag = `5${Date.now() % 100000}.5`;
      const result = await run(`(sleep ${tag} &) ; setsid sleep ${tag} & echo started`);
      expect(result.output).toBe('started\n');
      expect(await waitFor(() => hostPidsMatching(`sleep ${tag}`).length === 0)).toBe(true);
    });

    it('stops within seconds when the signal aborts', async () => {
      const controller = new AbortController();
      const ready = path.join(dir.path, 'abort-ready');
      const running = run(`echo going; touch ${ready}; sleep 100`, { signal: controller.signal, timeoutMs: 60_000 });
      // Aborted once the command surely runs: a fixed 200 ms was often before its start on a loaded 2-core host.
      expect(await waitFor(() => existsSync(ready), 20_000)).toBe(true);
      const abortedAt = Date.now();
      controller.abort();
      const result = await running;
      expect(result).toMatchObject({ aborted: true, timedOut: false, output: 'going\n' });
      expect(Date.now() - abortedAt).toBeLessThan(5_000);
    });

    it('does not start when the signal is already aborted', async () => {
      const marker = path.join(dir.path, 'should-not-exist');
      const result = await run(`touch ${marker}`, { signal: AbortSignal.abort() });
      expect(result.aborted).toBe(true);
      await expect(import('node:fs/promises').then((fs) => fs.access(marker))).rejects.toThrow();
    });

    it('passes no credential to the command, even when asked to', async () => {
      const result = await run('env', {
        env: { SLACK_EXTRA: 'x', GITHUB_X: 'y', MY_SECRET_COPY: SECRET, WITH_SECRET: `pre-${SECRET}`, WRENCH_OK: '1', MY_OK: 'yes' },
      });
      for (const [key, value] of Object.entries(CREDENTIAL_VARS)) {
        expect(result.output).not.toContain(key);
        expect(result.output).not.toContain(value);
      }
      expect(result.output).not.toContain(SECRET);
      expect(result.output).not.toMatch(/^(SLACK|GITHUB|ANTHROPIC|PAGERDUTY|REDIS)_/m);
      expect(result.output).toContain('MY_OK=yes');
      expect(result.output).toContain('CI=true');
      expect(result.output).toContain('GIT_TERMINAL_PROMPT=0');
    });

    it('gives the command a private, writable HOME that is not the host one', async () => {
      const result = await run('echo "$HOME"; touch "$HOME/.probe" && echo writable');
      const [home, writable] = result.output.split('\n');
      expect(home).not.toBe(process.env.HOME);
      expect(home).not.toBe('');
      expect(writable).toBe('writable');
      expect((await run('ls -A "$HOME"')).output).toBe('');
    });

    it('runs in the given working directory inside the workspace', async () => {
      await mkdir(path.join(dir.path, 'sub', 'deeper'), { recursive: true });
      const result = await run('pwd', { cwd: path.join(dir.path, 'sub', 'deeper') });
      expect(result.output.trim()).toBe(path.join(await realRoot(dir.path), 'sub', 'deeper'));
    });

    it('refuses a working directory outside the workspace', async () => {
      await expect(run('pwd', { cwd: '/' })).rejects.toMatchObject({ code: 'sandbox_cwd_outside' });
      await expect(run('pwd', { cwd: path.join(dir.path, '..') })).rejects.toMatchObject({ code: 'sandbox_cwd_outside' });
      await symlink('/etc', path.join(dir.path, 'etc-link'));
      await expect(run('pwd', { cwd: path.join(dir.path, 'etc-link') })).rejects.toMatchObject({ code: 'sandbox_cwd_outside' });
      await writeFile(path.join(dir.path, 'plain-file'), 'x');
      await expect(run('pwd', { cwd: path.join(dir.path, 'plain-file') })).rejects.toMatchObject({ code: 'sandbox_cwd_missing' });
    });
  });
}

async function realRoot(dir: string): Promise<string> {
  const { realpath } = await import('node:fs/promises');
  return realpath(dir);
}

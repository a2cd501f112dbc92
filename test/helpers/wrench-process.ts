import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WRENCH_BIN = path.join(ROOT, 'dist/bin/wrench.js');

export interface WrenchProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process printed (JSON logs and messages). */
  output(): string;
  /**
   * SIGTERM, then SIGKILL after 15 s; resolves with the exit code, or the signal that ended the process ('SIGKILL':
   * it did not exit in time). At once for a process that has already ended, however it ended.
   */
  stop(): Promise<number | NodeJS.Signals>;
}

/** How a child process ended: its exit code, or the signal that killed it; undefined while it runs. */
export function howItEnded(child: ChildProcess): number | NodeJS.Signals | undefined {
  return child.exitCode ?? child.signalCode ?? undefined;
}

/**
 * Starts Wrench as a user does (`wrench start`, built by `npm test`'s pretest), with only the
 * environment given: a clean env, not this process's. Resolves once /healthz answers 200, or once `started` says so of
 * what it printed (for a Wrench that cannot be healthy yet).
 */
export async function startWrench(
  env: Record<string, string>,
  args: string[] = ['start'],
  timeoutMs = 60_000,
  started?: (output: string) => boolean,
  /** Another build's `dist/bin/wrench.js` (a benchmark's baseline); default this checkout's. */
  bin = WRENCH_BIN,
): Promise<WrenchProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const child = spawn(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'debug', ...hostCertificates(), ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ended = howItEnded(child);
    if (ended !== undefined) throw new Error(`wrench ended (${ended}) before it was healthy:\n${output}`);
    const ok = started
      ? started(output)
      : await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`wrench did not become healthy within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        const ended = howItEnded(child);
        if (ended !== undefined) return resolve(ended);
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', (code, signal) => {
          clearTimeout(timer);
          resolve(code ?? signal ?? 'SIGKILL');
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Runs a wrench command to completion and returns its exit code and output. */
export function runWrench(args: string[], env: Record<string, string>, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WRENCH_BIN, ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...hostCertificates(), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end(input ?? '');
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The host's certificate paths (a TLS-intercepting proxy's CA): Wrench reaches the npm registry itself to provision
 * the Node.js a repository asks for, as an operator's environment would let it.
 */
function hostCertificates(): Record<string, string> {
  const names = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'];
  return Object.fromEntries(names.filter((name) => process.env[name]?.startsWith('/')).map((name) => [name, process.env[name]!]));
}

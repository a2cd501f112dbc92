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
  stop(): Promise<number | null>;
}

/**
 * Starts Wrench as a user does (`wrench start`, built by `npm test`'s pretest), with only the
 * environment given: a clean env, not this process's. Resolves once /healthz answers 200.
 */
export async function startWrench(env: Record<string, string>, args: string[] = ['start'], timeoutMs = 60_000): Promise<WrenchProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const child = spawn(process.execPath, [WRENCH_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'debug', ...hostCertificates(), ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrench exited with code ${child.exitCode}:\n${output}`);
    const ok = await fetch(`${url}/healthz`).then(
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
        if (child.exitCode !== null) return resolve(child.exitCode);
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', (code) => {
          clearTimeout(timer);
          resolve(code);
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

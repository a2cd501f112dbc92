import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { WrenchError } from '../errors.js';

export interface EmbeddedRedis {
  /** `redis://:<password>@127.0.0.1:<port>`: holds the password, never log it. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * With REDIS_URL unset, Wrench runs its own redis-server child with data and an append-only file
 * under `${dataDir}/redis`, bound to 127.0.0.1 on a free port, and stops it on exit. It requires the
 * password kept in `${dataDir}/redis/password` (see redis-password.ts); the password reaches
 * redis-server on its standard input, never on its command line (which every local user can read).
 */
export async function startEmbeddedRedis(dataDir: string, password: string, binary = 'redis-server'): Promise<EmbeddedRedis> {
  const dir = path.join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const port = await freePort();
  const args = ['-', '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', '', '--protected-mode', 'yes'];
  const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(`requirepass ${password}\n`);
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/i.test(output)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new WrenchError(
              'redis_missing',
              'No redis-server binary was found. Install one (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to an existing Redis.',
            )
          : error,
      ),
    );
    child.once('exit', (code) => reject(new WrenchError('redis_failed', `The embedded redis-server exited with code ${code}: ${output.slice(-500)}`)));
  });
  child.stdout?.removeAllListeners('data').resume();
  child.stderr?.removeAllListeners('data').resume();
  return { url: `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}`, port, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

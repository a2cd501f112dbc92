import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './free-port.js';
import { makeTempDir } from './temp-dir.js';

export interface RedisServer {
  url: string;
  port: number;
  /** Sends a signal to the private redis-server (SIGSTOP / SIGCONT make it hang and resume); false for REDIS_URL. */
  signal(signal: NodeJS.Signals): boolean;
  stop(): Promise<void>;
}

/**
 * A private redis-server on a free port (or on `port`, to bring a stopped one back at the same
 * address), or the one named by REDIS_URL (then stop() does nothing).
 */
export async function startRedisServer(options: { timeoutMs?: number; port?: number } = {}): Promise<RedisServer> {
  const external = process.env.REDIS_URL;
  if (external && options.port === undefined) {
    return { url: external, port: Number(new URL(external).port || 6379), signal: () => false, stop: async () => {} };
  }
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await spawnRedis(options.timeoutMs ?? 10_000, options.port);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

async function spawnRedis(timeoutMs: number, fixedPort?: number): Promise<RedisServer> {
  const port = fixedPort ?? (await freePort());
  const dir = await makeTempDir('wrench-redis-');
  const args = ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1', '--dir', dir.path];
  const child = spawn('redis-server', args, { cwd: dir.path, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    await killAndWait(child);
    await dir.remove();
  };
  try {
    await waitForPong(port, child, timeoutMs);
  } catch (error) {
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`redis-server did not start on port ${port}: ${reason}\n${output.slice(-2000)}`);
  }
  return { url: `redis://127.0.0.1:${port}`, port, signal: (signal) => child.kill(signal), stop };
}

async function waitForPong(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    if (await ping(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no PONG within ${timeoutMs} ms`);
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let reply = '';
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', () => socket.write('*1\r\n$4\r\nPING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG'));
    });
  });
}

function killAndWait(child: ChildProcess): Promise<void> {
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

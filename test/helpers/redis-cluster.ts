import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { makeTempDir } from './temp-dir.js';

const run = promisify(execFile);

export interface ClusterSetup {
  nodes: { host: string; port: number }[];
  stop(): Promise<void>;
}

/** A Redis Cluster of three masters (no replicas) on 127.0.0.1 free ports, made with `redis-cli --cluster create`. */
export async function startRedisCluster(): Promise<ClusterSetup> {
  const dir = await makeTempDir('wrench-cluster-');
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(killAndWait));
    await dir.remove();
  };
  try {
    const nodes: { host: string; port: number }[] = [];
    for (let i = 0; i < 3; i += 1) {
      const port = await freePort();
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir.path];
      const cluster = [
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '2000',
        '--dbfilename',
        `dump-${port}.rdb`,
      ];
      const child = spawn('redis-server', [...args, ...cluster], { stdio: 'ignore' });
      children.push(child);
      nodes.push({ host: '127.0.0.1', port });
    }
    await Promise.all(nodes.map((node) => waitFor(() => answer(node.port, (redis) => redis.ping()).then((pong) => pong === 'PONG'), `port ${node.port}`)));
    await run('redis-cli', ['--cluster', 'create', ...nodes.map((node) => `127.0.0.1:${node.port}`), '--cluster-replicas', '0', '--cluster-yes']);
    await Promise.all(
      nodes.map((node) =>
        waitFor(
          () => answer(node.port, (redis) => redis.cluster('INFO')).then((info) => String(info).includes('cluster_state:ok')),
          `cluster_state:ok on ${node.port}`,
        ),
      ),
    );
    return { nodes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function answer<T>(port: number, ask: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: '127.0.0.1', port, retryStrategy: () => null, maxRetriesPerRequest: 0, connectTimeout: 1000 });
  redis.on('error', () => undefined);
  try {
    return await ask(redis);
  } finally {
    redis.disconnect();
  }
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
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

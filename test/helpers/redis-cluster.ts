import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis, type RedisOptions } from 'ioredis';
import { freePort } from './free-port.js';
import { writeTestCertificates } from './secure-redis.js';
import { makeTempDir } from './temp-dir.js';

const run = promisify(execFile);

export interface ClusterSetup {
  nodes: { host: string; port: number }[];
  /** The first node's URL with the credentials the nodes require (`rediss://` for a TLS cluster). */
  url: string;
  /** The CA that signed the nodes' certificate (a TLS cluster). */
  caFile?: string;
  stop(): Promise<void>;
}

export interface ClusterAuth {
  /** An ACL user (the default user is then off); without one, `requirepass` for the default user. */
  user?: string;
  password: string;
}

/**
 * A Redis Cluster of three masters (no replicas) on 127.0.0.1 free ports, made with `redis-cli --cluster create`;
 * with `auth`, every node requires that user and password; with `tls`, the nodes speak TLS only (clients and the
 * cluster bus), with a certificate for localhost and 127.0.0.1 signed by a CA made for the test.
 */
export async function startRedisCluster(options: { auth?: ClusterAuth; tls?: boolean } = {}): Promise<ClusterSetup> {
  const dir = await makeTempDir('wrench-cluster-');
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(killAndWait));
    await dir.remove();
  };
  try {
    const certificates = options.tls ? writeTestCertificates(dir.path) : undefined;
    const { auth } = options;
    const nodes: { host: string; port: number }[] = [];
    for (let i = 0; i < 3; i += 1) {
      const port = await freePort();
      const lines = [
        `${certificates ? 'tls-port' : 'port'} ${port}`,
        ...(certificates
          ? [
              'port 0',
              `tls-cert-file ${certificates.certFile}`,
              `tls-key-file ${certificates.keyFile}`,
              `tls-ca-cert-file ${certificates.caFile}`,
              'tls-auth-clients no',
              'tls-cluster yes',
            ]
          : []),
        'bind 127.0.0.1',
        'save ""',
        'appendonly no',
        `dir ${dir.path}`,
        'cluster-enabled yes',
        `cluster-config-file nodes-${port}.conf`,
        'cluster-node-timeout 2000',
        `dbfilename dump-${port}.rdb`,
        ...(auth?.user ? ['user default off', `user ${auth.user} on >${auth.password} ~* &* +@all`] : auth ? [`requirepass ${auth.password}`] : []),
      ];
      const file = path.join(dir.path, `redis-${port}.conf`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      const child = spawn('redis-server', [file], { stdio: 'ignore' });
      children.push(child);
      nodes.push({ host: '127.0.0.1', port });
    }
    const connection: RedisOptions = {
      ...(auth ? { password: auth.password, ...(auth.user ? { username: auth.user } : {}) } : {}),
      ...(certificates ? { tls: { ca: readFileSync(certificates.caFile) } } : {}),
    };
    await Promise.all(
      nodes.map((node) => waitFor(() => answer(node.port, connection, (redis) => redis.ping()).then((pong) => pong === 'PONG'), `port ${node.port}`)),
    );
    const cli = [
      ...(certificates ? ['--tls', '--cacert', certificates.caFile] : []),
      ...(auth?.user ? ['--user', auth.user] : []),
      ...(auth ? ['--pass', auth.password, '--no-auth-warning'] : []),
    ];
    await run('redis-cli', [...cli, '--cluster', 'create', ...nodes.map((node) => `127.0.0.1:${node.port}`), '--cluster-replicas', '0', '--cluster-yes']);
    await Promise.all(
      nodes.map((node) =>
        waitFor(
          () => answer(node.port, connection, (redis) => redis.cluster('INFO')).then((info) => String(info).includes('cluster_state:ok')),
          `cluster_state:ok on ${node.port}`,
        ),
      ),
    );
    const credentials = auth ? `${auth.user ? encodeURIComponent(auth.user) : ''}:${encodeURIComponent(auth.password)}@` : '';
    const url = `${certificates ? 'rediss' : 'redis'}://${credentials}127.0.0.1:${nodes[0]?.port}`;
    return { nodes, url, ...(certificates ? { caFile: certificates.caFile } : {}), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function answer<T>(port: number, connection: RedisOptions, ask: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: '127.0.0.1', port, ...connection, retryStrategy: () => null, maxRetriesPerRequest: 0, connectTimeout: 1000 });
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

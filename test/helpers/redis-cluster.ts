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
  /** SIGKILLs the node on `port`. */
  kill(port: number): void;
  /** Asks the live nodes until one says which node serves `slot`, and that node is a master with cluster_state:ok. */
  waitForMaster(slot: number, notPort: number, timeoutMs?: number): Promise<number>;
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
export async function startRedisCluster(options: { auth?: ClusterAuth; tls?: boolean; replicas?: 0 | 1 } = {}): Promise<ClusterSetup> {
  const dir = await makeTempDir('wrench-cluster-');
  const children: ChildProcess[] = [];
  const byPort = new Map<number, ChildProcess>();
  const stop = async () => {
    await Promise.all(children.map(killAndWait));
    await dir.remove();
  };
  try {
    const certificates = options.tls ? writeTestCertificates(dir.path) : undefined;
    const { auth } = options;
    const nodes: { host: string; port: number }[] = [];
    const replicas = options.replicas ?? 0;
    for (let i = 0; i < 3 * (1 + replicas); i += 1) {
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
        ...(auth?.user
          ? ['user default off', `user ${auth.user} on >${auth.password} ~* &* +@all`, `masteruser ${auth.user}`]
          : auth
            ? [`requirepass ${auth.password}`]
            : []),
        ...(auth ? [`masterauth ${auth.password}`] : []),
        ...(certificates ? ['tls-replication yes'] : []),
      ];
      const file = path.join(dir.path, `redis-${port}.conf`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      const child = spawn('redis-server', [file], { stdio: 'ignore' });
      children.push(child);
      byPort.set(port, child);
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
    await run('redis-cli', [
      ...cli,
      '--cluster',
      'create',
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    ]);
    await Promise.all(
      nodes.map((node) =>
        waitFor(
          () => answer(node.port, connection, (redis) => redis.cluster('INFO')).then((info) => String(info).includes('cluster_state:ok')),
          `cluster_state:ok on ${node.port}`,
        ),
      ),
    );
    // Every replica replicating its master (a node told to replicate still says role:master for a moment, and a
    // replica promoted before its first sync would hold nothing).
    await waitFor(
      async () => {
        const infos = await Promise.all(nodes.map((node) => answer(node.port, connection, (redis) => redis.info('replication'))));
        return infos.filter((info) => info.includes('role:slave') && info.includes('master_link_status:up')).length === 3 * replicas;
      },
      `${3 * replicas} replicas in sync`,
    );
    const kill = (port: number) => byPort.get(port)?.kill('SIGKILL');
    const waitForMaster = async (slot: number, notPort: number, timeoutMs = 20_000) => {
      let found = 0;
      await waitFor(
        async () => {
          for (const node of nodes) {
            if (node.port === notPort || byPort.get(node.port)?.exitCode !== null || byPort.get(node.port)?.signalCode) continue;
            const ranges = (await answer(node.port, connection, (redis) => redis.cluster('SLOTS')).catch(() => [])) as [number, number, [string, number]][];
            const owner = ranges.find(([from, to]) => from <= slot && slot <= to)?.[2]?.[1];
            if (!owner || owner === notPort) continue;
            const info = String(await answer(owner, connection, (redis) => redis.cluster('INFO')));
            if (info.includes('cluster_state:ok')) {
              found = owner;
              return true;
            }
          }
          return false;
        },
        `a master other than ${notPort} for slot ${slot}`,
        timeoutMs,
      );
      return found;
    };
    const credentials = auth ? `${auth.user ? encodeURIComponent(auth.user) : ''}:${encodeURIComponent(auth.password)}@` : '';
    const url = `${certificates ? 'rediss' : 'redis'}://${credentials}127.0.0.1:${nodes[0]?.port}`;
    return { nodes, url, ...(certificates ? { caFile: certificates.caFile } : {}), kill, waitForMaster, stop };
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

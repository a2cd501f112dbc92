import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { makeTempDir, type TempDir } from './temp-dir.js';

export interface SentinelSetup {
  /** The master group's name the sentinels watch. */
  group: string;
  /** Password of the primary and the replica (requirepass and masterauth). */
  password: string;
  /** Password of the sentinels themselves. */
  sentinelPassword: string;
  sentinels: { host: string; port: number }[];
  primaryPort: number;
  replicaPort: number;
  /** Kills the primary at once (SIGKILL): no goodbye to its clients or its replica. */
  killPrimary(): void;
  /** Freezes the primary (SIGSTOP): its connections stay open and nothing answers on them. */
  freezePrimary(): void;
  /** A plain connection to one data node by port (to read what it holds). */
  node(port: number): Redis;
  /** Asks a sentinel for the primary's address until it names `port`. */
  waitForPrimary(port: number, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

const SPAWN_TIMEOUT_MS = 10_000;

/**
 * A primary, one replica and three sentinels (quorum 2) on 127.0.0.1 free ports, as real redis-server processes.
 * Timers are small (down after 1 s, failover timeout 3 s) so a failover takes a few seconds.
 */
export async function startSentinelSetup(): Promise<SentinelSetup> {
  const group = 'wrenchprimary';
  const password = 'data-node-password-0123456789';
  const sentinelPassword = 'sentinel-password-0123456789';
  const dir = await makeTempDir('wrench-sentinel-');
  const children: ChildProcess[] = [];
  const nodes: Redis[] = [];
  const stop = async () => {
    for (const node of nodes) node.disconnect();
    await Promise.all(children.map(killAndWait));
    await dir.remove();
  };
  try {
    const primaryPort = await freePort();
    const primary = await startDataNode(dir, primaryPort, password, []);
    children.push(primary);
    const replicaPort = await freePort();
    children.push(await startDataNode(dir, replicaPort, password, ['--replicaof', '127.0.0.1', String(primaryPort)]));
    await waitFor(async () => (await info(replicaPort, password)).includes('master_link_status:up'), 'the replica to sync');
    const sentinels: { host: string; port: number }[] = [];
    for (let i = 0; i < 3; i += 1) {
      const port = await freePort();
      const conf = join(dir.path, `sentinel-${port}.conf`);
      await writeFile(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir.path}`,
          `requirepass ${sentinelPassword}`,
          `sentinel sentinel-pass ${sentinelPassword}`,
          `sentinel monitor ${group} 127.0.0.1 ${primaryPort} 2`,
          `sentinel auth-pass ${group} ${password}`,
          `sentinel down-after-milliseconds ${group} 1000`,
          `sentinel failover-timeout ${group} 3000`,
          `sentinel parallel-syncs ${group} 1`,
          '',
        ].join('\n'),
      );
      children.push(await spawnUntil(['redis-server', conf, '--sentinel'], port, sentinelPassword));
      sentinels.push({ host: '127.0.0.1', port });
    }
    // Every sentinel has seen the replica and the other sentinels before anything is failed over.
    await waitFor(async () => {
      for (const sentinel of sentinels) {
        const client = plain(sentinel.port, sentinelPassword);
        try {
          const [master] = (await client.call('SENTINEL', 'MASTERS')) as string[][];
          const fields = Object.fromEntries(pairs(master ?? []));
          if (fields['num-slaves'] !== '1' || fields['num-other-sentinels'] !== '2') return false;
        } finally {
          client.disconnect();
        }
      }
      return true;
    }, 'the sentinels to see the replica and each other');
    return {
      group,
      password,
      sentinelPassword,
      sentinels,
      primaryPort,
      replicaPort,
      killPrimary: () => primary.kill('SIGKILL'),
      freezePrimary: () => primary.kill('SIGSTOP'),
      node: (port) => {
        const node = plain(port, password);
        nodes.push(node);
        return node;
      },
      waitForPrimary: (port, timeoutMs) =>
        waitFor(
          async () => {
            const client = plain(sentinels[0]?.port ?? 0, sentinelPassword);
            try {
              const address = (await client.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', group)) as string[] | null;
              return address?.[1] === String(port);
            } finally {
              client.disconnect();
            }
          },
          `the sentinels to name port ${port} the primary`,
          timeoutMs,
        ),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function startDataNode(dir: TempDir, port: number, password: string, extra: string[]): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir.path, '--dbfilename', `dump-${port}.rdb`];
  return spawnUntil(['redis-server', ...args, '--requirepass', password, '--masterauth', password, ...extra], port, password);
}

async function spawnUntil([command, ...args]: string[], port: number, password: string): Promise<ChildProcess> {
  const child = spawn(command ?? 'redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
        const client = plain(port, password);
        try {
          return (await client.ping()) === 'PONG';
        } finally {
          client.disconnect();
        }
      },
      `${args.join(' ')} to answer`,
    );
  } catch (error) {
    await killAndWait(child);
    throw new Error(`${(error as Error).message}\n${output.slice(-2000)}`);
  }
  return child;
}

function plain(port: number, password: string): Redis {
  const client = new Redis({ host: '127.0.0.1', port, password, lazyConnect: false, retryStrategy: () => null, maxRetriesPerRequest: 0, connectTimeout: 1000 });
  client.on('error', () => undefined);
  return client;
}

async function info(port: number, password: string): Promise<string> {
  const client = plain(port, password);
  try {
    return await client.info('replication');
  } finally {
    client.disconnect();
  }
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = SPAWN_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      if ((error as Error).message.startsWith('exited with code')) throw error;
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (${(lastError as Error).message})` : ''}`);
}

function pairs(flat: string[]): [string, string][] {
  const result: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) result.push([flat[i] ?? '', flat[i + 1] ?? '']);
  return result;
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
    child.kill('SIGCONT');
  });
}

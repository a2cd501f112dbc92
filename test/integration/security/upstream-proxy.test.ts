import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBwrapSandbox } from '../../../src/sandbox/bwrap-sandbox.js';
import { parseAllowEntry } from '../../../src/sandbox/egress/egress-policy.js';
import { type EgressRefusal, startEgressProxy } from '../../../src/sandbox/egress/egress-proxy.js';
import { upstreamProxyFor } from '../../../src/sandbox/egress/upstream-proxy.js';
import { stringsFor } from '../../../src/slack/strings/index.js';
import { setupEgressLine } from '../../../src/verification/render-verification.js';
import { runSetup } from '../../../src/verification/run-verification.js';
import { startNpmRegistryFake, type NpmRegistryFake } from '../../fakes/npm-registry-fake.js';
import { type OperatorProxyFake, startOperatorProxyFake } from '../../fakes/operator-proxy-fake.js';
import { writeTestCertificates } from '../../helpers/secure-redis.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

/**
 * Issue 44 item 18: behind a company proxy, the setup step's allowed destinations go through the operator's proxy
 * (here a fake on 127.0.0.1 that requires Basic credentials and connects onward from 127.0.0.3, so the registry can
 * tell what came through it). Real bwrap, real npm and curl inside; Wrench's own environment holds the proxy with its
 * credentials, as an operator's would.
 */

const PASSWORD = 'corp-Proxy-s3cret';
const TOKEN = Buffer.from(`wrench:${PASSWORD}`).toString('base64');

describe('the egress proxy behind an operator proxy (real bwrap)', () => {
  let workspace: TempDir;
  let operator: OperatorProxyFake;
  let registry: NpmRegistryFake;
  let registryTarget: string;
  const saved = { HTTPS_PROXY: process.env.HTTPS_PROXY, NO_PROXY: process.env.NO_PROXY };

  beforeAll(async () => {
    workspace = await makeTempDir('wrench-upstream-');
    operator = await startOperatorProxyFake({ user: 'wrench', password: PASSWORD });
    // Only the operator's proxy reaches it, as the internet would be: on 127.0.0.2, and every request it answers
    // is checked to have come from the proxy's 127.0.0.3.
    registry = await startNpmRegistryFake({ 'tiny-dep': ['1.0.0', '1.1.0'] }, { host: '127.0.0.2' });
    registryTarget = new URL(registry.url).host;
    // Wrench's own environment, where an operator puts the company proxy: the default upstream.
    process.env.HTTPS_PROXY = operator.url;
    delete process.env.NO_PROXY;
  }, 30_000);

  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await operator.stop();
    await registry.stop();
    await workspace.remove();
  });

  const sandboxWith = (upstreamUrl: string, refusals: EgressRefusal[], noProxy?: string[]) =>
    createBwrapSandbox({
      root: workspace.path,
      egressAllow: [parseAllowEntry(registryTarget), parseAllowEntry('localhost')],
      egressUpstream: upstreamProxyFor({ upstreamProxy: upstreamUrl, noProxy }, {}),
      onEgressRefused: (refusal) => refusals.push(refusal),
    });

  it('reaches an allowed registry only through the upstream, with its credentials, which the sandbox never sees', async () => {
    const refusals: EgressRefusal[] = [];
    const sandbox = createBwrapSandbox({
      root: workspace.path,
      egressAllow: [parseAllowEntry(registryTarget)],
      // What job-sandbox does with the config: no `upstreamProxy` set, so Wrench's own HTTPS_PROXY.
      egressUpstream: upstreamProxyFor({}, { HTTPS_PROXY: process.env.HTTPS_PROXY }),
      onEgressRefused: (refusal) => refusals.push(refusal),
    });
    const seenBefore = operator.seen.length;
    const result = await sandbox.exec(
      [
        // npm sends absolute-form GETs to HTTP_PROXY for an http:// registry; curl -p tunnels with CONNECT.
        `npm view tiny-dep versions --json --registry ${registry.url} > npm-view.json`,
        `curl -sSf -m 10 -p ${registry.url}tiny-dep -o curl-tunnel.json`,
        // Everything the command and its parents could read of their environments.
        'env > sandbox-env.txt; cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n" >> sandbox-env.txt; cat /proc/[0-9]*/cmdline 2>/dev/null | tr "\\0" " " >> sandbox-env.txt',
      ].join(' && '),
      { cwd: workspace.path, timeoutMs: 60_000, network: true },
    );
    expect(result.exitCode, result.output).toBe(0);
    expect(JSON.parse(await readFile(path.join(workspace.path, 'npm-view.json'), 'utf8'))).toEqual(['1.0.0', '1.1.0']);
    expect(JSON.parse(await readFile(path.join(workspace.path, 'curl-tunnel.json'), 'utf8'))).toMatchObject({ name: 'tiny-dep' });
    expect(refusals).toEqual([]);

    // The upstream saw both ways, each with Wrench's credentials, and let them through.
    const seen = operator.seen.slice(seenBefore);
    expect(seen).toEqual(
      expect.arrayContaining([
        { method: 'GET', target: `${registry.url}tiny-dep`, proxyAuthorization: `Basic ${TOKEN}`, status: 200 },
        { method: 'CONNECT', target: registryTarget, proxyAuthorization: `Basic ${TOKEN}`, status: 200 },
      ]),
    );
    // Every request the registry answered came through the upstream: none straight from Wrench's proxy.
    expect(registry.clients.length).toBeGreaterThanOrEqual(2);
    expect(new Set(registry.clients)).toEqual(new Set(['127.0.0.3']));

    const environment = await readFile(path.join(workspace.path, 'sandbox-env.txt'), 'utf8');
    expect(environment).toContain('HTTPS_PROXY=http://127.0.0.1:'); // the forwarder's, inside
    expect(environment).not.toContain(PASSWORD);
    expect(environment).not.toContain(TOKEN);
  }, 90_000);

  it('refuses a host outside the allow list, and a listed name resolving to loopback, before the upstream sees them', async () => {
    const refusals: EgressRefusal[] = [];
    const seenBefore = operator.seen.length;
    const result = await sandboxWith(operator.url, refusals).exec(
      "curl -sS -m 10 -o /dev/null -w 'evil %{http_code}\\n' https://evil.example/x; curl -sS -m 10 -o /dev/null -w 'plain %{http_code}\\n' http://evil.example/x; curl -sS -m 10 --noproxy '' -o /dev/null -w 'loopback %{http_code}\\n' https://localhost/",
      { cwd: workspace.path, timeoutMs: 40_000, network: true },
    );
    expect(result.output).toContain('CONNECT tunnel failed, response 403');
    expect(result.output).toContain('plain 403');
    expect(operator.seen.slice(seenBefore)).toEqual([]);
    expect(operator.onward.join(' ')).not.toContain('evil.example');
    expect(refusals).toEqual([
      expect.objectContaining({ host: 'evil.example', port: 443, reason: 'not-allowed' }),
      expect.objectContaining({ host: 'evil.example', port: 80, reason: 'not-allowed' }),
      expect.objectContaining({ host: 'localhost', port: 443, reason: 'non-public-address' }),
    ]);
  }, 60_000);

  it("says the upstream's 407 in one line when its credentials are wrong, without them", async () => {
    const refusals: EgressRefusal[] = [];
    const wrong = operator.url.replace(PASSWORD, 'not-the-password');
    const sandbox = sandboxWith(wrong, refusals);
    const setup = await runSetup({
      sandbox,
      dir: workspace.path,
      commands: {
        setup: `curl -sS -m 10 ${registry.url}tiny-dep -o /dev/null -w 'plain %{http_code}\\n'; curl -sSf -m 10 -p ${registry.url}tiny-dep -o /dev/null -w 'tunnel %{http_connect}\\n'`,
        sources: [],
      },
      timeoutMs: 40_000,
    });
    expect(setup?.passed).toBe(false);
    expect(refusals).toEqual([
      expect.objectContaining({
        host: '127.0.0.2',
        reason: 'upstream-refused',
        upstream: `127.0.0.1:${operator.port}`,
        upstreamSetting: 'sandbox.egress.upstreamProxy',
        upstreamAnswer: '407 Proxy Authentication Required',
      }),
    ]);
    expect(refusals[0]?.attempts).toBe(2); // the tunnel and the plain request, one line
    const line = setupEgressLine(setup!.egressRefused);
    expect(line).toBe(
      `Setup could not reach ${registryTarget}: the upstream proxy 127.0.0.1:${operator.port} (sandbox.egress.upstreamProxy) answered 407 Proxy Authentication Required.`,
    );
    expect(setupEgressLine(setup!.egressRefused, stringsFor('de').verification)).toBe(
      `Die Installation konnte dieses Ziel nicht erreichen: ${registryTarget}: der vorgeschaltete Proxy 127.0.0.1:${operator.port} (sandbox.egress.upstreamProxy) antwortete 407 Proxy Authentication Required.`,
    );
    expect(`${line} ${setup!.outputTail}`).not.toContain('not-the-password');
    // The client in the sandbox is told it failed (502 with Wrench's words), not challenged for credentials it does not have.
    expect(setup!.outputTail).toContain('plain 502');
    expect(setup!.outputTail).toContain('tunnel 502');
  }, 60_000);

  it('names the upstream that cannot be reached', async () => {
    const refusals: EgressRefusal[] = [];
    const closed = await startOperatorProxyFake({ user: 'u', password: 'p' });
    await closed.stop();
    const result = await sandboxWith(`http://127.0.0.1:${closed.port}`, refusals).exec(`curl -sS -m 10 ${registry.url}tiny-dep`, {
      cwd: workspace.path,
      timeoutMs: 30_000,
      network: true,
    });
    expect(result.output).toContain(`the upstream proxy 127.0.0.1:${closed.port} (sandbox.egress.upstreamProxy) could not be reached (ECONNREFUSED)`);
    expect(refusals).toEqual([expect.objectContaining({ reason: 'upstream-unreachable', upstreamAnswer: 'ECONNREFUSED' })]);
  }, 40_000);

  it('connects directly to what noProxy names, the upstream unused', async () => {
    const refusals: EgressRefusal[] = [];
    const seenBefore = operator.seen.length;
    const clientsBefore = registry.clients.length;
    const result = await sandboxWith(operator.url, refusals, ['127.0.0.0/8']).exec(
      `curl -sSf -m 10 ${registry.url}tiny-dep -o /dev/null && curl -sSf -m 10 -p ${registry.url}tiny-dep -o /dev/null && echo direct-ok`,
      { cwd: workspace.path, timeoutMs: 30_000, network: true },
    );
    expect(result.output).toContain('direct-ok');
    expect(operator.seen.slice(seenBefore)).toEqual([]);
    expect(registry.clients.slice(clientsBefore)).toEqual(['127.0.0.1', '127.0.0.1']);
  }, 40_000);

  it('sends an allowed name its host cannot resolve to the upstream only when upstreamResolvesNames says so; a name resolving to loopback stays refused', async () => {
    const resolving = await startOperatorProxyFake({ user: 'wrench', password: PASSWORD, hosts: { 'registry.corp.test': '127.0.0.2' } });
    try {
      const port = new URL(registry.url).port;
      const url = `http://registry.corp.test:${port}/tiny-dep`;
      const sandbox = (upstreamResolvesNames: boolean, refusals: EgressRefusal[]) =>
        createBwrapSandbox({
          root: workspace.path,
          egressAllow: [parseAllowEntry(`registry.corp.test:${port}`), parseAllowEntry('localhost')],
          egressUpstream: upstreamProxyFor({ upstreamProxy: resolving.url, upstreamResolvesNames }, {}),
          onEgressRefused: (refusal) => refusals.push(refusal),
        });
      const command = `curl -sS -m 10 -o /dev/null -w 'plain %{http_code}\\n' ${url}; curl -sS -m 10 -p -o /dev/null -w 'tunnel %{http_code}\\n' ${url}; curl -sS -m 10 --noproxy '' -o /dev/null -w 'loopback %{http_code}\\n' https://localhost/`;

      const off: EgressRefusal[] = [];
      const unresolved = await sandbox(false, off).exec(command, { cwd: workspace.path, timeoutMs: 40_000, network: true });
      expect(unresolved.output).toContain('plain 502');
      expect(unresolved.output).toContain('CONNECT tunnel failed, response 502');
      expect(resolving.seen).toEqual([]);

      const on: EgressRefusal[] = [];
      const resolved = await sandbox(true, on).exec(command, { cwd: workspace.path, timeoutMs: 40_000, network: true });
      expect(resolved.output).toContain('plain 200');
      expect(resolved.output).toContain('tunnel 200');
      expect(resolving.seen.map((seen) => `${seen.method} ${seen.target} ${seen.status}`)).toEqual([
        `GET ${url} 200`,
        `CONNECT registry.corp.test:${port} 200`,
      ]);
      // localhost resolves on Wrench's host, to loopback: refused as always, the upstream never asked.
      expect(resolved.output).toContain('CONNECT tunnel failed, response 403');
      expect(on).toEqual([expect.objectContaining({ host: 'localhost', port: 443, reason: 'non-public-address' })]);
    } finally {
      await resolving.stop();
    }
  }, 60_000);
});

describe('an https:// operator proxy, its certificate signed by a company CA (real bwrap)', () => {
  let workspace: TempDir;
  let certificates: ReturnType<typeof writeTestCertificates>;
  let secure: OperatorProxyFake;
  let registry: NpmRegistryFake;
  let registryTarget: string;

  beforeAll(async () => {
    workspace = await makeTempDir('wrench-upstream-tls-');
    certificates = writeTestCertificates(workspace.path);
    const [cert, key] = await Promise.all([readFile(certificates.certFile, 'utf8'), readFile(certificates.keyFile, 'utf8')]);
    secure = await startOperatorProxyFake({ user: 'wrench', password: PASSWORD, tls: { cert, key } });
    registry = await startNpmRegistryFake({ 'tiny-dep': ['1.0.0', '1.1.0'] }, { host: '127.0.0.2' });
    registryTarget = new URL(registry.url).host;
  }, 30_000);

  afterAll(async () => {
    await secure?.stop();
    await registry?.stop();
    await workspace?.remove();
  });

  const sandboxWith = (caFile: string | undefined, refusals: EgressRefusal[]) =>
    createBwrapSandbox({
      root: workspace.path,
      egressAllow: [parseAllowEntry(registryTarget)],
      egressUpstream: upstreamProxyFor({ upstreamProxy: secure.url, caFile }, {}),
      onEgressRefused: (refusal) => refusals.push(refusal),
    });

  it("with the company CA (sandbox.setupCaFile): the setup step's requests go through it inside TLS, with its credentials", async () => {
    expect(secure.url).toMatch(/^https:\/\//);
    const refusals: EgressRefusal[] = [];
    const result = await sandboxWith(certificates.caFile, refusals).exec(
      [`npm view tiny-dep versions --json --registry ${registry.url} > npm-view.json`, `curl -sSf -m 10 -p ${registry.url}tiny-dep -o curl-tunnel.json`].join(
        ' && ',
      ),
      { cwd: workspace.path, timeoutMs: 60_000, network: true },
    );
    expect(result.exitCode, result.output).toBe(0);
    expect(JSON.parse(await readFile(path.join(workspace.path, 'npm-view.json'), 'utf8'))).toEqual(['1.0.0', '1.1.0']);
    expect(JSON.parse(await readFile(path.join(workspace.path, 'curl-tunnel.json'), 'utf8'))).toMatchObject({ name: 'tiny-dep' });
    expect(refusals).toEqual([]);
    expect(secure.seen).toEqual(
      expect.arrayContaining([
        { method: 'GET', target: `${registry.url}tiny-dep`, proxyAuthorization: `Basic ${TOKEN}`, status: 200 },
        { method: 'CONNECT', target: registryTarget, proxyAuthorization: `Basic ${TOKEN}`, status: 200 },
      ]),
    );
    expect(new Set(registry.clients)).toEqual(new Set(['127.0.0.3']));
  }, 90_000);

  it('without the CA, or with another, refuses it naming the certificate error; the proxy never hears a request', async () => {
    const seenBefore = secure.seen.length;
    for (const caFile of [undefined, certificates.otherCaFile]) {
      const refusals: EgressRefusal[] = [];
      const setup = await runSetup({
        sandbox: sandboxWith(caFile, refusals),
        dir: workspace.path,
        commands: {
          setup: `curl -sS -m 10 ${registry.url}tiny-dep -o /dev/null -w 'plain %{http_code}\\n'; curl -sSf -m 10 -p ${registry.url}tiny-dep -o /dev/null -w 'tunnel %{http_connect}\\n'`,
          sources: [],
        },
        timeoutMs: 40_000,
      });
      expect(setup?.passed).toBe(false);
      expect(refusals).toEqual([expect.objectContaining({ host: '127.0.0.2', reason: 'upstream-unreachable', upstream: `127.0.0.1:${secure.port}` })]);
      const line = setupEgressLine(setup!.egressRefused);
      expect(line).toContain(
        `the upstream proxy 127.0.0.1:${secure.port} (sandbox.egress.upstreamProxy) could not be reached (its TLS certificate was refused, `,
      );
      expect(line).toContain(caFile ? `${caFile} (sandbox.setupCaFile)` : 'a company CA goes in sandbox.setupCaFile');
      expect(refusals[0]?.upstreamAnswer).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN/);
      expect(setup!.outputTail).toContain('plain 502');
      expect(setup!.outputTail).toContain('tunnel 502');
    }
    expect(secure.seen.slice(seenBefore)).toEqual([]);
  }, 90_000);
});

describe('a plain-HTTP request sent on to the operator proxy', () => {
  it('names the checked destination in its Host header, not the one the sandbox wrote', async () => {
    const hosts: (string | undefined)[] = [];
    const destination = createServer((req, res) => {
      hosts.push(req.headers.host);
      res.end('ok');
    });
    await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve));
    const port = (destination.address() as AddressInfo).port;
    const operator = await startOperatorProxyFake({ user: 'wrench', password: PASSWORD });
    const proxy = await startEgressProxy({
      policy: { scope: 'registries', allow: [parseAllowEntry(`127.0.0.1:${port}`)] },
      upstream: upstreamProxyFor({ upstreamProxy: operator.url }, {}),
    });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(proxy.socketPath);
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString();
          // The proxy keeps the connection for another request: the body ends the answer.
          if (text.endsWith('\r\n\r\nok')) {
            socket.destroy();
            resolve(text);
          }
        });
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.write(`GET http://127.0.0.1:${port}/x HTTP/1.1\r\nHost: internal.corp.example\r\nConnection: close\r\n\r\n`);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      expect(operator.seen.map((s) => s.target)).toEqual([`http://127.0.0.1:${port}/x`]);
      expect(hosts).toEqual([`127.0.0.1:${port}`]);
    } finally {
      await proxy.close();
      await operator.stop();
      await new Promise((resolve) => destination.close(resolve));
    }
  });
});

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../../app/cli/doctor-checks.js';
import { checkUpstreamProxy } from '../../../app/cli/upstream-proxy-check.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { type NpmRegistryFake, startNpmRegistryFake } from '../../fakes/npm-registry-fake.js';
import { type OperatorProxyFake, startOperatorProxyFake } from '../../fakes/operator-proxy-fake.js';
import { freePort } from '../../helpers/free-port.js';
import { writeTestCertificates } from '../../helpers/secure-redis.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

/**
 * `wrench doctor` asks the upstream proxy as the setup step does: CONNECT to the npm registry (here one on 127.0.0.2,
 * named by npm_config_registry, which the fake company proxy reaches) with the configured credentials.
 */

const RIGHT = 'corp-right-Pa55word';
const WRONG = 'corp-wrong-Pa55word';

describe('wrench doctor: the upstream proxy', () => {
  let operator: OperatorProxyFake;
  let registry: NpmRegistryFake;
  let target: string;
  const check = (env: Record<string, string>) =>
    checkUpstreamProxy(loadConfig(env, '/nonexistent'), { env: { npm_config_registry: registry.url }, home: '/nonexistent', timeoutMs: 5000 });

  beforeAll(async () => {
    operator = await startOperatorProxyFake({ user: 'wrench', password: RIGHT });
    registry = await startNpmRegistryFake({ 'tiny-dep': ['1.0.0'] }, { host: '127.0.0.2' });
    target = new URL(registry.url).host;
  });
  afterAll(async () => {
    await operator?.stop();
    await registry?.stop();
  });

  it('is one of the checks doctor runs, and off without an upstream proxy', async () => {
    expect(ALL_CHECKS).toContain(checkUpstreamProxy);
    expect(await check({})).toMatchObject({ ok: true, skipped: true, detail: expect.stringContaining('off') });
  });

  it("with the right password: ok, with the proxy's status and the time it took", async () => {
    const result = await check({ HTTPS_PROXY: operator.url });
    expect(result).toEqual({
      name: 'Upstream proxy',
      ok: true,
      detail: expect.stringMatching(
        new RegExp(
          `^127\\.0\\.0\\.1:${operator.port} \\(HTTPS_PROXY\\) answered 200 Connection established to CONNECT ${target} \\(the npm registry\\) in \\d+ ms$`,
        ),
      ),
    });
    expect(operator.seen).toContainEqual(expect.objectContaining({ method: 'CONNECT', target, status: 200 }));
  });

  it("with a wrong password: the proxy's 407, and neither the password nor its token in what doctor prints", async () => {
    const result = await check({ HTTPS_PROXY: operator.url.replace(RIGHT, WRONG) });
    expect(result.ok).toBe(false);
    expect(result.detail).toBe(
      `127.0.0.1:${operator.port} (HTTPS_PROXY) answered 407 Proxy Authentication Required to CONNECT ${target}: it refused the user and password given`,
    );
    expect(result.fix).toContain('HTTPS_PROXY');
    const printed = JSON.stringify(result);
    expect(printed).not.toContain(WRONG);
    expect(printed).not.toContain(Buffer.from(`wrench:${WRONG}`).toString('base64'));
  });

  it('with the proxy down: names it as host:port, unreachable', async () => {
    const port = await freePort();
    const result = await check({ HTTPS_PROXY: `http://wrench:${RIGHT}@127.0.0.1:${port}` });
    expect(result).toMatchObject({ ok: false, detail: `cannot connect to the upstream proxy 127.0.0.1:${port} (HTTPS_PROXY): ECONNREFUSED` });
    expect(JSON.stringify(result)).not.toContain(RIGHT);
  });

  describe('an https:// proxy', () => {
    let dir: TempDir;
    let secure: OperatorProxyFake;
    let caFile: string;
    beforeAll(async () => {
      dir = await makeTempDir('wrench-doctor-tls-');
      const certificates = writeTestCertificates(dir.path);
      caFile = certificates.caFile;
      const [cert, key] = await Promise.all([readFile(certificates.certFile, 'utf8'), readFile(certificates.keyFile, 'utf8')]);
      secure = await startOperatorProxyFake({ user: 'wrench', password: RIGHT, tls: { cert, key } });
    });
    afterAll(async () => {
      await secure?.stop();
      await dir?.remove();
    });
    const checkFile = async (yaml: string) => {
      await writeFile(path.join(dir.path, 'wrench.config.yml'), yaml);
      return checkUpstreamProxy(loadConfig({}, dir.path), { env: { npm_config_registry: registry.url }, home: '/nonexistent', timeoutMs: 5000 });
    };

    it('with its CA in sandbox.setupCaFile: ok; without: the certificate error', async () => {
      const trusted = await checkFile(`sandbox:\n  setupCaFile: ${caFile}\n  egress: { upstreamProxy: "${secure.url}" }\n`);
      expect(trusted).toMatchObject({
        ok: true,
        detail: expect.stringContaining(`(sandbox.egress.upstreamProxy) answered 200 Connection established to CONNECT ${target}`),
      });
      const untrusted = await checkFile(`sandbox:\n  egress: { upstreamProxy: "${secure.url}" }\n`);
      expect(untrusted.ok).toBe(false);
      expect(untrusted.detail).toMatch(
        new RegExp(
          `^cannot connect to the upstream proxy 127\\.0\\.0\\.1:${secure.port} \\(sandbox\\.egress\\.upstreamProxy\\): its TLS certificate was refused, .*UNABLE_TO_VERIFY_LEAF_SIGNATURE`,
        ),
      );
      expect(JSON.stringify([trusted, untrusted])).not.toContain(RIGHT);
    });

    it('is checked in sandbox mode none too, where commands with network are pointed at it directly', async () => {
      const result = await checkFile(`sandbox:\n  mode: none\n  setupCaFile: ${caFile}\n  egress: { upstreamProxy: "${secure.url}" }\n`);
      expect(result).toMatchObject({ ok: true, detail: expect.stringContaining('answered 200 Connection established') });
      expect(result.skipped).toBeUndefined();
    });
  });
});

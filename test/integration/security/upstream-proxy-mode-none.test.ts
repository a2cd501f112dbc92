import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobSandbox } from '../../../runners/job-sandbox.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/logger.js';
import { upstreamProxyCredentials } from '../../../src/sandbox/egress/upstream-proxy.js';
import { createRedactor } from '../../../src/security/redact.js';
import { runSetup, runVerification } from '../../../src/verification/run-verification.js';
import { startNpmRegistryFake, type NpmRegistryFake } from '../../fakes/npm-registry-fake.js';
import { type OperatorProxyFake, startOperatorProxyFake } from '../../fakes/operator-proxy-fake.js';
import { writeTestCertificates } from '../../helpers/secure-redis.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

/**
 * `sandbox: { mode: none }` behind a company proxy: there is no egress proxy, so the setup step is pointed at the
 * operator's proxy itself, configured only in wrench.config.yml (or only in Wrench's own HTTPS_PROXY). The registry on
 * 127.0.0.2 is reached only through the fake proxy (onward from 127.0.0.3), which requires Basic credentials. The job's
 * sandbox is built as the service builds it, its secrets holding the proxy's password as the service's do.
 */

const PASSWORD = 'corp-None-s3cret';
const TOKEN = Buffer.from(`wrench:${PASSWORD}`).toString('base64');

describe('the setup step in mode none behind an operator proxy', () => {
  let base: TempDir;
  let operator: OperatorProxyFake;
  let registry: NpmRegistryFake;

  beforeAll(async () => {
    base = await makeTempDir('wrench-upstream-none-');
    operator = await startOperatorProxyFake({ user: 'wrench', password: PASSWORD });
    registry = await startNpmRegistryFake({ 'tiny-dep': ['1.0.0', '1.1.0'] }, { host: '127.0.0.2' });
  }, 30_000);

  afterAll(async () => {
    await operator?.stop();
    await registry?.stop();
    await base?.remove();
  });

  const sandboxFor = async (name: string, egress: string, env: Record<string, string> = {}, more = '') => {
    const configPath = path.join(base.path, `${name}.config.yml`);
    await writeFile(configPath, `sandbox:\n  mode: none\n  egress: ${egress}\n${more}`);
    const config = loadConfig({ WRENCH_CONFIG: configPath, WRENCH_DATA_DIR: path.join(base.path, `${name}-data`), ...env }, base.path);
    const secrets = upstreamProxyCredentials(config).map((credential) => credential.value);
    const workspace = await makeTempDir(`wrench-upstream-none-${name}-`);
    const sandbox = jobSandbox({ config, secrets }, workspace.path, { readOnly: false, log: createLogger({ level: 'silent' }) });
    return { sandbox, secrets, workspace };
  };

  it('installs through the proxy set only in wrench.config.yml, with its credentials; Wrench masks them in what it shows', async () => {
    const { sandbox, secrets, workspace } = await sandboxFor('file', `{ upstreamProxy: "${operator.url}" }`);
    try {
      const seenBefore = operator.seen.length;
      const clientsBefore = registry.clients.length;
      const show = 'echo "https=$HTTPS_PROXY http=$http_proxy npm=$npm_config_https_proxy no=$NO_PROXY"';
      const commands = {
        sources: [],
        // npm sends absolute-form GETs for an http:// registry; curl -p tunnels with CONNECT.
        setup: [
          `npm view tiny-dep versions --json --registry ${registry.url} > npm-view.json`,
          `curl -sSf -m 10 -p ${registry.url}tiny-dep -o curl-tunnel.json`,
          show,
        ].join(' && '),
        test: show,
      };
      const setup = await runSetup({ sandbox, dir: workspace.path, commands, timeoutMs: 60_000 });
      expect(setup?.passed, setup?.outputTail).toBe(true);
      expect(JSON.parse(await readFile(path.join(workspace.path, 'npm-view.json'), 'utf8'))).toEqual(['1.0.0', '1.1.0']);
      expect(JSON.parse(await readFile(path.join(workspace.path, 'curl-tunnel.json'), 'utf8'))).toMatchObject({ name: 'tiny-dep' });
      expect(operator.seen.slice(seenBefore)).toEqual(
        expect.arrayContaining([
          { method: 'GET', target: `${registry.url}tiny-dep`, proxyAuthorization: `Basic ${TOKEN}`, status: 200 },
          { method: 'CONNECT', target: new URL(registry.url).host, proxyAuthorization: `Basic ${TOKEN}`, status: 200 },
        ]),
      );
      expect(new Set(registry.clients.slice(clientsBefore))).toEqual(new Set(['127.0.0.3']));
      expect(setup?.outputTail).toContain(`https=${operator.url} http=${operator.url} npm=${operator.url} no=localhost,127.0.0.1,::1`);

      // What Wrench shows of that output (logs, run page, thread) has neither the password nor its token.
      const shown = createRedactor(secrets)(setup?.outputTail ?? '');
      expect(shown).toContain('https=http://[redacted]@127.0.0.1:');
      expect(shown).not.toContain(PASSWORD);
      expect(shown).not.toContain(TOKEN);

      // The checks have no network, in mode none as under bwrap: no proxy either.
      const checks = await runVerification({ sandbox, dir: workspace.path, commands, timeoutMs: 60_000 });
      expect(checks.test?.outputTail).toContain('https= http= npm= no=');
    } finally {
      await workspace.remove();
    }
  }, 120_000);

  it('uses Wrench\'s own HTTPS_PROXY and NO_PROXY when the config names no proxy, and none when it says ""', async () => {
    const env = { HTTPS_PROXY: operator.url, NO_PROXY: '.corp.example' };
    const fetch = `node -e "fetch('${registry.url}tiny-dep').then((r) => r.json()).then((j) => console.log('fetched', j.name))"`;
    const fromEnv = await sandboxFor('env', '{ allow: [] }', env);
    try {
      const seenBefore = operator.seen.length;
      const setup = await runSetup({
        sandbox: fromEnv.sandbox,
        dir: fromEnv.workspace.path,
        commands: { sources: [], setup: `${fetch} && echo "no=$NO_PROXY"` },
        timeoutMs: 60_000,
      });
      expect(setup?.passed, setup?.outputTail).toBe(true);
      expect(setup?.outputTail).toContain('fetched tiny-dep');
      expect(setup?.outputTail).toContain('no=localhost,127.0.0.1,::1,.corp.example');
      expect(operator.seen.slice(seenBefore)).toEqual([
        expect.objectContaining({ target: expect.stringContaining(new URL(registry.url).host), proxyAuthorization: `Basic ${TOKEN}`, status: 200 }),
      ]);
    } finally {
      await fromEnv.workspace.remove();
    }

    const off = await sandboxFor('off', '{ upstreamProxy: "" }', env);
    try {
      const setup = await runSetup({
        sandbox: off.sandbox,
        dir: off.workspace.path,
        commands: { sources: [], setup: 'echo "https=[$HTTPS_PROXY]"' },
        timeoutMs: 30_000,
      });
      expect(setup?.outputTail).toContain('https=[]');
    } finally {
      await off.workspace.remove();
    }
  }, 120_000);

  it('speaks TLS to an https:// proxy, its certificate checked against sandbox.setupCaFile (npm, Node, git)', async () => {
    const certificates = writeTestCertificates(base.path);
    const [cert, key] = await Promise.all([readFile(certificates.certFile, 'utf8'), readFile(certificates.keyFile, 'utf8')]);
    const secure = await startOperatorProxyFake({ user: 'wrench', password: PASSWORD, tls: { cert, key } });
    // By name: Node's fetch will not speak TLS to a proxy named by its IP address (its certificate names both).
    const byName = secure.url.replace('@127.0.0.1:', '@localhost:');
    const { sandbox, workspace } = await sandboxFor('tls', `{ upstreamProxy: "${byName}" }`, {}, `  setupCaFile: ${certificates.caFile}\n`);
    try {
      const commands = {
        sources: [],
        setup: [
          `npm view tiny-dep versions --json --registry ${registry.url} > npm-view.json`,
          `node -e "fetch('${registry.url}tiny-dep').then((r) => r.json()).then((j) => console.log('fetched', j.name))"`,
          // The fake registry is no git server: what counts is that the request got through the proxy.
          `(git ls-remote ${registry.url}repo.git 2>&1 || true)`,
        ].join(' && '),
      };
      const setup = await runSetup({ sandbox, dir: workspace.path, commands, timeoutMs: 60_000 });
      expect(setup?.passed, setup?.outputTail).toBe(true);
      expect(JSON.parse(await readFile(path.join(workspace.path, 'npm-view.json'), 'utf8'))).toEqual(['1.0.0', '1.1.0']);
      expect(setup?.outputTail).toContain('fetched tiny-dep');
      expect(setup?.outputTail).not.toMatch(/certificate|SSL/i);
      expect(secure.seen).toEqual(
        expect.arrayContaining([
          { method: 'GET', target: `${registry.url}tiny-dep`, proxyAuthorization: `Basic ${TOKEN}`, status: 200 },
          expect.objectContaining({ target: expect.stringContaining('repo.git/info/refs'), proxyAuthorization: `Basic ${TOKEN}` }),
        ]),
      );
    } finally {
      await secure.stop();
      await workspace.remove();
    }
  }, 120_000);
});

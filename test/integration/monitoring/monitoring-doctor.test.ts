import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMonitoringSources } from '../../../app/cli/monitoring-check.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { freePort } from '../../helpers/free-port.js';
import { type PrometheusServer, startBackfilledPrometheus } from '../../helpers/prometheus-server.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let prometheus: PrometheusServer;
let dir: TempDir;
beforeAll(async () => {
  const at = Math.floor(Date.now() / 1000) - 3 * 3600;
  [prometheus, dir] = await Promise.all([startBackfilledPrometheus(`# TYPE up gauge\nup 1 ${at}\n# EOF\n`), makeTempDir('wrench-monitoring-doctor-')]);
}, 60_000);
afterAll(async () => {
  await prometheus?.stop();
  await dir?.remove();
});

/** The configuration as `wrench doctor` reads it: wrench.config.yml in the working directory. */
async function configWith(yaml: string) {
  await writeFile(path.join(dir.path, 'wrench.config.yml'), yaml);
  return loadConfig({}, dir.path);
}

describe('wrench doctor: monitoring sources', () => {
  it('accepts url: "${PROMETHEUS_URL}" and probes the Prometheus it names', async () => {
    const config = await configWith('monitoring:\n  checkout:\n    prometheus:\n      url: "${PROMETHEUS_URL}"\n');
    const result = await checkMonitoringSources(config, { env: { PROMETHEUS_URL: prometheus.url } });
    expect(result).toEqual({ name: 'Monitoring', ok: true, detail: 'checkout (Prometheus answers)' });
  });

  it('fails on a dead URL, a missing MCP command and an unset variable, naming monitoring.<name> for each', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const config = await configWith(
      [
        'monitoring:',
        '  checkout:',
        `    prometheus: { url: "${dead}" }`,
        '  logs:',
        '    mcpServers:',
        '      grafana: { command: wrench-no-such-mcp-server, args: ["-t", "stdio"], tools: [query_loki_logs] }',
        '  billing:',
        '    prometheus: { url: "${BILLING_PROMETHEUS_URL}" }',
        '',
      ].join('\n'),
    );
    const result = await checkMonitoringSources(config, { env: {}, timeoutMs: 3000 });
    expect(result.ok).toBe(false);
    const problems = result.detail.split('\n      ');
    expect(problems).toEqual([
      expect.stringMatching(/^monitoring\.billing\.prometheus\.url uses \$\{BILLING_PROMETHEUS_URL\}, which is not set/),
      `monitoring.checkout.prometheus: Prometheus at ${dead} could not be reached; check monitoring.checkout.prometheus.url.`,
      expect.stringMatching(/^monitoring\.logs: MCP server grafana \(stdio command wrench-no-such-mcp-server\) could not be read/),
    ]);
  });

  it('refuses a substituted URL that is not http(s), and is off without sources', async () => {
    const config = await configWith('monitoring:\n  checkout:\n    prometheus: { url: "${PROMETHEUS_URL}" }\n');
    const result = await checkMonitoringSources(config, { env: { PROMETHEUS_URL: 'prometheus.internal:9090' } });
    expect(result.detail).toBe("monitoring.checkout.prometheus.url is not an http(s) URL once its ${…} are substituted; check the variable's value.");
    expect(await checkMonitoringSources(await configWith('repos: []\n'))).toMatchObject({ ok: true, skipped: true });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsHandler } from '../../../handlers/metrics.js';
import { createMetrics } from '../../../src/metrics/metrics.js';

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function serve(env: Parameters<typeof metricsHandler>[0]) {
  const metrics = createMetrics();
  metrics.runs.inc({ category: 'testing', outcome: 'pr_opened' });
  const handler = metricsHandler(env, metrics);
  const server = http.createServer((req, res) => void handler(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
}

describe('GET /metrics', () => {
  it('is off by default and says how to turn it on', async () => {
    const response = await fetch(await serve({ WRENCH_METRICS: 'off' }));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('WRENCH_METRICS=on');
  });

  it('with a token, answers only the right bearer token', async () => {
    const url = await serve({ WRENCH_METRICS: 'off', WRENCH_METRICS_TOKEN: 'token-0123456789abcdef' });
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer token-0123456789abcdeX' } })).status).toBe(401);
    const ok = await fetch(url, { headers: { authorization: 'Bearer token-0123456789abcdef' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await ok.text()).toContain('wrench_runs_total{category="testing",outcome="pr_opened"} 1');
  });

  it('when on, is open in the Prometheus text format', async () => {
    const response = await fetch(await serve({ WRENCH_METRICS: 'on' }));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('# TYPE wrench_run_phase_duration_seconds histogram');
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { metricsHandler } from '../../../handlers/metrics.js';
import { startHealthServer } from '../../../src/http/health-server.js';
import { createMetrics } from '../../../src/metrics/metrics.js';

describe('a worker process’s HTTP port', () => {
  let server: http.Server;
  afterAll(() => server?.close());

  it('serves /healthz and, beside it, /metrics; anything else is a 404 naming both', async () => {
    const metrics = createMetrics();
    metrics.sandboxFailures.inc({ reason: 'timeout' });
    const serveMetrics = metricsHandler({ WRENCH_METRICS: 'on' }, metrics);
    server = await startHealthServer(0, {
      '/healthz': (_req, res) => res.end('{"status":"ok"}'),
      '/metrics': (req, res) => void serveMetrics(req, res),
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await (await fetch(`${base}/healthz`)).text()).toBe('{"status":"ok"}');
    expect(await (await fetch(`${base}/metrics?x=1`)).text()).toContain('wrench_sandbox_failures_total{reason="timeout"} 1');
    const other = await fetch(`${base}/runs/abc`);
    expect(other.status).toBe(404);
    expect(await other.text()).toContain('GET /healthz, /metrics');
  });
});

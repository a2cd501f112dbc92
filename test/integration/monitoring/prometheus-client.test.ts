import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChangePoint } from '../../../src/monitoring/change-point.js';
import { gatherMetricEvidence } from '../../../src/monitoring/metric-evidence.js';
import { PrometheusClient } from '../../../src/monitoring/prometheus-client.js';
import { freePort } from '../../helpers/free-port.js';
import { type PrometheusServer, startBackfilledPrometheus } from '../../helpers/prometheus-server.js';

// Three hours ago, aligned to the minute: a steady error rate for 40 minutes, then a jump.
const start = Math.floor(Date.now() / 1000 / 60) * 60 - 3 * 3600;
const jumpAt = start + 40 * 60;

function history(): string {
  const lines = ['# TYPE http_errors_per_second gauge'];
  for (let minute = 0; minute < 60; minute++) {
    const time = start + minute * 60;
    const base = time < jumpAt ? 1 : 6;
    const wobble = ((minute * 7) % 5) / 50;
    lines.push(`http_errors_per_second{service="checkout"} ${base + wobble} ${time}`);
    lines.push(`http_errors_per_second{service="search"} ${0.5 + wobble} ${time}`);
  }
  lines.push('# EOF', '');
  return lines.join('\n');
}

let prometheus: PrometheusServer;
beforeAll(async () => {
  prometheus = await startBackfilledPrometheus(history());
}, 60_000);
afterAll(() => prometheus?.stop());

describe('PrometheusClient against the real Prometheus', () => {
  it('reads a range around the incident and the change point lands on the minute of the jump', async () => {
    const client = new PrometheusClient({ url: prometheus.url });
    const [series] = await client.queryRange({ query: 'http_errors_per_second{service="checkout"}', start, end: start + 59 * 60, step: 60 });
    expect(series.labels.service).toBe('checkout');
    expect(series.samples.length).toBe(60);
    expect(findChangePoint(series.samples)?.time).toBe(jumpAt);
  });

  it('answers instant queries', async () => {
    const client = new PrometheusClient({ url: prometheus.url });
    const series = await client.queryInstant('sum(http_errors_per_second)', start + 10 * 60);
    expect(series[0].samples[0].value).toBeGreaterThan(1);
  });

  it('bounds the number of points by widening the step', async () => {
    const client = new PrometheusClient({ url: prometheus.url }, { maxPoints: 10 });
    const [series] = await client.queryRange({ query: 'http_errors_per_second{service="checkout"}', start, end: start + 59 * 60, step: 1 });
    expect(series.samples.length).toBeLessThanOrEqual(11);
  });

  it('names an invalid query, a result that is too large, and an unreachable server', async () => {
    const client = new PrometheusClient({ url: prometheus.url }, { maxSeries: 1 });
    await expect(client.queryRange({ query: 'sum(', start, end: start + 600 })).rejects.toMatchObject({ code: 'prometheus_bad_query' });
    await expect(client.queryRange({ query: 'http_errors_per_second', start, end: start + 600 })).rejects.toMatchObject({
      code: 'prometheus_result_too_large',
    });
    await expect(client.queryRange({ query: 'up', start: start + 600, end: start })).rejects.toMatchObject({ code: 'prometheus_bad_range' });
    const nobody = new PrometheusClient({ url: `http://127.0.0.1:${await freePort()}` });
    await expect(nobody.queryInstant('up')).rejects.toMatchObject({ code: 'prometheus_unreachable' });
  });
});

describe('gatherMetricEvidence against the real Prometheus', () => {
  const commit = (sha: string, at: number) => ({ sha, subject: `change ${sha}`, author: 'dev', date: new Date(at * 1000).toISOString(), files: [] });

  it('puts the change point next to the commit and pull request just before it, and names a query it could not read', async () => {
    const client = new PrometheusClient({ url: prometheus.url });
    const evidence = await gatherMetricEvidence(
      client,
      { errors: 'sum by (service) (http_errors_per_second)', broken: 'rate(' },
      { start, end: start + 59 * 60, step: 60 },
      {
        commits: [commit('aaa', jumpAt - 20 * 60), commit('bbb', jumpAt - 2 * 60), commit('ccc', jumpAt + 5 * 60)],
        pulls: [
          { number: 7, title: 'Retry payments', mergedAt: new Date((jumpAt - 3 * 60) * 1000).toISOString(), url: 'https://github.com/acme/checkout/pull/7' },
        ],
      },
    );
    const [errors] = evidence.findings;
    expect(errors.changePoint?.time).toBe(jumpAt);
    expect(errors.changePoint?.labels.service).toBe('checkout');
    expect(errors.commitBefore?.sha).toBe('bbb');
    expect(errors.pullBefore?.number).toBe(7);
    expect(evidence.unreadable).toEqual([expect.stringMatching(/^broken \(rate\(\): Prometheus rejected the query/)]);
  });

  it('with Prometheus unreachable it still returns, naming every query it could not read', async () => {
    const client = new PrometheusClient({ url: `http://127.0.0.1:${await freePort()}` });
    const evidence = await gatherMetricEvidence(client, { errors: 'up' }, { start, end: start + 600 });
    expect(evidence.findings).toEqual([]);
    expect(evidence.unreadable).toEqual([expect.stringMatching(/errors \(up\): Prometheus at .* could not be reached/)]);
  });
});

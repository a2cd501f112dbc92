import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  // A metric with 5,000 series (a query someone forgot to aggregate).
  lines.push('# TYPE wide gauge');
  for (let pod = 0; pod < 5000; pod++) lines.push(`wide{pod="pod-${pod}"} 1 ${start + 600}`);
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
    expect(series!.labels.service).toBe('checkout');
    expect(series!.samples.length).toBe(60);
    expect(findChangePoint(series!.samples)?.time).toBe(jumpAt);
  });

  it('answers instant queries', async () => {
    const client = new PrometheusClient({ url: prometheus.url });
    const series = await client.queryInstant('sum(http_errors_per_second)', start + 10 * 60);
    expect(series[0]!.samples[0]!.value).toBeGreaterThan(1);
  });

  it('bounds the number of points by widening the step', async () => {
    const client = new PrometheusClient({ url: prometheus.url }, { maxPoints: 10 });
    const [series] = await client.queryRange({ query: 'http_errors_per_second{service="checkout"}', start, end: start + 59 * 60, step: 1 });
    expect(series!.samples.length).toBeLessThanOrEqual(11);
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

/** A server on loopback that handles each request with `handle`; closed after the test. */
async function withServer(handle: (request: IncomingMessage, response: ServerResponse) => void, test: (url: string) => Promise<void>) {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await test(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('PrometheusClient: bounded answers', () => {
  it('refuses a 5,000-series answer of the real Prometheus by its size, before parsing it', async () => {
    const client = new PrometheusClient({ url: prometheus.url }, { maxResponseBytes: 64 * 1024, maxSeries: 10_000 });
    await expect(client.queryInstant('wide', start + 600)).rejects.toMatchObject({
      code: 'prometheus_result_too_large',
      message: 'The answer to wide is larger than 64 KiB; aggregate it (sum by (…)) or narrow the selector.',
    });
  });

  it('names the API path of a request without a query whose answer is too large', async () => {
    await withServer(
      (_request, response) => {
        const body = JSON.stringify({ status: 'success', data: Array.from({ length: 2_000 }, (_, i) => `label_${i}`) });
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        response.end(body);
      },
      async (url) => {
        const client = new PrometheusClient({ url }, { maxResponseBytes: 1024 });
        await expect(client.labelNames({ start, end: start + 600 })).rejects.toMatchObject({
          code: 'prometheus_result_too_large',
          message: 'The answer to /api/v1/labels is larger than 1 KiB; aggregate it (sum by (…)) or narrow the selector.',
        });
      },
    );
  });

  it('stops reading an answer that never ends once it passes the limit (no Content-Length)', async () => {
    let written = 0;
    await withServer(
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"status":"success","data":{"resultType":"vector","result":[');
        const more = () => {
          if (response.destroyed) return;
          written += 16 * 1024;
          response.write(`${'{"metric":{},"value":[1,"1"]},'.repeat(512)}`, () => setImmediate(more));
        };
        more();
      },
      async (url) => {
        const client = new PrometheusClient({ url }, { maxResponseBytes: 256 * 1024, timeoutMs: 30_000 });
        await expect(client.queryInstant('up')).rejects.toMatchObject({ code: 'prometheus_result_too_large' });
      },
    );
    expect(written).toBeLessThan(8 * 1024 * 1024);
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
    expect(errors!.changePoint?.time).toBe(jumpAt);
    expect(errors!.changePoint?.labels.service).toBe('checkout');
    expect(errors!.commitBefore?.sha).toBe('bbb');
    expect(errors!.pullBefore?.number).toBe(7);
    expect(evidence.unreadable).toEqual([expect.stringMatching(/^broken \(rate\(\): Prometheus rejected the query/)]);
  });

  it('asks all its queries at once under one deadline and names each that did not answer by then', async () => {
    const asked: string[] = [];
    await withServer(
      (request) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => asked.push(new URLSearchParams(body).get('query') ?? ''));
      },
      async (url) => {
        const client = new PrometheusClient({ url }, { timeoutMs: 10_000 });
        const queries = { a: 'up', b: 'sum(up)', c: 'count(up)', d: 'max(up)' };
        const evidence = await gatherMetricEvidence(client, queries, { start, end: start + 600 }, undefined, { deadlineMs: 400 });
        expect(evidence.unreadable).toEqual(
          Object.entries(queries).map(
            ([name, query]) => `${name} (${query}): Prometheus at ${url}: no answer within the 0.4 s the triage gives all its metric queries together`,
          ),
        );
      },
    );
    // All four were asked before the deadline: one after another, only the first would have been.
    expect(asked.sort()).toEqual(['count(up)', 'max(up)', 'sum(up)', 'up']);
  });

  it('with Prometheus unreachable it still returns, naming every query it could not read', async () => {
    const client = new PrometheusClient({ url: `http://127.0.0.1:${await freePort()}` });
    const evidence = await gatherMetricEvidence(client, { errors: 'up' }, { start, end: start + 600 });
    expect(evidence.findings).toEqual([]);
    expect(evidence.unreadable).toEqual([expect.stringMatching(/errors \(up\): Prometheus at .* could not be reached/)]);
  });
});

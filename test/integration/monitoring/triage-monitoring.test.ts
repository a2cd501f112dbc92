import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryMetricsTool } from '../../../src/agent/tools/query-metrics-tool.js';
import { PrometheusClient } from '../../../src/monitoring/prometheus-client.js';
import { openTriageMonitoring, type TriageMonitoring, type TriageMonitoringOptions } from '../../../src/monitoring/triage-monitoring.js';
import { freePort } from '../../helpers/free-port.js';
import { type LogLine, type McpHttpServer, startMcpLogHttpServer } from '../../helpers/mcp-log-server.js';
import { type PrometheusServer, startBackfilledPrometheus } from '../../helpers/prometheus-server.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const LOG_SERVER = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..'), 'test/helpers/mcp-log-server.ts');
const signal = new AbortController().signal;

// Three hours ago on the minute: a steady error rate, a jump at jumpAt (two minutes after the suspect commit), the incident at jumpAt + 5 min.
const base = Math.floor(Date.now() / 1000 / 60) * 60 - 3 * 3600;
const jumpAt = base + 60 * 60;
const incidentAt = jumpAt + 5 * 60;
const rampAt = jumpAt - 20 * 60 + 20;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

function history(): string {
  const lines = ['# TYPE http_errors_per_second gauge', '# TYPE http_error_ratio gauge'];
  // A counter scraped every 15 s, its error rate stepping from 1/s to 6/s at jumpAt: rate(…[5m]) turns that into a 5-minute ramp.
  const counter = ['# TYPE http_requests counter'];
  for (let time = base; time < base + 120 * 60; time += 15) {
    const total = time <= jumpAt ? time - base : jumpAt - base + 6 * (time - jumpAt);
    counter.push(`http_requests_total{service="checkout",code="500"} ${total} ${time}`);
  }
  for (let minute = 0; minute < 120; minute++) {
    const time = base + minute * 60;
    const wobble = ((minute * 7) % 5) / 50;
    lines.push(`http_errors_per_second{service="checkout"} ${(time < jumpAt ? 1 : 6) + wobble} ${time}`);
    lines.push(`http_error_ratio{service="checkout"} ${(time < jumpAt ? 0.01 : 0.12) + wobble / 100} ${time}`);
    for (const pod of ['a', 'b', 'c']) lines.push(`pod_up{pod="${pod}"} 1 ${time}`);
  }
  // Traffic that steps up at the same time every day: today at jumpAt, and a week earlier at the same minute.
  const traffic = ['# TYPE checkout_requests_per_second gauge'];
  for (const day of [7, 0]) {
    for (let minute = 0; minute < 120; minute++) {
      const time = base - day * 86_400 + minute * 60;
      traffic.push(`checkout_requests_per_second ${(minute < 60 ? 100 : 300) + ((minute * 7) % 5)} ${time}`);
    }
  }
  // One route's latency rising gradually: ten minutes from 0.2 s to 0.8 s, from rampAt (20 s past a minute), scraped every 15 s.
  const latency = ['# TYPE route_latency_seconds gauge'];
  for (let time = base; time < base + 120 * 60; time += 15) {
    const level = time <= rampAt ? 0.2 : time >= rampAt + 600 ? 0.8 : 0.2 + (0.6 * (time - rampAt)) / 600;
    latency.push(`route_latency_seconds{route="/pay"} ${(level + ((((time / 15) * 7) % 5) - 2) / 100).toFixed(4)} ${time}`);
  }
  lines.push(...counter, ...traffic, ...latency, '# EOF', '');
  return lines.join('\n');
}

const ALERT_EXPR = 'avg(http_error_ratio{service="checkout"}) > 0.05';
const RULES = [
  'groups:',
  '  - name: checkout',
  '    rules:',
  '      - alert: HighErrorRate',
  `        expr: ${JSON.stringify(ALERT_EXPR)}`,
  '        for: 5m',
  '        annotations: { summary: "error ratio above 5%" }',
  '      - alert: CheckoutDown',
  '        expr: vector(1) > 0',
  '        labels: { severity: page }',
  '',
].join('\n');
const alertmanagerAlert = {
  summary: '[FIRING:1] HighErrorRate checkout',
  body: {
    details: {
      firing: `Labels:\n - alertname = HighErrorRate\nAnnotations:\n - summary = error ratio above 5%\nSource: http://prometheus-0:9090/graph?g0.expr=${encodeURIComponent(ALERT_EXPR)}&g0.tab=1\n`,
      num_firing: '1',
    },
  },
};
const commit = (sha: string, at: number) => ({ sha: sha.padEnd(40, '0'), subject: `change ${sha}`, author: 'dev', date: iso(at), files: [] });
const changes = {
  commits: [commit('aaaaaaa', jumpAt - 40 * 60), commit('bbbbbbb', jumpAt - 2 * 60), commit('ccccccc', jumpAt + 3 * 60)],
  pulls: [{ number: 7, title: 'Retry payments', mergedAt: iso(jumpAt - 3 * 60), url: 'https://github.com/acme/checkout/pull/7' }],
};
const LINES: LogLine[] = [{ time: iso(jumpAt + 30), level: 'error', message: 'POST /pay 500 TypeError' }];

let prometheus: PrometheusServer;
let http: McpHttpServer;
let dir: TempDir;
const opened: TriageMonitoring[] = [];
beforeAll(async () => {
  [prometheus, http, dir] = await Promise.all([
    startBackfilledPrometheus(history(), { rules: RULES }),
    startMcpLogHttpServer(LINES, { token: 'logs-http-token-42' }),
    makeTempDir('wrench-triage-monitoring-'),
  ]);
  await writeFile(path.join(dir.path, 'lines.json'), JSON.stringify(LINES));
  await writeFile(path.join(dir.path, 'prometheus-token'), 'prom-file-token-77\n');
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((one) => one.close()));
  await Promise.all([prometheus?.stop(), http?.stop()]);
  await dir?.remove();
});

describe('query_metrics against the real Prometheus', () => {
  const tool = () =>
    createQueryMetricsTool({
      client: new PrometheusClient({ url: prometheus.url }, { maxSeries: 2 }),
      prometheusUrl: prometheus.url,
      window: { start: incidentAt - 3600, end: incidentAt + 1800 },
      maxOutputChars: 3000,
    });

  it('answers a range query with the points and the change point, quoted as untrusted data, with a graph link', async () => {
    const result = await tool().execute({ query: 'sum(http_errors_per_second)' }, { signal });
    expect(result.isError).toBeFalsy();
    expect(result.content.startsWith('<untrusted source="prometheus">\n')).toBe(true);
    expect(result.content).toContain(
      `range query from ${iso(incidentAt - 3600).replace('.000Z', 'Z')} to ${iso(incidentAt + 1800).replace('.000Z', 'Z')}: 1 series`,
    );
    expect(result.content).toContain(`change point at ${iso(jumpAt).replace('.000Z', 'Z')} (began after ${iso(jumpAt - 60).replace('.000Z', 'Z')}) from 1.0`);
    const graph = new URL(/Graph: (\S+)/.exec(result.content)![1]!);
    expect(graph.origin + graph.pathname).toBe(`${prometheus.url}/graph`);
    expect(graph.searchParams.get('g0.expr')).toBe('sum(http_errors_per_second)');
  });

  it('answers an instant query at a given time', async () => {
    const result = await tool().execute({ query: 'sum(http_errors_per_second)', mode: 'instant', time: iso(jumpAt + 600) }, { signal });
    expect(result.content).toMatch(/instant query at .*: 1 series[\s\S]*series \{\}: 1 points, min 6(\.\d+)?, max/);
  });

  it('lists label names and values, the series of a selector and metadata, bounded and quoted as untrusted data', async () => {
    const labels = await tool().execute({ mode: 'labels' }, { signal });
    expect(labels.content).toMatch(/^<untrusted source="prometheus">\nlabel names: \d+\n/);
    expect(labels.content).toContain('\nservice\n');
    const values = await tool().execute({ mode: 'label_values', label: 'pod', match: 'pod_up' }, { signal });
    expect(values.content).toContain('values of label pod in pod_up: 3\na\nb\nc\n</untrusted>');
    const series = await tool().execute({ mode: 'series', match: 'http_errors_per_second' }, { signal });
    expect(series.content).toContain('series matching http_errors_per_second: 1\n{__name__="http_errors_per_second", service="checkout"}');
    // History loaded with promtool carries no metadata (only scraped targets do): an honest empty answer.
    expect((await tool().execute({ mode: 'metadata' }, { signal })).content).toContain('metric metadata: 0 (none)');
    expect(await tool().execute({ mode: 'series' }, { signal })).toMatchObject({ isError: true, content: expect.stringContaining('series needs match') });
    expect(await tool().execute({ mode: 'label_values', label: 'bad-name' }, { signal })).toMatchObject({
      isError: true,
      content: expect.stringContaining('is not a label name'),
    });
    const small = createQueryMetricsTool({
      client: new PrometheusClient({ url: prometheus.url }),
      prometheusUrl: prometheus.url,
      window: { start: base, end: base + 7200 },
      maxOutputChars: 60,
    });
    expect((await small.execute({ mode: 'series', match: 'pod_up' }, { signal })).content).toMatch(/more characters left out\)\n<\/untrusted>$/);
  });

  it('lists the alerting rules with their state, active alerts and a graph link, and the alerts firing now', async () => {
    await expect.poll(async () => (await tool().execute({ mode: 'alerts' }, { signal })).content, { timeout: 15_000 }).toContain('CheckoutDown firing since');
    const rules = await tool().execute({ mode: 'rules' }, { signal });
    expect(rules.content).toContain('alerting rules: 2');
    expect(rules.content).toContain(
      'rule HighErrorRate (group checkout): inactive, health ok, for 300s\n  expr: avg(http_error_ratio{service="checkout"}) > 0.05\n  summary: error ratio above 5%',
    );
    expect(rules.content).toMatch(
      /rule CheckoutDown \(group checkout\): firing, health ok\n {2}expr: vector\(1\) > 0\n {2}alert firing since \S+ \{alertname="CheckoutDown", severity="page"\} value 1/,
    );
    const graph = new URL(/graph: (\S+)/.exec(rules.content)![1]!);
    expect(graph.searchParams.get('g0.expr')).toBe(ALERT_EXPR);
  });

  it('turns invalid PromQL, too many series, bad times and bad input into error results the agent can act on', async () => {
    const invalid = await tool().execute({ query: 'sum(' }, { signal });
    expect(invalid).toMatchObject({ isError: true, content: expect.stringMatching(/^query_metrics could not read sum\(: Prometheus rejected the query/) });
    const wide = await tool().execute({ query: 'pod_up' }, { signal });
    expect(wide).toMatchObject({ isError: true, content: expect.stringContaining('returned 3 series (the limit is 2); aggregate it') });
    expect(await tool().execute({ query: 'up', start: 'yesterday' }, { signal })).toMatchObject({ isError: true });
    expect(await tool().execute({ nonsense: true }, { signal })).toMatchObject({
      isError: true,
      content: expect.stringContaining('Invalid query_metrics input'),
    });
  });
});

describe('openTriageMonitoring: the evidence of a triage', () => {
  const options = (overrides: Partial<TriageMonitoringOptions> = {}): TriageMonitoringOptions => ({
    file: {
      monitoring: {
        checkout: {
          prometheus: {
            url: prometheus.url,
            headers: { authorization: `Bearer \${file:${path.join(dir.path, 'prometheus-token')}}` },
            queries: { errors: 'sum by (service) (http_errors_per_second)', broken: 'rate(' },
          },
          mcpServers: {
            logs: { url: http.url, headers: { authorization: 'Bearer ${LOGS_TOKEN}' }, tools: ['search_logs'] },
            stdiologs: {
              command: process.execPath,
              args: [LOG_SERVER],
              env: { MCP_LOG_FILE: path.join(dir.path, 'lines.json'), LOGS_API_TOKEN: '${LOGS_TOKEN}' },
              tools: ['search_logs', 'show_env'],
            },
          },
        },
      },
      pagerduty: { services: { PABC123: { repo: 'acme/checkout', channel: 'C0INC', monitoring: 'checkout' } }, commitWindowHours: 24 } as never,
      channels: {},
    },
    env: { LOGS_TOKEN: 'logs-http-token-42' },
    serviceId: 'PABC123',
    channel: 'C0INC',
    incidentStart: new Date(incidentAt * 1000),
    alerts: [alertmanagerAlert],
    changes,
    ...overrides,
  });
  const open = async (overrides: Partial<TriageMonitoringOptions> = {}) => {
    const monitoring = await openTriageMonitoring(options(overrides));
    if (monitoring) opened.push(monitoring);
    return monitoring;
  };

  it("reads the alert's own expression and the configured queries, puts the change points next to the commit and PR before them, and offers the tools", async () => {
    const monitoring = (await open())!;
    const { summary } = monitoring;
    expect(summary.window).toEqual({ start: incidentAt - 3600, end: incidentAt + 1800, step: 60 });
    expect(summary.changes.map((change) => [change.name, change.query, change.at, change.commit?.sha.slice(0, 7), change.pull?.number])).toEqual([
      ['alert', 'avg(http_error_ratio{service="checkout"})', jumpAt, 'bbbbbbb', 7],
      ['errors', 'sum by (service) (http_errors_per_second)', jumpAt, 'bbbbbbb', 7],
    ]);
    expect(new URL(summary.changes[0]!.graphUrl!).searchParams.get('g0.expr')).toBe('avg(http_error_ratio{service="checkout"})');
    expect(summary.unreadable).toEqual([expect.stringMatching(/^broken \(rate\(\): Prometheus rejected the query/)]);
    expect(monitoring.tools.map((tool) => tool.name)).toEqual([
      'query_metrics',
      'mcp__logs__search_logs',
      'mcp__stdiologs__search_logs',
      'mcp__stdiologs__show_env',
    ]);
    expect(monitoring.contextText).toContain(`alert changed at ${new Date(jumpAt * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect(monitoring.contextText).toContain('last commit before: bbbbbbb "change bbbbbbb"');
    expect(monitoring.contextText).toContain('- mcp__logs__search_logs');
    // The rule behind the alert, read from Prometheus: linked in the report and named in the agent's context.
    expect(summary.rules).toEqual([
      { name: 'HighErrorRate', group: 'checkout', state: 'inactive', query: ALERT_EXPR, graphUrl: expect.stringContaining(`${prometheus.url}/graph?g0.expr=`) },
    ]);
    expect(monitoring.contextText).toContain(`- alerting rule HighErrorRate (group checkout): inactive; expr: ${ALERT_EXPR}`);

    const logs = await monitoring.tools[1]!.execute({ text: 'TypeError' }, { signal });
    expect(logs.content).toContain('POST /pay 500 TypeError');
    // A server that echoes the credential it was given never hands it to the agent.
    const echoed = await monitoring.tools[3]!.execute({}, { signal });
    expect(echoed.content).toContain('token=[redacted]');
    expect(echoed.content).not.toContain('logs-http-token-42');

    const chart = (await monitoring.chart([{ sha: 'ccccccc' }]))!;
    expect(chart.png.subarray(1, 4).toString()).toBe('PNG');
    expect(chart.title).toBe('alert around the incident');
    expect(chart.comment).toContain('last commit before: bbbbbbb');
  }, 30_000);

  it('names the commit before the onset of a rate over [5m], not one inside its ramp, and lists those landed as it began as candidates', async () => {
    const query = 'sum(rate(http_requests_total{service="checkout",code="500"}[5m]))';
    const monitoring = (await open({
      alerts: [],
      changes: {
        commits: [commit('aaaaaaa', jumpAt - 40 * 60), commit('bbbbbbb', jumpAt - 2 * 60), commit('ccccccc', jumpAt + 30), commit('ddddddd', jumpAt + 2 * 60)],
        pulls: [],
      },
      file: { ...options().file, monitoring: { checkout: { prometheus: { url: prometheus.url, headers: {}, queries: { errors: query } }, mcpServers: {} } } },
    }))!;
    const [change] = monitoring.summary.changes;
    // The least-squares split falls mid-ramp (where "the commit at or before it" would be ddddddd); the onset is the first minute after the jump.
    expect(change!.at).toBe(jumpAt + 60);
    expect(change!.from).toBe(jumpAt);
    expect(change!.commit?.sha.slice(0, 7)).toBe('bbbbbbb');
    expect(change!.candidates?.map((one) => one.sha.slice(0, 7))).toEqual(['ccccccc']);
    expect(monitoring.contextText).toContain('last commit before: bbbbbbb');
    expect(monitoring.contextText).toMatch(/landed while it began, any may be the cause, nearest first: 1\. ccccccc/);
    expect(monitoring.contextText).not.toContain('ddddddd');
    // Without an alert expression to match, the rules firing now are the ones linked.
    expect(monitoring.summary.rules?.map((rule) => [rule.name, rule.state, rule.activeAt !== undefined])).toEqual([['CheckoutDown', 'firing', true]]);
  }, 30_000);

  it('a gradual rise on one route: the onset holds its real start, and the commit that landed then is the first of the ranked candidates', async () => {
    const query = 'route_latency_seconds{route="/pay"}';
    const commits = [commit('d0c5000', rampAt - 6 * 60), commit('c0ffee0', rampAt - 10), commit('e1e1e1e', rampAt + 45), commit('f2f2f2f', rampAt + 5 * 60)];
    const monitoring = (await open({
      alerts: [],
      changes: { commits, pulls: [] },
      file: { ...options().file, monitoring: { checkout: { prometheus: { url: prometheus.url, headers: {}, queries: { pay: query } }, mcpServers: {} } } },
    }))!;
    const [change] = monitoring.summary.changes;
    expect(change).toBeDefined();
    // The real start is inside the onset, which is no wider than three minutes.
    expect(change!.from!).toBeLessThan(rampAt);
    expect(change!.at).toBeGreaterThanOrEqual(rampAt);
    expect(change!.at - change!.from!).toBeLessThanOrEqual(180);
    // Every commit that went in inside the onset is a candidate, nearest the fitted start first, each with why.
    const inside = commits.filter((one) => Date.parse(one.date) / 1000 > change!.from! && Date.parse(one.date) / 1000 <= change!.at);
    expect(change!.candidates?.map((one) => one.sha).sort()).toEqual(inside.map((one) => one.sha).sort());
    expect(change!.candidates?.[0]?.sha.slice(0, 7)).toBe('c0ffee0');
    expect(change!.candidates?.[0]?.why).toMatch(/^committed \d+ s (before|after) the fitted start of the change \(\d\d:\d\d:\d\d UTC\)$/);
    expect(change!.commit?.sha.slice(0, 7)).toBe('d0c5000');
    expect(monitoring.contextText).toMatch(
      /landed while it began, any may be the cause, nearest first: 1\. c0ffee0 "change c0ffee0" \([^)]*\): committed \d+ s/,
    );
    expect(monitoring.contextText).not.toContain('f2f2f2f');
  }, 30_000);

  it('does not call a change that happened the same way a week earlier a change, and takes the window from the source', async () => {
    const source = (window?: { minutesBefore: number; minutesAfter: number; compareWeekEarlier: boolean }) => ({
      file: {
        ...options().file,
        monitoring: {
          checkout: {
            prometheus: { url: prometheus.url, headers: {}, queries: { traffic: 'sum(checkout_requests_per_second)', errors: 'sum(http_errors_per_second)' } },
            mcpServers: {},
            ...(window ? { window } : {}),
          },
        },
      },
      alerts: [],
    });
    const monitoring = (await open(source({ minutesBefore: 40, minutesAfter: 20, compareWeekEarlier: true })))!;
    expect(monitoring.summary.window).toEqual({ start: incidentAt - 40 * 60, end: incidentAt + 20 * 60, step: 60 });
    expect(monitoring.summary.changes.map((change) => change.name)).toEqual(['errors']);
    expect(monitoring.summary.recurring).toEqual([
      expect.objectContaining({
        name: 'traffic',
        at: jumpAt,
        weekEarlierAt: jumpAt - 7 * 86_400,
        before: expect.closeTo(102, 0),
        after: expect.closeTo(302, 0),
      }),
    ]);
    expect(monitoring.contextText).toContain(
      `- traffic changed at ${new Date(jumpAt * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC from 102 to 301.9, as it did a week earlier (at ${new Date((jumpAt - 7 * 86_400) * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC): a recurring pattern, not counted as a change`,
    );
    const uncompared = (await open(source({ minutesBefore: 60, minutesAfter: 30, compareWeekEarlier: false })))!;
    expect(uncompared.summary.changes.map((change) => change.name)).toEqual(['traffic', 'errors']);
    expect(uncompared.summary.recurring).toBeUndefined();
  }, 30_000);

  it('with Prometheus down it still returns the MCP tools and names every query it could not read', async () => {
    const down = options();
    const source = down.file.monitoring.checkout;
    const monitoring = (await open({
      file: { ...down.file, monitoring: { checkout: { ...source!, prometheus: { ...source!.prometheus!, url: `http://127.0.0.1:${await freePort()}` } } } },
    }))!;
    expect(monitoring.summary.changes).toEqual([]);
    expect(monitoring.summary.unreadable).toEqual([
      expect.stringMatching(/^alert \(avg\(http_error_ratio\{service="checkout"\}\)\): Prometheus at http:\/\/127\.0\.0\.1:\d+ could not be reached/),
      expect.stringMatching(/^errors \(.*\): Prometheus at .* could not be reached/),
      expect.stringMatching(/^broken \(rate\(\): Prometheus at .* could not be reached/),
      expect.stringMatching(/^The alerting rules could not be read: Prometheus at .* could not be reached; check monitoring\.checkout\.prometheus\.url\./),
    ]);
    expect(monitoring.tools.map((tool) => tool.name)).toContain('mcp__logs__search_logs');
    expect(await monitoring.chart([])).toBeUndefined();
    expect(monitoring.contextText).toContain('Could not read');
  }, 30_000);

  it('names a Prometheus that does not answer in time, and still offers the MCP tools', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const down = options();
      const source = down.file.monitoring.checkout;
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const monitoring = (await open({
        file: { ...down.file, monitoring: { checkout: { ...source!, prometheus: { ...source!.prometheus!, url, queries: {} } } } },
        prometheusLimits: { timeoutMs: 300 },
      }))!;
      expect(monitoring.summary.unreadable).toEqual([
        `alert (avg(http_error_ratio{service="checkout"})): Prometheus at ${url} did not answer within 300 ms; check its load or raise the timeout.`,
        `The alerting rules could not be read: Prometheus at ${url} did not answer within 300 ms; check its load or raise the timeout.`,
      ]);
      expect(monitoring.tools.map((tool) => tool.name)).toContain('mcp__logs__search_logs');
      const answer = await monitoring.tools[0]!.execute({ query: 'up' }, { signal });
      expect(answer).toMatchObject({ isError: true, content: expect.stringContaining('did not answer within 300 ms') });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 30_000);

  it('a URL given as ${PROM_URL} is an address, not a secret: graph links keep it, and only the credentials in a URL stay hidden', async () => {
    const source = (url: string) => ({
      file: {
        ...options().file,
        monitoring: { checkout: { prometheus: { url, headers: {}, queries: { errors: 'sum(http_errors_per_second)' } }, mcpServers: {} } },
      },
      alerts: [],
    });
    const plain = (await open({ ...source('${PROM_URL}'), env: { PROM_URL: prometheus.url } }))!;
    const answer = await plain.tools[0]!.execute({ query: 'sum(http_errors_per_second)' }, { signal });
    expect(answer.content).toContain(`Graph: ${prometheus.url}/graph?g0.expr=`);
    expect(answer.content).not.toContain('[redacted]');
    expect(plain.summary.changes[0]?.graphUrl?.startsWith(`${prometheus.url}/graph?`)).toBe(true);

    // A password and a token in the URL are still hidden, from what could not be read and from the tools' answers.
    const port = await freePort();
    const secretUrl = `http://scraper:s3cret-pass-9@127.0.0.1:${port}/?token=prom-query-token-55`;
    for (const [url, env] of [
      ['${PROM_URL}', { PROM_URL: secretUrl }],
      [secretUrl, {}],
      [`http://scraper:\${PROM_PASSWORD}@127.0.0.1:${port}/?token=\${PROM_TOKEN}`, { PROM_PASSWORD: 's3cret-pass-9', PROM_TOKEN: 'prom-query-token-55' }],
    ] as const) {
      const hidden = (await open({ ...source(url), env: { ...env } }))!;
      const unreadable = hidden.summary.unreadable.join('\n');
      expect(unreadable).toContain(`127.0.0.1:${port}`);
      expect(unreadable).toContain('[redacted]');
      const tool = await hidden.tools[0]!.execute({ query: 'up' }, { signal });
      for (const text of [unreadable, tool.content, hidden.contextText]) {
        expect(text).not.toContain('s3cret-pass-9');
        expect(text).not.toContain('prom-query-token-55');
      }
    }
  }, 30_000);

  it('keeps a credential out of what could not be read, names a missing variable, and gives nothing without a source', async () => {
    const refused = (await open({ env: { LOGS_TOKEN: 'wrong-token-secret-99' } }))!;
    expect(refused.summary.unreadable.join('\n')).not.toContain('wrong-token-secret-99');
    const missing = (await open({ env: {} }))!;
    expect(missing.summary.unreadable).toEqual([expect.stringContaining('uses ${LOGS_TOKEN}, which is not set')]);
    expect(missing.tools).toEqual([]);
    expect(await open({ serviceId: 'POTHER', channel: 'C0OTHER' })).toBeUndefined();
  });
});

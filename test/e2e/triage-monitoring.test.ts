import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordedRequest, toolUseResponse } from '../fakes/anthropic-fake.js';
import { incidentWebhook } from '../fakes/pagerduty-webhook-sender.js';
import type { SlackCall } from '../fakes/slack-fake.js';
import { type LogLine, type McpHttpServer, startMcpLogHttpServer } from '../helpers/mcp-log-server.js';
import { type PrometheusServer, startBackfilledPrometheus } from '../helpers/prometheus-server.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { createTriageWorld, type TriageWorld } from './triage-world.js';

const LOG_SERVER = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'), 'test/helpers/mcp-log-server.ts');
const LOGS_TOKEN = 'logs-e2e-token-5f3a9c';

// Three hours ago on the minute: a steady error rate, then a jump at jumpAt, two minutes after the suspect commit; the incident at jumpAt + 5 min.
const base = Math.floor(Date.now() / 1000 / 60) * 60 - 3 * 3600;
const jumpAt = base + 60 * 60;
const incidentAt = jumpAt + 5 * 60;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const minute = (seconds: number) => `${iso(seconds).slice(0, 16).replace('T', ' ')} UTC`;

function history(): string {
  const lines = ['# TYPE http_errors_per_second gauge', '# TYPE http_error_ratio gauge'];
  for (let i = 0; i < 120; i++) {
    const time = base + i * 60;
    const wobble = ((i * 7) % 5) / 50;
    lines.push(`http_errors_per_second{service="checkout"} ${(time < jumpAt ? 1 : 6) + wobble} ${time}`);
    lines.push(`http_error_ratio{service="checkout"} ${(time < jumpAt ? 0.01 : 0.12) + wobble / 100} ${time}`);
  }
  lines.push('# EOF', '');
  return lines.join('\n');
}

const ALERT_EXPR = 'avg(http_error_ratio{service="checkout"}) > 0.05';
const LOG_LINES: LogLine[] = [
  { time: iso(jumpAt - 120), level: 'info', message: 'POST /pay 200' },
  { time: iso(jumpAt + 20), level: 'error', message: "POST /pay 500 TypeError: Cannot read properties of undefined (reading 'toFixed')" },
];

/** The text of a message's content, whether a string or content blocks. */
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : (content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('\n');

/** The agent reads the metrics and the logs, then cites the change point and the commit before it that Wrench gave it. */
function investigation() {
  const step = (request: RecordedRequest) => request.body.messages.filter((m: { role: string }) => m.role === 'assistant').length;
  const respond = (request: RecordedRequest) => {
    switch (step(request)) {
      case 0:
        return toolUseResponse([{ name: 'query_metrics', input: { query: 'sum(http_errors_per_second{service="checkout"})' } }], 'Reading the error rate.');
      case 1:
        return toolUseResponse([
          { name: 'mcp__logs__search_logs', input: { text: 'POST /pay 500' } },
          { name: 'mcp__httplogs__search_logs', input: { text: 'TypeError', from: iso(jumpAt - 600) } },
        ]);
      default: {
        const task = textOf(request.body.messages[0].content);
        const changedAt = /- alert changed at (\d{4}-\d\d-\d\d \d\d:\d\d) UTC/.exec(task)?.[1] ?? 'unknown';
        const commit = /- alert changed at .*?last commit (?:deployed )?before: ([0-9a-f]{7})/.exec(task)?.[1] ?? '0000000';
        return toolUseResponse([
          {
            name: 'finish_task',
            input: {
              whatIsGoingOn: `The error ratio jumped at ${changedAt} UTC; POST /pay fails with a TypeError.`,
              verdict: `Errors jumped at ${changedAt} UTC, just after ${commit}`,
              likelyCause: {
                summary: `Commit ${commit} landed two minutes before the error rate jumped.`,
                confidence: 'high',
                evidence: [
                  {
                    claim: `the error rate went from 1/s to 6/s at ${changedAt} UTC`,
                    kind: 'metric',
                    ref: `errors 1/s -> 6/s at ${changedAt}`,
                    query: 'sum(http_errors_per_second{service="checkout"})',
                    tool: 'query_metrics',
                    from: iso(incidentAt - 3600),
                    to: iso(incidentAt + 1800),
                  },
                  {
                    claim: 'POST /pay throws a TypeError',
                    kind: 'log',
                    ref: "TypeError: reading 'toFixed'",
                    tool: 'mcp__logs__search_logs',
                    query: 'POST /pay 500',
                  },
                  { claim: 'the change just before', kind: 'commit', ref: commit },
                ],
              },
              suspectCommits: [{ sha: commit, reason: 'landed two minutes before the jump', confidence: 'high' }],
              ruledOut: [],
              nextSteps: ['Revert it'],
            },
          },
        ]);
      }
    }
  };
  return Array.from({ length: 10 }, () => respond);
}

const reportIn = (threadTs: string) => (c: SlackCall) =>
  c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && String(c.args.text).startsWith('Triage of');
const blocksOf = (c: SlackCall) => JSON.stringify(c.args.blocks ?? []);
/** The tool results the agent received in the newest message of a request. */
const toolResults = (request: RecordedRequest) =>
  ((request.body.messages as Array<{ role: string; content: unknown }>).at(-1)!.content as Array<{ type: string; content?: unknown }>).filter(
    (block) => block.type === 'tool_result',
  );

describe('triage with monitoring evidence, end to end (real Prometheus, real MCP servers over stdio and HTTP)', () => {
  let world: TriageWorld;
  let prometheus: PrometheusServer;
  let http: McpHttpServer;
  let dir: TempDir;
  let suspectSha: string;

  beforeAll(async () => {
    [prometheus, http, dir] = await Promise.all([
      startBackfilledPrometheus(history()),
      startMcpLogHttpServer(LOG_LINES, { token: LOGS_TOKEN }),
      makeTempDir('wrench-e2e-monitoring-'),
    ]);
    await writeFile(path.join(dir.path, 'lines.json'), JSON.stringify(LOG_LINES));
    world = await createTriageWorld(`
channels:
  C0INC: { repo: acme/checkout, baseBranch: main }
repos: [acme/*]
pagerduty:
  services:
    PABC123: { repo: acme/checkout, channel: C0INC, monitoring: checkout }
monitoring:
  checkout:
    prometheus:
      url: ${prometheus.url}
      queries:
        errors: 'sum by (service) (http_errors_per_second)'
    mcpServers:
      logs: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(LOG_SERVER)}], env: { MCP_LOG_FILE: ${JSON.stringify(path.join(dir.path, 'lines.json'))} }, tools: [search_logs] }
      httplogs: { url: "${http.url}", headers: { authorization: "Bearer \${LOGS_TOKEN}" }, tools: [search_logs] }
sandbox: { mode: bwrap }
`);
    await world.github.createRepo(
      'acme',
      'checkout',
      { 'src/pay.js': 'export const pay = (total) => total.toFixed(2);\n', 'README.md': '# checkout\n' },
      { initial: { message: 'Initial commit', date: iso(base - 72 * 3600) } },
    );
    await world.github.commit('acme', 'checkout', 'main', {
      message: 'Docs: describe payments',
      files: { 'README.md': '# checkout\n\nPays.\n' },
      date: iso(jumpAt - 40 * 60),
    });
    suspectSha = await world.github.commit('acme', 'checkout', 'main', {
      message: 'Pay: compute totals lazily',
      files: { 'src/pay.js': 'export const pay = (cart) => cart.total.toFixed(2);\n' },
      date: iso(jumpAt - 2 * 60),
    });
    // The deploy tool records its deployments on GitHub: the suspect went to production a minute before the jump.
    world.github.recordDeployment('acme', 'checkout', { sha: suspectSha, at: iso(jumpAt - 3 * 60), statuses: [{ state: 'success', at: iso(jumpAt - 60) }] });
    world.pagerduty.addService({ id: 'PABC123', name: 'Checkout' });
    await world.start({ LOGS_TOKEN });
  }, 120_000);

  afterAll(async () => {
    await world?.stop();
    await Promise.all([prometheus?.stop(), http?.stop()]);
    await dir?.remove();
  });

  const trigger = async (title: string) => {
    const incident = world.pagerduty.addIncident({
      title,
      service: 'PABC123',
      urgency: 'high',
      created_at: iso(incidentAt),
      alerts: [
        {
          summary: '[FIRING:1] HighErrorRate checkout',
          created_at: iso(incidentAt),
          details: {
            firing: `Labels:\n - alertname = HighErrorRate\n - service = checkout\nAnnotations:\n - summary = error ratio above 5%\nSource: http://prometheus-0.monitoring:9090/graph?g0.expr=${encodeURIComponent(ALERT_EXPR)}&g0.tab=1\n`,
            num_firing: '1',
            num_resolved: '0',
          },
        },
      ],
    });
    expect((await world.sendWebhook(incidentWebhook('incident.triggered', world.pagerduty.incidentJson(incident.id)))).status).toBe(202);
    const card = await world.slack.waitFor((c) => c.method === 'chat.postMessage' && !c.args.thread_ts && String(c.args.text).includes(title), 10_000);
    // A parent's thread_ts is its own ts once the triage has replied in its thread, which can be before this line runs.
    const cardTs = world.slack.messages('C0INC').find((m) => (!m.thread_ts || m.thread_ts === m.ts) && String(m.text).includes(title))!.ts;
    return { incidentId: incident.id, card, cardTs };
  };

  it('uploads the chart to the thread, cites the change point at the right minute and the commit just before it, and the note links them', async () => {
    const { slack, anthropic, pagerduty } = world;
    anthropic.setScript(investigation());
    const modelCalls = anthropic.requests.length;
    const { incidentId, cardTs } = await trigger('Checkout error ratio above 5%');
    const report = await slack.waitFor(reportIn(cardTs), 120_000);

    // The agent was offered the metric tool and the allowlisted MCP tools, and got real answers from them.
    const requests = anthropic.requests.slice(modelCalls) as RecordedRequest[];
    expect(requests[0]!.body.tools.map((t: { name: string }) => t.name).sort()).toEqual([
      'bash',
      'finish_task',
      'mcp__httplogs__search_logs',
      'mcp__logs__search_logs',
      'query_metrics',
      'str_replace_based_edit_tool',
    ]);
    const task = textOf(requests[0]!.body.messages[0].content);
    expect(task).toContain(`- alert changed at ${minute(jumpAt)} (began after ${minute(jumpAt - 60).replace(' UTC', '')}) from 0.01`);
    expect(task).toContain(
      `last commit deployed before: ${suspectSha.slice(0, 7)} "Pay: compute totals lazily" (deployed to production ${iso(jumpAt - 60)}; committed`,
    );
    expect(task).toContain('Commits are placed in time by GitHub Deployments to production (when each went live).');
    const [metrics] = toolResults(requests[1]!);
    expect(String(metrics!.content)).toContain(
      `change point at ${iso(jumpAt).replace('.000Z', 'Z')} (began after ${iso(jumpAt - 60).replace('.000Z', 'Z')}) from 1.0`,
    );
    const [stdioLogs, httpLogs] = toolResults(requests[2]!);
    expect(String(stdioLogs!.content)).toContain('<untrusted source="mcp:logs/search_logs">');
    expect(String(stdioLogs!.content)).toContain("POST /pay 500 TypeError: Cannot read properties of undefined (reading 'toFixed')");
    expect(String(stdioLogs!.content)).not.toContain('POST /pay 200');
    expect(String(httpLogs!.content)).toContain('<untrusted source="mcp:httplogs/search_logs">');
    expect(String(httpLogs!.content)).toContain(`${iso(jumpAt + 20)} error POST /pay 500 TypeError`);
    expect(http.authorizations).toContain(`Bearer ${LOGS_TOKEN}`);
    expect(JSON.stringify(requests.map((r) => r.body))).not.toContain(LOGS_TOKEN);

    // The report: the change point at the minute of the jump next to the commit just before it, and the metric evidence linked to Prometheus.
    const blocks = blocksOf(report);
    expect(blocks).toContain('*Metrics around the incident*');
    expect(blocks).toContain('; changes placed by GitHub Deployments to production)');
    expect(blocks).toContain(`|alert> changed at *${minute(jumpAt)} (began after ${minute(jumpAt - 60).replace(' UTC', '')})*`);
    expect(blocks).toMatch(
      new RegExp(
        `changed at \\*${minute(jumpAt)} \\(began after ${minute(jumpAt - 60).replace(' UTC', '')}\\)\\*: 0\\.01\\d* → 0\\.12\\d* · last commit deployed before: <[^|]*/acme/checkout/commit/${suspectSha}\\|${suspectSha.slice(0, 7)}> Pay: compute totals lazily \\(deployed to production ${minute(jumpAt - 60)}\\)`,
      ),
    );
    expect(blocks).toContain(`${prometheus.url}/graph?g0.expr=`);
    expect(blocks).toContain(`Errors jumped at ${minute(jumpAt).replace(' UTC', '')} UTC, just after ${suspectSha.slice(0, 7)}`);
    expect(blocks).toContain('_(via query_metrics, query sum(http_errors_per_second{service=\\"checkout\\"})');

    // The chart: a PNG shared in the card's thread through the external upload.
    await expect.poll(() => slack.uploads.some((u) => u.thread_ts === cardTs), { timeout: 20_000 }).toBe(true);
    const upload = slack.uploads.find((u) => u.thread_ts === cardTs)!;
    expect(upload).toMatchObject({ channel: 'C0INC', filename: 'alert-around-the-incident.png', title: 'alert around the incident' });
    expect(upload.bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(upload.initial_comment).toContain(`alert changed at ${minute(jumpAt)}`);
    expect(slack.calls.some((c) => c.method === 'files.getUploadURLExternal')).toBe(true);
    expect(slack.calls.some((c) => c.method === 'files.completeUploadExternal')).toBe(true);

    // The note on the incident names the change point and links its graph and the commit.
    const note = await pagerduty.waitForNote(incidentId, 20_000);
    expect(note.content).toContain(`Metric (measured by Wrench): alert changed at ${minute(jumpAt)}`);
    expect(note.content).toMatch(new RegExp(`Graph: ${prometheus.url.replace(/[.]/g, '\\.')}/graph\\?g0\\.expr=\\S+`));
    expect(note.content).toMatch(new RegExp(`Commit: \\S+/acme/checkout/commit/${suspectSha}`));
  }, 180_000);

  it('with Prometheus stopped the triage still reports on the other evidence, naming what it could not read', async () => {
    const { slack, anthropic, pagerduty } = world;
    await prometheus.stop();
    anthropic.setScript([
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            whatIsGoingOn: 'POST /pay fails; the metrics could not be read.',
            verdict: 'Metrics unreadable; the logs point at the pay code',
            likelyCause: null,
            suspectCommits: [],
            ruledOut: [],
            nextSteps: ['Check Prometheus'],
          },
        },
      ]),
    ]);
    const modelCalls = anthropic.requests.length;
    const { incidentId, cardTs } = await trigger('Checkout error ratio above 5% again');
    const report = await slack.waitFor(reportIn(cardTs), 120_000);
    const blocks = blocksOf(report);
    expect(blocks).toContain('*Could not read* (the report rests on the other evidence)');
    expect(blocks).toMatch(/• alert \(avg\(http_error_ratio\{service=\\"checkout\\"\}\)\): Prometheus at http:\/\/127\.0\.0\.1:\d+ could not be reached/);
    expect(blocks).toMatch(/• errors \(sum by \(service\) \(http_errors_per_second\)\): Prometheus at .* could not be reached/);
    expect(blocks).toContain('Metrics unreadable; the logs point at the pay code');
    const task = textOf((anthropic.requests[modelCalls] as RecordedRequest).body.messages[0].content);
    expect(task).toContain('Could not read (say so in your report if it matters):');
    const note = await pagerduty.waitForNote(incidentId, 20_000);
    expect(note.content).toMatch(/Could not read: alert \(.*\): Prometheus at .* could not be reached/);
    expect(slack.uploads.filter((u) => u.thread_ts === cardTs)).toHaveLength(0);
  }, 180_000);
});

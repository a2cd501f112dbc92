import { describe, expect, it } from 'vitest';
import type { MonitoringSummary } from '../../../src/monitoring/monitoring-summary.js';
import { triageNote } from '../../../src/pagerduty/triage-note.js';
import { fixInstruction } from '../../../src/triage/fix-instruction.js';
import { triageReportMrkdwn, type TriageReportView } from '../../../src/slack/triage-report-message.js';
import { normalizeTriageReport } from '../../../src/triage/triage-report.js';

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const PROMETHEUS = 'https://prometheus.internal';
const QUERY = 'sum(rate(http_requests_total{code=~"5.."}[5m]))';
// 2026-11-23 14:00 UTC to 15:30 UTC
const FROM = Date.UTC(2026, 10, 23, 14, 0) / 1000;
const TO = Date.UTC(2026, 10, 23, 15, 30) / 1000;

const report = normalizeTriageReport({
  whatIsGoingOn: 'POST /pay returns 500 since 14:40.',
  verdict: 'Errors jumped at 14:40, just after a1b2c3d',
  likelyCause: {
    summary: 'The cart refactor made empty carts fail.',
    confidence: 'high',
    evidence: [
      {
        claim: 'the error rate jumped from 1/s to 6/s',
        kind: 'metric',
        ref: 'errors 1/s -> 6/s at 14:40',
        query: QUERY,
        tool: 'query_metrics',
        from: '2026-11-23T14:00:00Z',
        to: '2026-11-23T15:30:00Z',
      },
      { claim: 'TypeError in the logs', kind: 'log', ref: 'TypeError: toFixed', tool: 'mcp__logs__search_logs', query: 'level:error' },
      { claim: 'the alert', kind: 'log', ref: 'trigger entry' },
    ],
  },
  suspectCommits: [{ sha: SHA, reason: 'removes the guard', confidence: 'high' }],
  ruledOut: [],
  nextSteps: [],
});
const monitoring: MonitoringSummary = {
  source: 'checkout',
  window: { start: FROM, end: TO },
  changes: [
    {
      name: 'errors',
      query: QUERY,
      at: Date.UTC(2026, 10, 23, 14, 40) / 1000,
      before: 1.02,
      after: 6.013,
      sigmas: 25,
      labels: {},
      graphUrl: `${PROMETHEUS}/graph?g0.expr=x`,
      commit: { sha: SHA, subject: 'Refactor cart totals', date: '2026-11-23T14:38:00Z' },
      pull: { number: 7, title: 'Retry payments', url: 'https://github.com/acme/checkout/pull/7' },
    },
  ],
  steady: ['latency'],
  unreadable: ['MCP server sentry (stdio command npx) could not be read: spawn npx ENOENT'],
};
const links = {
  htmlBase: 'https://github.com/acme/checkout',
  sha: 'f'.repeat(40),
  incidentUrl: 'https://acme.pagerduty.com/incidents/Q1',
  prometheusUrl: PROMETHEUS,
};
const view: TriageReportView = { triageId: 't1', subject: 'incident #1 on acme/checkout', baseBranch: 'main', links, report, suspects: [], monitoring };

describe('metric and log evidence in the report', () => {
  it('links metric evidence to the Prometheus graph of its query and range, and shows the tool, query and range', () => {
    const text = triageReportMrkdwn(view);
    const graph = new URL(/<(https:\/\/prometheus\.internal\/graph\?[^|]+)\|errors 1\/s -&gt; 6\/s at 14:40>/.exec(text)![1]!);
    expect(graph.searchParams.get('g0.expr')).toBe(QUERY);
    expect(graph.searchParams.get('g0.range_input')).toBe('90m');
    expect(graph.searchParams.get('g0.end_input')).toBe('2026-11-23 15:30:00');
    expect(text).toContain('_(via query_metrics, query sum(rate(http_requests_total{code=~"5.."}[5m])), 2026-11-23 14:00 UTC to 2026-11-23 15:30 UTC)_');
    // Log lines read with a tool have no page; the incident's own log entries link to the incident.
    expect(text).toContain('`TypeError: toFixed` _(via mcp__logs__search_logs, query level:error)_');
    expect(text).toContain('<https://acme.pagerduty.com/incidents/Q1|trigger entry>');
  });

  it('lists the change points with their graph and the commit and PR just before, what was steady and what could not be read', () => {
    const text = triageReportMrkdwn(view);
    expect(text).toContain('*Metrics around the incident* (measured by Wrench, 2026-11-23 14:00 UTC to 2026-11-23 15:30 UTC)');
    expect(text).toContain(
      `• <${PROMETHEUS}/graph?g0.expr=x|errors> changed at *2026-11-23 14:40 UTC*: 1.02 → 6.013 · last commit before: <https://github.com/acme/checkout/commit/${SHA}|a1b2c3d> Refactor cart totals · last PR merged before: <https://github.com/acme/checkout/pull/7|#7> Retry payments`,
    );
    expect(text).toContain('• no change point in: latency');
    expect(text).toContain(
      '*Could not read* (the report rests on the other evidence)\n• MCP server sentry (stdio command npx) could not be read: spawn npx ENOENT',
    );
  });

  it('the incident note names the change point and links its graph and the commit before it, and what could not be read', () => {
    const note = triageNote({ report, suspects: [], repository: 'acme/checkout', links, monitoring });
    expect(note).toContain(
      `Metric (measured by Wrench): errors changed at 2026-11-23 14:40 UTC from 1.02 to 6.013, 25σ; last commit before: a1b2c3d "Refactor cart totals" (2026-11-23T14:38:00Z); last PR merged before: #7 "Retry payments" Graph: ${PROMETHEUS}/graph?g0.expr=x Commit: https://github.com/acme/checkout/commit/${SHA}`,
    );
    expect(note).toMatch(/- metric: the error rate jumped from 1\/s to 6\/s \(.*via query_metrics.*\) https:\/\/prometheus\.internal\/graph\?g0\.expr=/);
    expect(note).toContain('Could not read: MCP server sentry (stdio command npx) could not be read');
  });

  it('the fix run started from the report gets the change points among the findings, quoted as untrusted', () => {
    const instruction = fixInstruction({
      triageId: 't1',
      repo: { owner: 'acme', name: 'checkout' },
      baseBranch: 'main',
      channel: 'C1',
      threadTs: '1.2',
      report,
      suspects: [],
      links,
      monitoring,
      reportTs: [],
      createdAt: '2026-11-23T15:00:00Z',
    });
    expect(instruction).toMatch(/<untrusted>[\s\S]*- metric: errors changed at 2026-11-23 14:40 UTC from 1\.02 to 6\.013[\s\S]*<\/untrusted>/);
  });

  it('shows the onset, the commits inside it as candidates, the deployment that placed a commit and the alerting rule behind the incident', () => {
    const at = Date.UTC(2026, 10, 23, 14, 41) / 1000;
    const placed: MonitoringSummary = {
      ...monitoring,
      placedBy: 'GitHub Deployments to production',
      changes: [
        {
          ...monitoring.changes[0]!,
          at,
          from: at - 60,
          pull: undefined,
          commit: { sha: SHA, subject: 'Refactor cart totals', date: '2026-11-23T13:00:00Z', deployedAt: '2026-11-23T14:39:00Z', deployedTo: 'production' },
          candidates: [
            { sha: 'b'.repeat(40), subject: 'Tune retries', date: '2026-11-23T14:00:00Z', deployedAt: '2026-11-23T14:40:30Z', deployedTo: 'production' },
          ],
        },
      ],
      rules: [
        {
          name: 'HighErrorRate',
          group: 'checkout',
          state: 'firing',
          query: 'errors > 0.05',
          graphUrl: `${PROMETHEUS}/graph?g0.expr=rule`,
          activeAt: '2026-11-23T14:45:00Z',
        },
      ],
    };
    const recurring: MonitoringSummary = {
      ...placed,
      recurring: [
        { name: 'traffic', query: 'sum(rps)', at, before: 100, after: 300, weekEarlierAt: at - 7 * 86_400, graphUrl: `${PROMETHEUS}/graph?g0.expr=rps` },
      ],
    };
    expect(triageReportMrkdwn({ ...view, monitoring: recurring })).toContain(
      `• <${PROMETHEUS}/graph?g0.expr=rps|traffic> changed at 2026-11-23 14:41 UTC (100 → 300) as it did a week earlier (2026-11-16 14:41 UTC): a recurring pattern, not counted as a change`,
    );
    const text = triageReportMrkdwn({ ...view, monitoring: placed });
    expect(text).toContain('(measured by Wrench, 2026-11-23 14:00 UTC to 2026-11-23 15:30 UTC; changes placed by GitHub Deployments to production)');
    expect(text).toContain(
      `changed at *2026-11-23 14:41 UTC (began after 2026-11-23 14:40)*: 1.02 → 6.013 · last commit deployed before: <https://github.com/acme/checkout/commit/${SHA}|a1b2c3d> Refactor cart totals (deployed to production 2026-11-23 14:39 UTC) · landed while it began, any may be the cause, nearest first: <https://github.com/acme/checkout/commit/${'b'.repeat(40)}|bbbbbbb> Tune retries`,
    );
    expect(text).toContain(`• alerting rule <${PROMETHEUS}/graph?g0.expr=rule|HighErrorRate> (firing since 2026-11-23 14:45 UTC): \`errors &gt; 0.05\``);
    const note = triageNote({ report, suspects: [], repository: 'acme/checkout', links, monitoring: placed });
    expect(note).toContain(
      `last commit deployed before: a1b2c3d "Refactor cart totals" (deployed to production 2026-11-23T14:39:00Z; committed 2026-11-23T13:00:00Z); landed while it began, any may be the cause, nearest first: 1. bbbbbbb "Tune retries" (deployed to production 2026-11-23T14:40:30Z; committed 2026-11-23T14:00:00Z)`,
    );
    expect(note).toContain(`Alerting rule (read from Prometheus): HighErrorRate (firing) Graph: ${PROMETHEUS}/graph?g0.expr=rule`);
  });
});

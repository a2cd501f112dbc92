import type { MetricEvidence, MetricWindow } from './metric-evidence.js';
import { prometheusGraphUrl } from './prometheus-graph-url.js';

/** One series that changed: when, by how much, and the last commit and merged pull request before it. */
export interface MetricChange {
  readonly name: string;
  readonly query: string;
  readonly at: number; // unix seconds
  readonly before: number;
  readonly after: number;
  readonly sigmas: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly graphUrl?: string;
  readonly commit?: { readonly sha: string; readonly subject: string; readonly date: string; readonly url?: string };
  readonly pull?: { readonly number: number; readonly title: string; readonly url: string };
}

/** What the monitoring evidence of a triage showed, kept with its record and shown in its report and note. */
export interface MonitoringSummary {
  /** The name of the source under `monitoring:`. */
  readonly source: string;
  readonly window: MetricWindow;
  readonly changes: MetricChange[];
  /** Queries read without a change point. */
  readonly steady: string[];
  /** What could not be read (queries, MCP servers, tools), in words a person can act on. */
  readonly unreadable: string[];
}

export function summarizeMetricEvidence(source: string, evidence: MetricEvidence, window: MetricWindow, prometheusUrl?: string): MonitoringSummary {
  const changes: MetricChange[] = [];
  const steady: string[] = [];
  for (const finding of evidence.findings) {
    const change = finding.changePoint;
    if (!change) {
      steady.push(finding.name);
      continue;
    }
    changes.push({
      name: finding.name,
      query: finding.query,
      at: change.time,
      before: change.before,
      after: change.after,
      sigmas: change.sigmas,
      labels: change.labels,
      graphUrl: prometheusGraphUrl(prometheusUrl, finding.query, window.start, window.end),
      commit: finding.commitBefore && {
        sha: finding.commitBefore.sha,
        subject: finding.commitBefore.subject,
        date: finding.commitBefore.date,
        url: finding.commitBefore.url,
      },
      pull: finding.pullBefore && { number: finding.pullBefore.number, title: finding.pullBefore.title, url: finding.pullBefore.url },
    });
  }
  return { source, window, changes, steady, unreadable: [...evidence.unreadable] };
}

/** "2026-11-23 14:40 UTC". */
export function utcTime(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A value for people: at most four significant digits. */
export function shortNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Number(value.toPrecision(4)).toString();
}

/** One line per change, plain text: "errors changed at … from 1 to 6 (25σ); last commit before: abc1234 "subject" (date)". */
export function metricChangeLine(change: MetricChange): string {
  const sigmas = Number.isFinite(change.sigmas) ? `, ${Math.round(change.sigmas)}σ` : '';
  const labels = Object.entries(change.labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
  const parts = [
    `${change.name}${labels ? ` {${labels}}` : ''} changed at ${utcTime(change.at)} from ${shortNumber(change.before)} to ${shortNumber(change.after)}${sigmas}`,
  ];
  if (change.commit) parts.push(`last commit before: ${change.commit.sha.slice(0, 7)} "${change.commit.subject}" (${change.commit.date})`);
  if (change.pull) parts.push(`last PR merged before: #${change.pull.number} "${change.pull.title}"`);
  return parts.join('; ');
}

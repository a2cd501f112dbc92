import { placedByText } from '../triage/repository-changes.js';
import type { FiredRule } from './fired-rules.js';
import type { MetricEvidence, MetricWindow } from './metric-evidence.js';
import { prometheusGraphUrl } from './prometheus-graph-url.js';

export interface ChangeRef {
  readonly sha: string;
  readonly subject: string;
  readonly date: string;
  readonly url?: string;
  /** When it went live, when the repository records deployments. */
  readonly deployedAt?: string;
  readonly deployedTo?: string;
  /** Inside an onset: how near the fitted start of the change it went live (candidates are ranked by it). */
  readonly why?: string;
}

export interface PullRef {
  readonly number: number;
  readonly title: string;
  readonly url: string;
  readonly why?: string;
}

/** One series that changed: when it began, by how much, the last commit and merged pull request before it, and those inside its onset. */
export interface MetricChange {
  readonly name: string;
  readonly query: string;
  /** The first sample of the changed level: the change began after `from` and by `at` (unix seconds). */
  readonly at: number;
  /** Absent in records written before the onset was measured. */
  readonly from?: number;
  readonly before: number;
  readonly after: number;
  readonly sigmas: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly graphUrl?: string;
  readonly commit?: ChangeRef;
  readonly pull?: PullRef;
  /** Landed inside the onset: any of them may be the cause, so none is named alone; nearest the fitted start first. */
  readonly candidates?: ChangeRef[];
  readonly pullCandidates?: PullRef[];
}

/** A series that changed as it did at the same time a week earlier: a recurring pattern, not counted as a change. */
export interface RecurringChange {
  readonly name: string;
  readonly query: string;
  readonly at: number;
  readonly before: number;
  readonly after: number;
  /** When the same change happened a week earlier (unix seconds). */
  readonly weekEarlierAt: number;
  readonly graphUrl?: string;
}

/** What the monitoring evidence of a triage showed, kept with its record and shown in its report and note. */
export interface MonitoringSummary {
  /** The name of the source under `monitoring:`. */
  readonly source: string;
  readonly window: MetricWindow;
  readonly changes: MetricChange[];
  /** Queries read without a change point. */
  readonly steady: string[];
  /** Changes that happened the same way a week earlier. */
  readonly recurring?: RecurringChange[];
  /** What could not be read (queries, MCP servers, tools), in words a person can act on. */
  readonly unreadable: string[];
  /** What placed the changes in time: "GitHub Deployments to production", else commit times. */
  readonly placedBy?: string;
  /** The alerting rules behind the incident (the alert's own expression, else those firing), with their state and graph. */
  rules?: FiredRule[];
}

export function summarizeMetricEvidence(
  source: string,
  evidence: MetricEvidence,
  window: MetricWindow,
  prometheusUrl?: string,
  deployments?: { readonly environments: readonly string[]; readonly via?: 'deployments' | 'releases' },
): MonitoringSummary {
  const changes: MetricChange[] = [];
  const steady: string[] = [];
  const recurring: RecurringChange[] = [];
  for (const finding of evidence.findings) {
    const change = finding.changePoint;
    if (!change) {
      steady.push(finding.name);
      continue;
    }
    if (finding.weekEarlier) {
      recurring.push({
        name: finding.name,
        query: finding.query,
        at: change.time,
        before: change.before,
        after: change.after,
        weekEarlierAt: finding.weekEarlier.time,
        graphUrl: prometheusGraphUrl(prometheusUrl, finding.query, window.start - 7 * 86_400, window.end),
      });
      continue;
    }
    changes.push({
      name: finding.name,
      query: finding.query,
      at: change.time,
      from: change.from,
      before: change.before,
      after: change.after,
      sigmas: change.sigmas,
      labels: change.labels,
      graphUrl: prometheusGraphUrl(prometheusUrl, finding.query, window.start, window.end),
      commit: finding.commitBefore && changeRef(finding.commitBefore),
      pull: finding.pullBefore && pullRef(finding.pullBefore),
      candidates: (finding.commitCandidates ?? []).map(changeRef),
      pullCandidates: (finding.pullCandidates ?? []).map(pullRef),
    });
  }
  const placedBy = deployments ? placedByText(deployments) : 'commit times';
  return { source, window, changes, steady, unreadable: [...evidence.unreadable], placedBy, ...(recurring.length > 0 ? { recurring } : {}) };
}

const changeRef = (commit: ChangeRef): ChangeRef => ({
  sha: commit.sha,
  subject: commit.subject,
  date: commit.date,
  url: commit.url,
  ...(commit.deployedAt ? { deployedAt: commit.deployedAt, deployedTo: commit.deployedTo } : {}),
  ...(commit.why ? { why: commit.why } : {}),
});

/** "deployed to production", or "released in v1.4.0". */
export function liveText(commit: Pick<ChangeRef, 'deployedTo'>): string {
  return commit.deployedTo?.startsWith('release ') ? `released in ${commit.deployedTo.slice('release '.length)}` : `deployed to ${commit.deployedTo}`;
}

/** "abc1234 "subject" (2026-…)", or with its deployment: "(deployed to production 2026-…; committed 2026-…)". */
export function commitMention(commit: ChangeRef): string {
  const when = commit.deployedAt ? `${liveText(commit)} ${commit.deployedAt}; committed ${commit.date}` : commit.date;
  return `${commit.sha.slice(0, 7)} "${commit.subject}" (${when})`;
}
const pullRef = (pull: PullRef): PullRef => ({ number: pull.number, title: pull.title, url: pull.url, ...(pull.why ? { why: pull.why } : {}) });

/** "2026-11-23 14:40 UTC". */
export function utcTime(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A value for people: at most four significant digits. */
export function shortNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Number(value.toPrecision(4)).toString();
}

/** "errors changed at 14:05 UTC from 1 to 6, as it did a week earlier (at 2026-11-16 14:05 UTC): a recurring pattern, not counted as a change". */
export function recurringLine(change: RecurringChange): string {
  return `${change.name} changed at ${utcTime(change.at)} from ${shortNumber(change.before)} to ${shortNumber(change.after)}, as it did a week earlier (at ${utcTime(change.weekEarlierAt)}): a recurring pattern, not counted as a change`;
}

/** "changed at 14:05 UTC (began after 14:04 UTC)": when the onset is known, its start too. */
export function changeTime(change: Pick<MetricChange, 'at' | 'from'>): string {
  return change.from === undefined ? utcTime(change.at) : `${utcTime(change.at)} (began after ${utcTime(change.from).replace(' UTC', '')})`;
}

/**
 * One line per change, plain text: "errors changed at … (began after …) from 1 to 6, 25σ; last commit before: abc1234 "subject" (date);
 * inside the onset, any may be the cause: …".
 */
export function metricChangeLine(change: MetricChange): string {
  const sigmas = Number.isFinite(change.sigmas) ? `, ${Math.round(change.sigmas)}σ` : '';
  const labels = Object.entries(change.labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
  const parts = [
    `${change.name}${labels ? ` {${labels}}` : ''} changed at ${changeTime(change)} from ${shortNumber(change.before)} to ${shortNumber(change.after)}${sigmas}`,
  ];
  if (change.commit) parts.push(`${change.commit.deployedAt ? 'last commit deployed before' : 'last commit before'}: ${commitMention(change.commit)}`);
  if (change.pull) parts.push(`last PR merged before: #${change.pull.number} "${change.pull.title}"`);
  const why = (ref: { why?: string }) => (ref.why ? `: ${ref.why}` : '');
  const inside = [
    ...(change.candidates ?? []).map((commit, index) => `${index + 1}. ${commitMention(commit)}${why(commit)}`),
    ...(change.pullCandidates ?? []).map((pull) => `PR #${pull.number} "${pull.title}"${why(pull)}`),
  ];
  if (inside.length > 0) parts.push(`landed while it began, any may be the cause, nearest first: ${inside.join(', ')}`);
  return parts.join('; ');
}

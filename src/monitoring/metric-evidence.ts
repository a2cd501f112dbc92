import { describeError } from '../errors.js';
import type { MergedPull, WindowCommit } from '../triage/repository-changes.js';
import { type ChangePoint, findChangePoint } from './change-point.js';
import type { PrometheusClient, Series } from './prometheus-client.js';
import { queryLookbackSeconds } from './promql-lookback.js';

export interface MetricWindow {
  readonly start: number; // unix seconds
  readonly end: number;
  readonly step?: number;
}

export interface MetricFinding {
  readonly name: string;
  readonly query: string;
  readonly window: MetricWindow;
  readonly series: readonly Series[];
  readonly changePoint?: ChangePoint & { readonly labels: Readonly<Record<string, string>> };
  /** The newest commit and merged pull request at or before the onset's start (the last sample at the level before). */
  readonly commitBefore?: WindowCommit;
  readonly pullBefore?: MergedPull;
  /** Commits and merged pull requests inside the onset (after its start, by its end): any of them may be the cause. */
  readonly commitCandidates?: WindowCommit[];
  readonly pullCandidates?: MergedPull[];
}

export interface MetricEvidence {
  readonly findings: MetricFinding[];
  /** What could not be read, one line per query, in words a person can act on. */
  readonly unreadable: string[];
}

/**
 * Runs each named query over the window, finds the strongest change point among its series and puts it
 * next to the last commit and merged pull request before it. A failing query is named, never fatal.
 */
export async function gatherMetricEvidence(
  client: PrometheusClient,
  queries: Readonly<Record<string, string>>,
  window: MetricWindow,
  changes: { commits: readonly WindowCommit[]; pulls: readonly MergedPull[] } = { commits: [], pulls: [] },
): Promise<MetricEvidence> {
  const findings: MetricFinding[] = [];
  const unreadable: string[] = [];
  for (const [name, query] of Object.entries(queries)) {
    let series: Series[];
    try {
      series = await client.queryRange({ query, ...window });
    } catch (error) {
      unreadable.push(`${name} (${query}): ${describeError(error)}`);
      continue;
    }
    let strongest: MetricFinding['changePoint'];
    const lookbackSeconds = queryLookbackSeconds(query);
    for (const one of series) {
      const change = findChangePoint(one.samples, { lookbackSeconds });
      if (change && (!strongest || change.sigmas > strongest.sigmas)) strongest = { ...change, labels: one.labels };
    }
    findings.push({
      name,
      query,
      window,
      series,
      changePoint: strongest,
      ...(strongest ? placeChanges(changes, strongest) : {}),
    });
  }
  return { findings, unreadable };
}

/** The last commit and merged PR before the onset began, and those inside the onset. */
function placeChanges(changes: { commits: readonly WindowCommit[]; pulls: readonly MergedPull[] }, change: ChangePoint) {
  const from = change.from * 1000;
  const to = change.time * 1000;
  return {
    commitBefore: latestBefore(changes.commits, (commit) => commit.date, from),
    pullBefore: latestBefore(changes.pulls, (pull) => pull.mergedAt, from),
    commitCandidates: within(changes.commits, (commit) => commit.date, from, to),
    pullCandidates: within(changes.pulls, (pull) => pull.mergedAt, from, to),
  };
}

function within<T>(items: readonly T[], dateOf: (item: T) => string, after: number, until: number): T[] {
  return items.filter((item) => {
    const time = Date.parse(dateOf(item));
    return time > after && time <= until;
  });
}

function latestBefore<T>(items: readonly T[], dateOf: (item: T) => string, at: number): T | undefined {
  let best: { item: T; time: number } | undefined;
  for (const item of items) {
    const time = Date.parse(dateOf(item));
    if (Number.isFinite(time) && time <= at && (!best || time > best.time)) best = { item, time };
  }
  return best?.item;
}

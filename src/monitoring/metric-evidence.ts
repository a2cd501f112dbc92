import { describeError } from '../errors.js';
import type { MergedPull, WindowCommit } from '../triage/repository-changes.js';
import { type ChangePoint, findChangePoint } from './change-point.js';
import type { PrometheusClient, Series } from './prometheus-client.js';

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
  /** The newest commit and merged pull request at or before the change point. */
  readonly commitBefore?: WindowCommit;
  readonly pullBefore?: MergedPull;
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
    for (const one of series) {
      const change = findChangePoint(one.samples);
      if (change && (!strongest || change.sigmas > strongest.sigmas)) strongest = { ...change, labels: one.labels };
    }
    const at = strongest ? strongest.time * 1000 : undefined;
    findings.push({
      name,
      query,
      window,
      series,
      changePoint: strongest,
      commitBefore: at === undefined ? undefined : latestBefore(changes.commits, (commit) => commit.date, at),
      pullBefore: at === undefined ? undefined : latestBefore(changes.pulls, (pull) => pull.mergedAt, at),
    });
  }
  return { findings, unreadable };
}

function latestBefore<T>(items: readonly T[], dateOf: (item: T) => string, at: number): T | undefined {
  let best: { item: T; time: number } | undefined;
  for (const item of items) {
    const time = Date.parse(dateOf(item));
    if (Number.isFinite(time) && time <= at && (!best || time > best.time)) best = { item, time };
  }
  return best?.item;
}

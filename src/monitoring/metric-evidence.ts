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
  /** Commits and merged pull requests inside the onset (after its start, by its end): any of them may be the cause; nearest the fitted start first. */
  readonly commitCandidates?: Ranked<WindowCommit>[];
  readonly pullCandidates?: Ranked<MergedPull>[];
  /** The same change at the same time of day a week earlier (same direction, at least half the shift): a recurring pattern, not this incident. */
  readonly weekEarlier?: ChangePoint;
}

/** A change inside the onset, with why it ranks where it does: how far from the fitted start it went live. */
export type Ranked<T> = T & { readonly why: string };

export interface MetricEvidence {
  readonly findings: MetricFinding[];
  /** What could not be read, one line per query, in words a person can act on. */
  readonly unreadable: string[];
}

/** The window's commits and merged pull requests; with `deployments`, placed in time by when they went live. */
export interface WindowChanges {
  readonly commits: readonly WindowCommit[];
  readonly pulls: readonly MergedPull[];
  readonly deployments?: { readonly environments: readonly string[]; readonly via?: 'deployments' | 'releases' };
}

export interface EvidenceOptions {
  /** One deadline for all the queries together (they run in parallel): what has not answered by then is named. */
  readonly deadlineMs?: number;
  /** Read each changed query a week earlier too, so a daily or weekly pattern is not called a change (default true). */
  readonly compareWeekEarlier?: boolean;
}

const WEEK = 7 * 86_400;

/**
 * Runs the named queries over the window in parallel under one deadline, finds the strongest change point among
 * each query's series and puts it next to the last commit and merged pull request before it. A failing query is
 * named, never fatal.
 */
export async function gatherMetricEvidence(
  client: PrometheusClient,
  queries: Readonly<Record<string, string>>,
  window: MetricWindow,
  changes: WindowChanges = { commits: [], pulls: [] },
  options: EvidenceOptions = {},
): Promise<MetricEvidence> {
  const deadlineMs = options.deadlineMs ?? 20_000;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new Error(`no answer within the ${deadlineMs / 1000} s the triage gives all its metric queries together`)),
    deadlineMs,
  );
  try {
    const read = await Promise.all(
      Object.entries(queries).map(async ([name, query]): Promise<{ name: string; query: string; series: Series[] } | { error: string }> => {
        try {
          return { name, query, series: await client.queryRange({ query, ...window }, { signal: deadline.signal }) };
        } catch (error) {
          return { error: `${name} (${query}): ${describeError(error)}` };
        }
      }),
    );
    const findings: MetricFinding[] = [];
    const unreadable: string[] = [];
    for (const one of read) {
      if ('error' in one) unreadable.push(one.error);
      else findings.push(finding(one.name, one.query, one.series, window, changes));
    }
    if (options.compareWeekEarlier === false) return { findings, unreadable };
    const compared = await Promise.all(
      findings.map(async (one) => {
        if (!one.changePoint) return one;
        try {
          const earlier = await client.queryRange(
            { query: one.query, start: window.start - WEEK, end: window.end - WEEK, step: window.step },
            { signal: deadline.signal },
          );
          const weekEarlier = sameChange(one.changePoint, earlier, one.query);
          return weekEarlier ? { ...one, weekEarlier } : one;
        } catch (error) {
          unreadable.push(`${one.name} a week earlier (to tell a recurring pattern from a change): ${describeError(error)}`);
          return one;
        }
      }),
    );
    return { findings: compared, unreadable };
  } finally {
    clearTimeout(timer);
  }
}

function finding(name: string, query: string, series: Series[], window: MetricWindow, changes: WindowChanges): MetricFinding {
  let strongest: MetricFinding['changePoint'];
  const lookbackSeconds = queryLookbackSeconds(query);
  for (const one of series) {
    const change = findChangePoint(one.samples, { lookbackSeconds });
    if (change && (!strongest || change.sigmas > strongest.sigmas)) strongest = { ...change, labels: one.labels };
  }
  return { name, query, window, series, changePoint: strongest, ...(strongest ? placeChanges(changes, strongest) : {}) };
}

/**
 * The change point a week earlier that matches this one: within ten minutes of the same time (or the query's
 * window, if longer), in the same direction, by at least half the shift. Undefined when the week before did not
 * change like this.
 */
function sameChange(change: ChangePoint, earlier: readonly Series[], query: string): ChangePoint | undefined {
  const tolerance = Math.max(600, queryLookbackSeconds(query) ?? 0);
  const shift = change.after - change.before;
  for (const one of earlier) {
    const found = findChangePoint(one.samples, { lookbackSeconds: queryLookbackSeconds(query) });
    if (!found) continue;
    const earlierShift = found.after - found.before;
    if (Math.abs(found.time + WEEK - change.time) <= tolerance && Math.sign(earlierShift) === Math.sign(shift) && Math.abs(earlierShift) >= Math.abs(shift) / 2)
      return found;
  }
  return undefined;
}

/**
 * The last commit and merged PR before the onset began, and those inside the onset, nearest the fitted start of the
 * change first: by when they went live when the repository records deployments (a commit not deployed yet cannot
 * have caused it), else by commit time.
 */
function placeChanges(changes: WindowChanges, change: ChangePoint) {
  const from = change.from * 1000;
  const to = change.time * 1000;
  const commitTime = (commit: WindowCommit) => (changes.deployments ? commit.deployedAt : commit.date);
  const pullTime = (pull: MergedPull) =>
    changes.deployments ? changes.commits.find((commit) => pull.mergeSha && commit.sha === pull.mergeSha)?.deployedAt : pull.mergedAt;
  const went = changes.deployments ? 'went live' : 'committed';
  return {
    commitBefore: latestBefore(changes.commits, commitTime, from),
    pullBefore: latestBefore(changes.pulls, pullTime, from),
    commitCandidates: ranked(within(changes.commits, commitTime, from, to), commitTime, change.start, went),
    pullCandidates: ranked(within(changes.pulls, pullTime, from, to), pullTime, change.start, changes.deployments ? 'went live' : 'merged'),
  };
}

/** Nearest the fitted start first, each saying how near: "committed 5 s before the fitted start of the change (14:05:20 UTC)". */
function ranked<T>(items: readonly T[], dateOf: (item: T) => string | undefined, start: number, went: string): Ranked<T>[] {
  const offset = (item: T) => Date.parse(dateOf(item) ?? '') / 1000 - start;
  const at = new Date(start * 1000).toISOString().slice(11, 19);
  return [...items]
    .sort((a, b) => Math.abs(offset(a)) - Math.abs(offset(b)))
    .map((item) => {
      const seconds = Math.round(offset(item));
      const when = seconds === 0 ? 'at' : `${duration(Math.abs(seconds))} ${seconds < 0 ? 'before' : 'after'}`;
      return { ...item, why: `${went} ${when} the fitted start of the change (${at} UTC)` };
    });
}

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
}

function within<T>(items: readonly T[], dateOf: (item: T) => string | undefined, after: number, until: number): T[] {
  return items.filter((item) => {
    const time = Date.parse(dateOf(item) ?? '');
    return time > after && time <= until;
  });
}

function latestBefore<T>(items: readonly T[], dateOf: (item: T) => string | undefined, at: number): T | undefined {
  let best: { item: T; time: number } | undefined;
  for (const item of items) {
    const time = Date.parse(dateOf(item) ?? '');
    if (Number.isFinite(time) && time <= at && (!best || time > best.time)) best = { item, time };
  }
  return best?.item;
}

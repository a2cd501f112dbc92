import { prometheusGraphUrl, toUnixSeconds } from '../monitoring/prometheus-graph-url.js';
import type { Evidence } from './triage-report.js';

/** Where links point: the repository's web page (from GitHub's html_url) and the commit the investigation read. */
export interface RepoLinks {
  /** e.g. https://github.com/acme/checkout; absent when unknown (then refs are shown without links). */
  htmlBase?: string;
  /** The base branch commit the agent investigated (file links are permalinks to it). */
  sha?: string;
  /** The incident's PagerDuty page, for alert and log evidence. */
  incidentUrl?: string;
  /** The Prometheus the triage read, for links to metric evidence. */
  prometheusUrl?: string;
}

const FILE_REF = /^([A-Za-z0-9_./@+-]+?)(?::(\d+)(?:-(\d+))?)?$/;

export function fileUrl(links: RepoLinks, ref: string): string | undefined {
  const [, path, start, end] = FILE_REF.exec(ref.trim()) ?? [];
  if (!links.htmlBase || !links.sha || path === undefined) return undefined;
  if (path.split('/').some((part) => part === '..' || part === '')) return undefined;
  const anchor = start ? `#L${start}${end ? `-L${end}` : ''}` : '';
  return `${links.htmlBase}/blob/${links.sha}/${path.split('/').map(encodeURIComponent).join('/')}${anchor}`;
}

export function commitUrl(links: RepoLinks, sha: string): string | undefined {
  return links.htmlBase && /^[0-9a-f]{7,40}$/i.test(sha) ? `${links.htmlBase}/commit/${sha}` : undefined;
}

export function pullUrl(links: RepoLinks, ref: string): string | undefined {
  const number = /^(?:#|PR\s*#?)?(\d{1,7})$/i.exec(ref.trim())?.[1];
  return links.htmlBase && number ? `${links.htmlBase}/pull/${number}` : undefined;
}

/** The link for one piece of evidence, when its reference can be linked. */
export function evidenceUrl(evidence: Evidence, links: RepoLinks): string | undefined {
  switch (evidence.kind) {
    case 'file':
      return fileUrl(links, evidence.ref);
    case 'commit':
      return commitUrl(links, evidence.ref.trim());
    case 'pull_request':
      return pullUrl(links, evidence.ref);
    case 'alert':
      return links.incidentUrl ?? undefined;
    case 'log':
      // Log lines read with a monitoring tool have no page of their own; the incident's log entries do.
      return evidence.tool ? undefined : (links.incidentUrl ?? undefined);
    case 'metric':
      return prometheusGraphUrl(links.prometheusUrl, evidence.query, toUnixSeconds(evidence.from), toUnixSeconds(evidence.to));
    default:
      return undefined;
  }
}

/** "query `…` with tool, 14:00–15:30 UTC" for metric and log evidence; empty for the other kinds. */
export function evidenceSource(evidence: Evidence): string {
  const parts: string[] = [];
  if (evidence.tool) parts.push(`via ${evidence.tool}`);
  if (evidence.query) parts.push(`query ${evidence.query}`);
  const from = toUnixSeconds(evidence.from);
  const to = toUnixSeconds(evidence.to);
  if (from !== undefined || to !== undefined) parts.push(`${utcMinute(from, evidence.from)} to ${utcMinute(to, evidence.to)}`);
  return parts.join(', ');
}

function utcMinute(seconds: number | undefined, raw: string | undefined): string {
  return seconds === undefined ? (raw ?? '?') : `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

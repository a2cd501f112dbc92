/**
 * A link to Prometheus's graph page showing `query` over [start, end] (unix seconds); the same
 * `g0.*` parameters open the graph in Prometheus 2's and 3's web UI. Undefined without a base URL or query.
 */
export function prometheusGraphUrl(base: string | undefined, query: string | undefined, start?: number, end?: number): string | undefined {
  if (!base || !query) return undefined;
  let url: URL;
  try {
    url = new URL('graph', base.endsWith('/') ? base : `${base}/`);
  } catch {
    return undefined;
  }
  url.searchParams.set('g0.expr', query);
  url.searchParams.set('g0.tab', '0');
  if (start !== undefined && end !== undefined && Number.isFinite(start) && Number.isFinite(end) && end > start) {
    url.searchParams.set('g0.range_input', `${Math.max(1, Math.round((end - start) / 60))}m`);
    url.searchParams.set('g0.end_input', new Date(end * 1000).toISOString().slice(0, 19).replace('T', ' '));
  }
  return url.toString();
}

/** An ISO 8601 time or unix seconds as unix seconds; undefined when it is neither. */
export function toUnixSeconds(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const parsed = Date.parse(trimmed);
  return Number.isFinite(parsed) ? parsed / 1000 : undefined;
}

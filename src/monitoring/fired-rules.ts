import type { PrometheusClient } from './prometheus-client.js';
import { prometheusGraphUrl } from './prometheus-graph-url.js';

/** An alerting rule behind the incident, as Prometheus reports it now. */
export interface FiredRule {
  readonly name: string;
  readonly group: string;
  readonly state: string;
  readonly query: string;
  readonly graphUrl?: string;
  /** When its oldest active alert became active. */
  readonly activeAt?: string;
}

const normalize = (expression: string) => expression.replace(/\s+/g, ' ').trim();

/**
 * The alerting rules whose expression is the alert's own (from its generatorURL); without one, the rules firing
 * now. Each with its state and a graph link to its expression over the window. At most `max`.
 */
export async function firedRules(
  client: PrometheusClient,
  prometheusUrl: string,
  alertExpressions: readonly string[],
  window: { start: number; end: number },
  options: { signal?: AbortSignal; max?: number } = {},
): Promise<FiredRule[]> {
  const { groups } = await client.alertingRules({ signal: options.signal });
  const wanted = new Set(alertExpressions.map(normalize));
  const found: FiredRule[] = [];
  for (const group of groups) {
    for (const rule of group.rules) {
      if (rule.type !== 'alerting') continue;
      const matches = wanted.size > 0 ? wanted.has(normalize(rule.query)) : rule.state === 'firing';
      if (!matches) continue;
      const activeAt = (rule.alerts ?? [])
        .map((alert) => alert.activeAt)
        .filter((at): at is string => Boolean(at))
        .sort()[0];
      found.push({
        name: rule.name,
        group: group.name,
        state: rule.state ?? 'unknown',
        query: rule.query,
        graphUrl: prometheusGraphUrl(prometheusUrl, rule.query, window.start, window.end),
        ...(activeAt ? { activeAt } : {}),
      });
    }
  }
  return found.slice(0, options.max ?? 5);
}

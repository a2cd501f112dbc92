import type { PrometheusClient, RequestOptions, TimeRange } from './prometheus-client.js';
import { prometheusGraphUrl } from './prometheus-graph-url.js';

export type DiscoveryMode = 'labels' | 'label_values' | 'series' | 'metadata' | 'rules' | 'alerts';

export interface DiscoveryRequest {
  readonly mode: DiscoveryMode;
  /** labels, label_values: only of the series matching this selector; series: the selector (required). */
  readonly match?: string;
  readonly label?: string;
  readonly metric?: string;
  readonly range: TimeRange;
}

const MAX_ITEMS = 200;

/**
 * What is there to read in a Prometheus: label names and values, the series of a selector, metric metadata, and
 * the alerting rules with their state and the alerts now active (each rule with a graph link to its expression).
 * Plain text lines, at most MAX_ITEMS items each (the caller cuts the text to its size and quotes it as untrusted).
 */
export async function discoverMetrics(
  client: PrometheusClient,
  prometheusUrl: string,
  request: DiscoveryRequest,
  options: RequestOptions = {},
): Promise<string> {
  const { range } = request;
  switch (request.mode) {
    case 'labels':
      return listed(`label names${request.match ? ` of ${request.match}` : ''}`, await client.labelNames(range, request.match, options));
    case 'label_values': {
      if (!request.label) throw new Error('label_values needs label (the label name whose values to list).');
      return listed(
        `values of label ${request.label}${request.match ? ` in ${request.match}` : ''}`,
        await client.labelValues(request.label, range, request.match, options),
      );
    }
    case 'series': {
      if (!request.match) throw new Error('series needs match (a series selector such as http_requests_total{service="checkout"}).');
      const sets = await client.series(request.match, range, options);
      return listed(
        `series matching ${request.match}`,
        sets.map(
          (labels) =>
            `{${Object.entries(labels)
              .map(([key, value]) => `${key}="${value}"`)
              .join(', ')}}`,
        ),
      );
    }
    case 'metadata': {
      const metadata = await client.metadata(request.metric, MAX_ITEMS, options);
      const lines = Object.entries(metadata).flatMap(([metric, entries]) =>
        entries.slice(0, 1).map((entry) => `${metric} (${entry.type}${entry.unit ? `, ${entry.unit}` : ''}): ${entry.help}`),
      );
      return listed(`metric metadata${request.metric ? ` of ${request.metric}` : ''}`, lines);
    }
    case 'rules': {
      const { groups } = await client.alertingRules(options);
      const lines = groups.flatMap((group) =>
        group.rules
          .filter((rule) => rule.type === 'alerting')
          .map((rule) => {
            const active = (rule.alerts ?? []).map(
              (alert) => `${alert.state} since ${alert.activeAt ?? '?'} {${labelText(alert.labels)}} value ${alert.value ?? '?'}`,
            );
            return [
              `rule ${rule.name} (group ${group.name}): ${rule.state ?? 'unknown'}, health ${rule.health ?? 'unknown'}${rule.lastError ? ` (${rule.lastError})` : ''}${rule.duration ? `, for ${rule.duration}s` : ''}`,
              `  expr: ${rule.query}`,
              ...(rule.annotations?.summary ? [`  summary: ${rule.annotations.summary}`] : []),
              ...active.slice(0, 5).map((line) => `  alert ${line}`),
              `  graph: ${prometheusGraphUrl(prometheusUrl, rule.query, range.start, range.end) ?? ''}`,
            ].join('\n');
          }),
      );
      return listed('alerting rules', lines);
    }
    case 'alerts': {
      const { alerts } = await client.alerts(options);
      return listed(
        'alerts pending or firing now',
        alerts.map(
          (alert) => `${alert.labels.alertname ?? '?'} ${alert.state} since ${alert.activeAt ?? '?'} {${labelText(alert.labels)}} value ${alert.value ?? '?'}`,
        ),
      );
    }
  }
}

function labelText(labels: Readonly<Record<string, string>>): string {
  return Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .join(', ');
}

function listed(what: string, items: readonly string[]): string {
  const shown = items.slice(0, MAX_ITEMS);
  const more = items.length > shown.length ? `\n… and ${items.length - shown.length} more (narrow it with match)` : '';
  return `${what}: ${items.length}${items.length === 0 ? ' (none)' : ''}\n${shown.join('\n')}${more}`;
}

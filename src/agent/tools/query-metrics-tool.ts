import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { describeError } from '../../errors.js';
import { findChangePoint } from '../../monitoring/change-point.js';
import type { MetricWindow } from '../../monitoring/metric-evidence.js';
import { prometheusGraphUrl, toUnixSeconds } from '../../monitoring/prometheus-graph-url.js';
import { queryLookbackSeconds } from '../../monitoring/promql-lookback.js';
import { discoverMetrics } from '../../monitoring/metric-discovery.js';
import type { PrometheusClient, Series } from '../../monitoring/prometheus-client.js';
import { clipText, neutralizeTags } from '../../triage/untrusted-text.js';
import type { AgentTool } from '../agent-tool.js';

export const QUERY_METRICS_TOOL_NAME = 'query_metrics';
const DEFAULT_OUTPUT_CHARS = 8000;

const inputSchema = z
  .object({
    query: z.string().min(1).max(2000).optional().describe('range, instant: a PromQL expression. Aggregate (sum by (...)) rather than reading many series.'),
    mode: z
      .enum(['range', 'instant', 'labels', 'label_values', 'series', 'metadata', 'rules', 'alerts'])
      .default('range')
      .describe(
        'range: values over [start, end]; instant: the value at one time; labels: label names; label_values: the values of `label`; series: the label sets of the series matching `match`; metadata: type and help of metrics (`metric` for one); rules: the alerting rules with their state and active alerts; alerts: the alerts pending or firing now.',
      ),
    match: z.string().min(1).max(2000).optional().describe('labels, label_values: only of the series matching this selector; series: the selector (required).'),
    label: z.string().min(1).max(200).optional().describe('label_values: the label name.'),
    metric: z.string().min(1).max(200).optional().describe('metadata: one metric name.'),
    start: z.string().optional().describe('range: ISO 8601 UTC time or unix seconds. Default: the start of the incident window.'),
    end: z.string().optional().describe('range: ISO 8601 UTC time or unix seconds. Default: the end of the incident window.'),
    step: z.number().int().positive().optional().describe('range: seconds between points (widened so no series has more than 500 points).'),
    time: z.string().optional().describe('instant: ISO 8601 UTC time or unix seconds. Default: the end of the incident window.'),
  })
  .strict();

export interface QueryMetricsToolOptions {
  client: PrometheusClient;
  /** For the graph link in each answer. */
  prometheusUrl: string;
  /** The incident window: the default range. */
  window: MetricWindow;
  maxOutputChars?: number;
}

/**
 * Read-only PromQL for the triage agent (instant and range queries through the bounded client).
 * Every answer is quoted as untrusted data (label values come from outside) and cut to a bounded size;
 * every failure (unreachable, slow, invalid PromQL, too many series) is an error result the agent can act on.
 */
export function createQueryMetricsTool(options: QueryMetricsToolOptions): AgentTool {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(inputSchema, { io: 'input' }) as Record<string, unknown>;
  const definition: Anthropic.Messages.Tool = {
    name: QUERY_METRICS_TOOL_NAME,
    description:
      "Read metrics from the incident's Prometheus (read-only). Range queries return each series' points and its change point (least-squares step fit, with the onset); instant queries return the current values. To find what to query: labels, label_values, series and metadata list what exists (in the incident window unless start/end are given); rules lists the alerting rules with their state and a graph link, alerts the alerts firing now. Cite what you use as metric evidence with its query and time range.",
    input_schema: schema as Anthropic.Messages.Tool.InputSchema,
  };
  const maxChars = options.maxOutputChars ?? DEFAULT_OUTPUT_CHARS;
  return {
    name: QUERY_METRICS_TOOL_NAME,
    definition,
    describe: (input) => {
      const given = input as { query?: string; mode?: string; match?: string; label?: string } | undefined;
      return given?.query
        ? { key: 'queryingMetrics', query: oneLine(given.query) }
        : {
            key: 'listingMetrics',
            mode: given?.mode ?? 'labels',
            ...(given?.label ? { label: given.label } : {}),
            ...(given?.match ? { match: oneLine(given.match) } : {}),
          };
    },
    async execute(input, context) {
      const parsed = inputSchema.safeParse(input);
      if (!parsed.success) {
        return {
          content: `Invalid query_metrics input: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`,
          isError: true,
        };
      }
      const request = parsed.data;
      if (request.mode !== 'range' && request.mode !== 'instant') {
        const start = request.start === undefined ? options.window.start : toUnixSeconds(request.start);
        const end = request.end === undefined ? options.window.end : toUnixSeconds(request.end);
        if (start === undefined || end === undefined) return { content: 'start and end must be ISO 8601 times or unix seconds.', isError: true };
        try {
          const text = await discoverMetrics(
            options.client,
            options.prometheusUrl,
            { mode: request.mode, match: request.match, label: request.label, metric: request.metric, range: { start, end } },
            { signal: context.signal },
          );
          return { content: `<untrusted source="prometheus">\n${neutralizeTags(clipText(text, maxChars))}\n</untrusted>` };
        } catch (error) {
          return { content: `query_metrics could not list ${request.mode}: ${describeError(error)}`, isError: true };
        }
      }
      if (!request.query) return { content: `${request.mode} needs query (a PromQL expression).`, isError: true };
      const query = request.query;
      try {
        if (request.mode === 'instant') {
          const time = request.time === undefined ? options.window.end : toUnixSeconds(request.time);
          if (time === undefined) return { content: `time "${request.time}" is neither an ISO 8601 time nor unix seconds.`, isError: true };
          const series = await options.client.queryInstant(query, time, { signal: context.signal });
          return {
            content: answer(`instant query at ${iso(time)}`, query, series, maxChars, prometheusGraphUrl(options.prometheusUrl, query)),
          };
        }
        const start = request.start === undefined ? options.window.start : toUnixSeconds(request.start);
        const end = request.end === undefined ? options.window.end : toUnixSeconds(request.end);
        if (start === undefined || end === undefined) return { content: 'start and end must be ISO 8601 times or unix seconds.', isError: true };
        const series = await options.client.queryRange({ query, start, end, step: request.step }, { signal: context.signal });
        return {
          content: answer(
            `range query from ${iso(start)} to ${iso(end)}`,
            query,
            series,
            maxChars,
            prometheusGraphUrl(options.prometheusUrl, query, start, end),
          ),
        };
      } catch (error) {
        return { content: `query_metrics could not read ${query}: ${describeError(error)}`, isError: true };
      }
    },
  };
}

function answer(what: string, query: string, series: readonly Series[], maxChars: number, graphUrl: string | undefined): string {
  const lookbackSeconds = queryLookbackSeconds(query);
  const lines = [`${what}: ${series.length} series${series.length === 0 ? ' (nothing matched)' : ''}`];
  for (const one of series) {
    const labels = Object.entries(one.labels)
      .map(([key, value]) => `${key}="${value}"`)
      .join(', ');
    const values = one.samples.map((sample) => sample.value).filter(Number.isFinite);
    const change = one.samples.length > 1 ? findChangePoint(one.samples, { lookbackSeconds }) : undefined;
    lines.push(
      '',
      `series {${labels}}: ${one.samples.length} points${values.length > 0 ? `, min ${Math.min(...values)}, max ${Math.max(...values)}` : ''}${
        change
          ? `; change point at ${iso(change.time)} (began after ${iso(change.from)}) from ${change.before.toPrecision(4)} to ${change.after.toPrecision(4)}`
          : one.samples.length > 1
            ? '; no change point'
            : ''
      }`,
    );
    for (const sample of one.samples) lines.push(`${iso(sample.time)} ${sample.value}`);
  }
  const body = `<untrusted source="prometheus">\n${neutralizeTags(clipText(lines.join('\n'), maxChars))}\n</untrusted>`;
  return graphUrl ? `${body}\nGraph: ${graphUrl}` : body;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

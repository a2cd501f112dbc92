import { WrenchError } from '../errors.js';
import type { Sample } from './change-point.js';

export interface PrometheusSource {
  /** Its name under `monitoring:`, for messages. */
  readonly name?: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Series {
  readonly labels: Readonly<Record<string, string>>;
  readonly samples: readonly Sample[];
}

export interface PrometheusLimits {
  readonly timeoutMs?: number;
  readonly maxSeries?: number;
  readonly maxPoints?: number;
  /** The largest answer read, in bytes: a larger one is refused as soon as it shows (its Content-Length, else while reading). */
  readonly maxResponseBytes?: number;
}

export interface RangeQuery {
  readonly query: string;
  readonly start: number; // unix seconds
  readonly end: number;
  readonly step?: number;
}

type QueryData = { resultType: string; result: unknown };

export interface TimeRange {
  readonly start: number; // unix seconds
  readonly end: number;
}

/** One group of `/api/v1/rules?type=alert`, as Prometheus documents it. */
export interface RuleGroup {
  readonly name: string;
  readonly file: string;
  readonly rules: AlertingRule[];
}

export interface AlertingRule {
  readonly type: 'alerting' | 'recording';
  readonly name: string;
  readonly query: string;
  readonly duration?: number;
  readonly state?: 'firing' | 'pending' | 'inactive';
  readonly health?: string;
  readonly lastError?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
  readonly alerts?: ActiveAlert[];
}

export interface ActiveAlert {
  readonly labels: Record<string, string>;
  readonly annotations?: Record<string, string>;
  readonly state: 'firing' | 'pending' | 'inactive';
  readonly activeAt?: string;
  readonly value?: string;
}

const rangeParams = (range: TimeRange) => ({ start: String(range.start), end: String(range.end) });

/** Ends a request early (the overall deadline of the evidence, a cancelled triage). */
export interface RequestOptions {
  readonly signal?: AbortSignal;
}

interface ApiResponse {
  status: 'success' | 'error';
  data?: unknown;
  errorType?: string;
  error?: string;
}

/** Read-only, bounded access to the Prometheus HTTP API (/api/v1/query_range and /api/v1/query). */
export class PrometheusClient {
  private readonly timeoutMs: number;
  private readonly maxSeries: number;
  private readonly maxPoints: number;
  private readonly maxResponseBytes: number;

  constructor(
    private readonly source: PrometheusSource,
    limits: PrometheusLimits = {},
  ) {
    this.timeoutMs = limits.timeoutMs ?? 10_000;
    this.maxSeries = limits.maxSeries ?? 20;
    this.maxPoints = limits.maxPoints ?? 500;
    this.maxResponseBytes = limits.maxResponseBytes ?? 2 * 1024 * 1024;
  }

  async queryRange({ query, start, end, step }: RangeQuery, options: RequestOptions = {}): Promise<Series[]> {
    if (!(end > start)) throw new WrenchError('prometheus_bad_range', `The time range ${start}..${end} is empty; give an end after the start.`);
    const boundedStep = Math.max(step ?? 60, Math.ceil((end - start) / this.maxPoints), 1);
    const data = await this.request<QueryData>('/api/v1/query_range', { query, start: String(start), end: String(end), step: String(boundedStep) }, options);
    return this.toSeries(query, data.resultType, data.result);
  }

  async queryInstant(query: string, time?: number, options: RequestOptions = {}): Promise<Series[]> {
    const data = await this.request<QueryData>('/api/v1/query', { query, ...(time === undefined ? {} : { time: String(time) }) }, options);
    return this.toSeries(query, data.resultType, data.result);
  }

  private toSeries(query: string, resultType: string, result: unknown): Series[] {
    if (resultType === 'scalar' || resultType === 'string') {
      const [time, value] = result as [number, string];
      return [{ labels: {}, samples: [{ time, value: Number(value) }] }];
    }
    const entries = result as { metric: Record<string, string>; values?: [number, string][]; value?: [number, string] }[];
    if (entries.length > this.maxSeries) {
      throw new WrenchError(
        'prometheus_result_too_large',
        `The query ${query} returned ${entries.length} series (the limit is ${this.maxSeries}); aggregate it, e.g. with sum by (…).`,
      );
    }
    return entries.map((entry) => ({
      labels: entry.metric,
      samples: (entry.values ?? (entry.value ? [entry.value] : [])).map(([time, value]) => ({ time, value: Number(value) })),
    }));
  }

  /** Label names (of the series matching `match`, when given) seen in [start, end]. */
  labelNames(range: TimeRange, match?: string, options: RequestOptions = {}): Promise<string[]> {
    return this.request<string[]>('/api/v1/labels', { ...rangeParams(range), ...(match ? { 'match[]': match } : {}) }, options);
  }

  /** The values of one label (of the series matching `match`, when given) seen in [start, end]. */
  labelValues(label: string, range: TimeRange, match?: string, options: RequestOptions = {}): Promise<string[]> {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(label)) throw new WrenchError('prometheus_bad_query', `"${label}" is not a label name.`);
    return this.request<string[]>(`/api/v1/label/${label}/values`, { ...rangeParams(range), ...(match ? { 'match[]': match } : {}) }, options, 'GET');
  }

  /** The label sets of the series matching a selector in [start, end]. */
  series(match: string, range: TimeRange, options: RequestOptions = {}): Promise<Record<string, string>[]> {
    return this.request<Record<string, string>[]>('/api/v1/series', { ...rangeParams(range), 'match[]': match }, options);
  }

  /** Type, help and unit of the metrics scraped (one metric, when given), at most `limit` metrics. */
  metadata(metric: string | undefined, limit: number, options: RequestOptions = {}): Promise<Record<string, { type: string; help: string; unit: string }[]>> {
    return this.request('/api/v1/metadata', { limit: String(limit), ...(metric ? { metric } : {}) }, options, 'GET');
  }

  /** The alerting rules with their state and active alerts. */
  alertingRules(options: RequestOptions = {}): Promise<{ groups: RuleGroup[] }> {
    return this.request('/api/v1/rules', { type: 'alert' }, options, 'GET');
  }

  /** The alerts now pending or firing. */
  alerts(options: RequestOptions = {}): Promise<{ alerts: ActiveAlert[] }> {
    return this.request('/api/v1/alerts', {}, options, 'GET');
  }

  private async request<T>(path: string, params: Record<string, string>, options: RequestOptions, method: 'GET' | 'POST' = 'POST'): Promise<T> {
    const url = new URL(path.replace(/^\//, ''), this.source.url.endsWith('/') ? this.source.url : `${this.source.url}/`);
    if (method === 'GET') for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    const failed = (error: unknown): never => {
      if (options.signal?.aborted) {
        throw new WrenchError('prometheus_deadline', `Prometheus at ${this.source.url}: ${abortReason(options.signal)}`, { cause: error });
      }
      const timedOut = timeout.aborted;
      throw new WrenchError(
        timedOut ? 'prometheus_timeout' : 'prometheus_unreachable',
        timedOut
          ? `Prometheus at ${this.source.url} did not answer within ${this.timeoutMs} ms; check its load or raise the timeout.`
          : `Prometheus at ${this.source.url} could not be reached; check monitoring.${this.source.name ?? '<name>'}.prometheus.url.`,
        { cause: error },
      );
    };
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded', ...this.source.headers } : { ...this.source.headers },
        body: method === 'POST' ? new URLSearchParams(params) : undefined,
        signal,
      });
    } catch (error) {
      return failed(error);
    }
    let text: string;
    try {
      text = await this.readBounded(response, params.query ?? path);
    } catch (error) {
      if (error instanceof WrenchError) throw error;
      return failed(error);
    }
    let body: ApiResponse;
    try {
      body = JSON.parse(text) as ApiResponse;
    } catch (error) {
      throw new WrenchError(
        'prometheus_bad_response',
        `Prometheus at ${this.source.url} answered HTTP ${response.status} without a JSON body; check the URL points at the Prometheus API.`,
        { cause: error },
      );
    }
    if (body.status !== 'success' || !body.data) {
      const code = body.errorType === 'bad_data' ? 'prometheus_bad_query' : 'prometheus_error';
      const what = params.query ?? params['match[]'] ?? path;
      throw new WrenchError(code, `Prometheus rejected the query ${what}: ${body.error ?? `HTTP ${response.status}`}. Fix the PromQL and try again.`);
    }
    return body.data as T;
  }

  /** The body as text, refused (and the connection dropped) once it is larger than the limit. */
  /** `asked` names the request in the refusal: its PromQL query, else its API path. */
  private async readBounded(response: Response, asked: string): Promise<string> {
    const tooLarge = () => {
      void response.body?.cancel().catch(() => undefined);
      return new WrenchError(
        'prometheus_result_too_large',
        `The answer to ${asked} is larger than ${Math.round(this.maxResponseBytes / 1024)} KiB; aggregate it (sum by (…)) or narrow the selector.`,
      );
    };
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > this.maxResponseBytes) throw tooLarge();
    if (!response.body) return '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > this.maxResponseBytes) throw tooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

function abortReason(signal: AbortSignal): string {
  const reason = signal.reason as unknown;
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the request was cancelled';
}

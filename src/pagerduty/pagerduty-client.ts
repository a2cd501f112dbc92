import { api } from '@pagerduty/pdjs';

/** What pdjs resolves with (a fetch Response plus the parsed body). */
interface APIResponse {
  ok: boolean;
  status: number;
  data?: unknown;
}
import { WrenchError } from '../errors.js';
import { countApiError } from '../metrics/count-api-calls.js';
import { metrics } from '../metrics/metrics.js';

export interface PagerDutyClientOptions {
  token: string;
  /** PAGERDUTY_API_URL, e.g. https://api.pagerduty.com. */
  apiUrl: string;
  /** PAGERDUTY_FROM_EMAIL: the user notes are written as. Without it, notes are not posted. */
  fromEmail?: string;
  /** Wait before retrying a 429 (pdjs retries up to 3 times). Default 2 s. */
  retryTimeoutMs?: number;
  requestTimeoutMs?: number;
}

export type PagerDutyObject = Record<string, unknown>;

export interface PostedNote {
  id: string;
  /** The PagerDuty user the note was written as (the From header's user). */
  userId?: string;
  content: string;
}

/**
 * The PagerDuty REST calls triage needs, over @pagerduty/pdjs. pdjs only changes the host of an
 * https URL with `server`, so every call passes the full `url` under PAGERDUTY_API_URL, and the
 * body is read from `response.data` (pdjs leaves `resource` empty for such URLs). pdjs does not
 * throw on HTTP errors: a non-2xx answer becomes a WrenchError `pagerduty_failed` naming the status.
 */
export class PagerDutyClient {
  private readonly base: string;

  constructor(private readonly options: PagerDutyClientOptions) {
    this.base = options.apiUrl.replace(/\/+$/, '');
  }

  get fromEmail(): string | undefined {
    return this.options.fromEmail;
  }

  async incident(id: string): Promise<PagerDutyObject> {
    const data = await this.call('GET', `/incidents/${encodeURIComponent(id)}`);
    return (data.incident ?? {}) as PagerDutyObject;
  }

  async alerts(incidentId: string, limit = 25): Promise<PagerDutyObject[]> {
    const data = await this.call('GET', `/incidents/${encodeURIComponent(incidentId)}/alerts`, { query: { limit: String(limit) } });
    return asArray(data.alerts);
  }

  async logEntries(incidentId: string, limit = 50): Promise<PagerDutyObject[]> {
    const data = await this.call('GET', `/incidents/${encodeURIComponent(incidentId)}/log_entries`, {
      query: { limit: String(limit), is_overview: 'false' },
    });
    return asArray(data.log_entries);
  }

  async notes(incidentId: string): Promise<PagerDutyObject[]> {
    const data = await this.call('GET', `/incidents/${encodeURIComponent(incidentId)}/notes`);
    return asArray(data.notes);
  }

  /** POST /incidents/{id}/notes with the From header (PagerDuty requires it for this call). */
  async postNote(incidentId: string, content: string): Promise<PostedNote> {
    if (!this.options.fromEmail) {
      throw new WrenchError('pagerduty_not_configured', 'PAGERDUTY_FROM_EMAIL is not set, so I cannot write notes on incidents.');
    }
    const data = await this.call('POST', `/incidents/${encodeURIComponent(incidentId)}/notes`, {
      headers: { From: this.options.fromEmail },
      body: { note: { content } },
    });
    const note = (data.note ?? {}) as { id?: string; content?: string; user?: { id?: string } };
    return { id: String(note.id ?? ''), userId: note.user?.id, content: note.content ?? content };
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    extra: { query?: Record<string, string>; headers?: Record<string, string>; body?: object } = {},
  ): Promise<Record<string, unknown>> {
    let response: APIResponse;
    try {
      response = (await api({
        token: this.options.token,
        url: `${this.base}${path}`,
        method,
        headers: extra.headers,
        ...(method === 'GET' ? { queryParameters: extra.query } : { data: extra.body }),
        retryTimeout: this.options.retryTimeoutMs ?? 2000,
        requestTimeout: this.options.requestTimeoutMs ?? 20_000,
      })) as APIResponse;
    } catch (error) {
      const status = (error as { status?: number }).status;
      countApiError('pagerduty', metrics, status ?? 'network');
      throw new WrenchError('pagerduty_failed', `PagerDuty ${method} ${path} failed${status ? ` (HTTP ${status})` : ''}: ${describe(error)}`, { cause: error });
    }
    if (!response.ok) {
      countApiError('pagerduty', metrics, response.status);
      const message = (response.data as { error?: { message?: string; errors?: string[] } } | undefined)?.error;
      const detail = [message?.message, ...(message?.errors ?? [])].filter(Boolean).join(': ');
      throw new WrenchError(
        'pagerduty_failed',
        `PagerDuty ${method} ${path} answered HTTP ${response.status}${detail ? ` (${detail})` : ''}.${hint(response.status)}`,
      );
    }
    return (response.data ?? {}) as Record<string, unknown>;
  }
}

function asArray(value: unknown): PagerDutyObject[] {
  return Array.isArray(value) ? (value as PagerDutyObject[]) : [];
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  const status = (error as { statusText?: string }).statusText;
  return status || 'no readable answer';
}

function hint(status: number): string {
  if (status === 401 || status === 403) return ' Check PAGERDUTY_API_TOKEN.';
  if (status === 400) return ' Check that PAGERDUTY_FROM_EMAIL is the email of a PagerDuty user.';
  if (status === 429) return ' PagerDuty rate-limited Wrench; it will retry later.';
  return '';
}

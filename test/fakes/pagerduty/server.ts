import type { IncomingMessage, ServerResponse } from 'node:http';
import { flatHeaders, readBody, sendJson } from '../shared/http.js';
import type { PatternFailures } from '../shared/pattern-failures.js';
import { alertJson, incidentJson, logEntryJson, newNoteId, noteJson, serviceJson, type Urls } from './shapes.js';
import { isoNow, type PagerDutyStore } from './store.js';
import type { IncidentRecord, UserRecord } from './types.js';

export interface PagerDutyRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body: unknown;
  token: string | undefined;
  from: string | undefined;
  status: number;
  at: number;
}

export interface PagerDutyFailure {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface PagerDutyServerDeps {
  store: PagerDutyStore;
  urls: Urls;
  requests: PagerDutyRequest[];
  failures: PatternFailures<PagerDutyFailure>;
  /** When set, only this token is accepted. */
  token?: string;
  /** Refuse From emails that are not seeded users (PagerDuty's real behaviour). Default false: unknown emails become users. */
  strictFrom: boolean;
}

type Reply = { status: number; body?: unknown };

const NOT_FOUND: Reply = { status: 404, body: { error: { message: 'Not Found', code: 2100 } } };

function invalid(message: string): Reply {
  return { status: 400, body: { error: { message: 'Invalid Input Provided', code: 2001, errors: [message] } } };
}

export function pagerDutyRequestHandler(deps: PagerDutyServerDeps) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', deps.urls.api);
    const method = req.method ?? 'GET';
    const headers = flatHeaders(req);
    const raw = await readBody(req);
    let body: Record<string, any> = {};
    try {
      body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, any>) : {};
    } catch {
      return void sendJson(res, 400, { error: { message: 'Invalid Input Provided', code: 2001, errors: ['Malformed JSON'] } });
    }
    const token = /^(?:Token token=|Bearer\s+)(.+)$/i.exec(headers.authorization ?? '')?.[1];
    const record: PagerDutyRequest = {
      method,
      path: url.pathname,
      query: queryObject(url.searchParams),
      headers,
      body,
      token,
      from: headers.from,
      status: 0,
      at: Date.now(),
    };
    deps.requests.push(record);
    const send = (reply: Reply, extra: Record<string, string> = {}) => {
      record.status = reply.status;
      sendJson(res, reply.status, reply.body ?? {}, extra);
    };
    const failure = deps.failures.take(method, url.pathname);
    if (failure)
      return send(
        {
          status: failure.status,
          body: failure.body ?? {
            error: { message: failure.status === 429 ? 'Rate Limit Exceeded' : 'Internal Server Error', code: failure.status === 429 ? 2020 : 2000 },
          },
        },
        failure.headers,
      );
    if (!token || (deps.token && token !== deps.token)) return send({ status: 401, body: { error: { message: 'Unauthorized', code: 2006 } } });
    send(route(deps, method, url, body, headers.from));
  };
}

function route(deps: PagerDutyServerDeps, method: string, url: URL, body: Record<string, any>, from: string | undefined): Reply {
  const { store, urls } = deps;
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (method === 'GET' && parts.length === 2 && parts[0] === 'services') {
    return store.services.has(parts[1]!) ? { status: 200, body: { service: serviceJson(urls, store, parts[1]!) } } : NOT_FOUND;
  }
  if (parts[0] !== 'incidents') return NOT_FOUND;
  if (method === 'GET' && parts.length === 1) return listIncidents(deps, url.searchParams);
  const incident = store.incident(parts[1] ?? '');
  if (!incident) return NOT_FOUND;
  const sub = parts[2];
  if (method === 'GET' && parts.length === 2) return { status: 200, body: { incident: incidentJson(urls, store, incident) } };
  if (method === 'PUT' && parts.length === 2) return updateIncident(deps, incident, body, from);
  if (method === 'GET' && sub === 'alerts') {
    const alerts = store.alerts.filter((a) => a.incident === incident.id).map((a) => alertJson(urls, store, a));
    return page('alerts', alerts, url.searchParams);
  }
  if (method === 'GET' && sub === 'log_entries') {
    const entries = (store.logEntries.get(incident.id) ?? []).map((e, i) => logEntryJson(urls, store, incident, e, i));
    return page('log_entries', [...entries].reverse(), url.searchParams);
  }
  if (method === 'GET' && sub === 'notes') {
    return { status: 200, body: { notes: store.notes.filter((n) => n.incident === incident.id).map((n) => noteJson(urls, n)) } };
  }
  if (method === 'POST' && sub === 'notes') return addNote(deps, incident, body, from);
  return NOT_FOUND;
}

function listIncidents(deps: PagerDutyServerDeps, query: URLSearchParams): Reply {
  const statuses = query.getAll('statuses[]');
  const services = query.getAll('service_ids[]');
  const incidents = deps.store.incidents
    .filter((i) => statuses.length === 0 || statuses.includes(i.status))
    .filter((i) => services.length === 0 || services.includes(i.service))
    .map((i) => incidentJson(deps.urls, deps.store, i));
  return page('incidents', incidents, query);
}

function requester(deps: PagerDutyServerDeps, from: string | undefined): UserRecord | Reply {
  if (!from) return invalid("The 'From' header is required and must be the email address of a valid user.");
  const known = deps.store.userByEmail(from);
  if (known) return known;
  if (deps.strictFrom) return invalid('Requester User Not Found');
  return deps.store.addUser({ email: from });
}

function addNote(deps: PagerDutyServerDeps, incident: IncidentRecord, body: Record<string, any>, from: string | undefined): Reply {
  const user = requester(deps, from);
  if ('status' in user) return user;
  const content = body?.note?.content;
  if (typeof content !== 'string' || content.trim() === '') return invalid('Note content cannot be empty.');
  if (content.length > 25_000) return invalid('Note content is too long (maximum is 25000 characters).');
  const note = { id: newNoteId(), incident: incident.id, content, user, created_at: isoNow() };
  deps.store.notes.push(note);
  deps.store.logEntries
    .get(incident.id)
    ?.push({ type: 'annotate_log_entry', summary: `Note added`, created_at: note.created_at, channel: { type: 'note', summary: content } });
  return { status: 201, body: { note: noteJson(deps.urls, note) } };
}

function updateIncident(deps: PagerDutyServerDeps, incident: IncidentRecord, body: Record<string, any>, from: string | undefined): Reply {
  const user = requester(deps, from);
  if ('status' in user) return user;
  const status = body?.incident?.status;
  if (status !== undefined && !['acknowledged', 'resolved'].includes(status)) return invalid('Incident status is invalid.');
  if (status) {
    incident.status = status;
    incident.updated_at = isoNow();
    deps.store.logEntries.get(incident.id)?.push({
      type: status === 'resolved' ? 'resolve_log_entry' : 'acknowledge_log_entry',
      summary: `${status} by ${user.name}`,
      created_at: incident.updated_at,
    });
  }
  if (typeof body?.incident?.title === 'string') incident.title = body.incident.title;
  return { status: 200, body: { incident: incidentJson(deps.urls, deps.store, incident) } };
}

function page(key: string, items: unknown[], query: URLSearchParams): Reply {
  const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 25)));
  const offset = Math.max(0, Number(query.get('offset') ?? 0));
  const slice = items.slice(offset, offset + limit);
  const total = query.get('total') === 'true' ? items.length : null;
  return { status: 200, body: { [key]: slice, limit, offset, more: offset + limit < items.length, total } };
}

function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    out[key] = key.endsWith('[]') ? values : (values.at(-1) ?? '');
  }
  return out;
}

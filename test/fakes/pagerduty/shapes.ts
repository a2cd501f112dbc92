import { upperId } from '../shared/ids.js';
import type { PagerDutyStore } from './store.js';
import type { AlertRecord, IncidentRecord, NoteRecord, SeedLogEntry, UserRecord } from './types.js';

const WEB = 'https://wrench-test.pagerduty.com';

export interface Urls {
  api: string;
}

export function reference(urls: Urls, kind: string, path: string, id: string, summary: string): Record<string, unknown> {
  return { id, type: `${kind}_reference`, summary, self: `${urls.api}/${path}/${id}`, html_url: `${WEB}/${path}/${id}` };
}

export function serviceJson(urls: Urls, store: PagerDutyStore, id: string): Record<string, unknown> {
  const service = store.services.get(id)!;
  return {
    id,
    type: 'service',
    summary: service.name,
    self: `${urls.api}/services/${id}`,
    html_url: `${WEB}/service-directory/${id}`,
    name: service.name,
    description: service.description,
    status: 'active',
    auto_resolve_timeout: 14400,
    acknowledgement_timeout: 600,
    created_at: '2024-01-01T00:00:00Z',
    escalation_policy: reference(urls, 'escalation_policy', 'escalation_policies', 'PESCAL1', 'Default'),
    teams: [],
    integrations: [],
    incident_urgency_rule: { type: 'constant', urgency: 'high' },
    alert_creation: 'create_alerts_and_incidents',
  };
}

export function incidentJson(urls: Urls, store: PagerDutyStore, incident: IncidentRecord): Record<string, unknown> {
  const service = store.services.get(incident.service)!;
  const alerts = store.alerts.filter((a) => a.incident === incident.id);
  return {
    id: incident.id,
    type: 'incident',
    summary: `[#${incident.number}] ${incident.title}`,
    self: `${urls.api}/incidents/${incident.id}`,
    html_url: `${WEB}/incidents/${incident.id}`,
    incident_number: incident.number,
    title: incident.title,
    description: incident.title,
    created_at: incident.created_at,
    updated_at: incident.updated_at,
    status: incident.status,
    incident_key: incident.incident_key,
    service: reference(urls, 'service', 'services', incident.service, service.name),
    assignments: incident.status === 'resolved' ? [] : [{ at: incident.created_at, assignee: reference(urls, 'user', 'users', 'PONCALL', 'On-call Engineer') }],
    assigned_via: 'escalation_policy',
    acknowledgements: [],
    last_status_change_at: incident.updated_at,
    last_status_change_by: reference(urls, 'service', 'services', incident.service, service.name),
    first_trigger_log_entry: reference(urls, 'log_entry', 'log_entries', `${incident.id}-LE0`, 'Triggered through the API.'),
    escalation_policy: reference(urls, 'escalation_policy', 'escalation_policies', 'PESCAL1', 'Default'),
    teams: [],
    pending_actions: [],
    alert_counts: {
      all: alerts.length,
      triggered: alerts.filter((a) => a.status === 'triggered').length,
      resolved: alerts.filter((a) => a.status === 'resolved').length,
    },
    is_mergeable: true,
    priority: incident.priority ? { ...incident.priority, type: 'priority', self: `${urls.api}/priorities/${incident.priority.id}` } : null,
    urgency: incident.urgency,
    resolve_reason: null,
    conference_bridge: null,
    incidents_responders: [],
    responder_requests: [],
    body: { type: 'incident_body', details: incident.details ?? '' },
  };
}

export function alertJson(urls: Urls, store: PagerDutyStore, alert: AlertRecord): Record<string, unknown> {
  const incident = store.incident(alert.incident)!;
  const service = store.services.get(incident.service)!;
  return {
    id: alert.id,
    type: 'alert',
    summary: alert.summary,
    self: `${urls.api}/alerts/${alert.id}`,
    html_url: `${WEB}/alerts/${alert.id}`,
    created_at: alert.created_at,
    status: alert.status,
    alert_key: alert.alert_key,
    suppressed: false,
    severity: alert.severity,
    service: reference(urls, 'service', 'services', incident.service, service.name),
    incident: reference(urls, 'incident', 'incidents', incident.id, incident.title),
    integration: reference(urls, 'events_api_v2_inbound_integration', 'integrations', 'PINTEG1', 'Events API v2'),
    body: {
      type: 'alert_body',
      contexts: [],
      details: alert.details,
      cef_details: {
        client: null,
        client_url: null,
        contexts: [],
        creation_time: alert.created_at,
        dedup_key: alert.alert_key,
        description: alert.summary,
        details: alert.details,
        event_class: null,
        message: alert.summary,
        mutations: [],
        priority: null,
        reporter_component: null,
        reporter_location: null,
        security_tags: null,
        severity: alert.severity,
        source_component: null,
        source_location: null,
        source_origin: alert.source,
        summary: alert.summary,
        version: '1.0',
        ...alert.cef_details,
      },
    },
  };
}

export function logEntryJson(urls: Urls, store: PagerDutyStore, incident: IncidentRecord, entry: SeedLogEntry, index: number): Record<string, unknown> {
  const service = store.services.get(incident.service)!;
  const id = entry.id ?? `${incident.id}-LE${index}`;
  const type = entry.type ?? 'trigger_log_entry';
  const { id: _id, type: _type, ...rest } = entry;
  return {
    id,
    type,
    summary: entry.summary ?? 'Triggered through the API.',
    self: `${urls.api}/log_entries/${id}`,
    html_url: `${WEB}/incidents/${incident.id}/log_entries/${id}`,
    created_at: entry.created_at ?? incident.created_at,
    agent: entry.agent ?? reference(urls, 'service', 'services', incident.service, service.name),
    channel: entry.channel ?? { type: 'api' },
    service: reference(urls, 'service', 'services', incident.service, service.name),
    incident: reference(urls, 'incident', 'incidents', incident.id, `[#${incident.number}] ${incident.title}`),
    teams: [],
    contexts: [],
    ...rest,
  };
}

export function noteJson(urls: Urls, note: NoteRecord): Record<string, unknown> {
  return {
    id: note.id,
    user: reference(urls, 'user', 'users', note.user.id, note.user.name),
    channel: { summary: 'The PagerDuty website or APIs' },
    content: note.content,
    created_at: note.created_at,
  };
}

export function userReference(urls: Urls, user: UserRecord): Record<string, unknown> {
  return reference(urls, 'user', 'users', user.id, user.name);
}

export function newNoteId(): string {
  return upperId('P', 13);
}

import { randomBytes } from 'node:crypto';

export type IncidentEventType =
  | 'incident.triggered'
  | 'incident.acknowledged'
  | 'incident.unacknowledged'
  | 'incident.resolved'
  | 'incident.reopened'
  | 'incident.reassigned'
  | 'incident.escalated'
  | 'incident.delegated'
  | 'incident.priority_updated'
  | 'incident.responder.added'
  | 'incident.responder.replied'
  | 'incident.status_update_published'
  | 'incident.annotated';

export interface WebhookEventOptions {
  id?: string;
  occurred_at?: string;
  agent?: Record<string, unknown> | null;
  client?: Record<string, unknown> | null;
}

/** What V3 webhooks carry for an incident; accepts the REST incident shape (e.g. from the fake) or a minimal one. */
export function incidentWebhookData(incident: Record<string, any>): Record<string, unknown> {
  const api = String(incident.self ?? `https://api.pagerduty.com/incidents/${incident.id}`).replace(/\/incidents\/.*$/, '');
  const service = incident.service ?? { id: 'PSERVICE1', summary: 'Service' };
  return {
    id: incident.id,
    type: 'incident',
    self: incident.self ?? `${api}/incidents/${incident.id}`,
    html_url: incident.html_url ?? `https://wrench-test.pagerduty.com/incidents/${incident.id}`,
    number: incident.incident_number ?? incident.number ?? 1,
    status: incident.status ?? 'triggered',
    incident_key: incident.incident_key ?? randomBytes(16).toString('hex'),
    created_at: incident.created_at ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    title: incident.title,
    service: {
      html_url: service.html_url ?? `https://wrench-test.pagerduty.com/services/${service.id}`,
      id: service.id,
      self: service.self ?? `${api}/services/${service.id}`,
      summary: service.summary ?? service.name ?? service.id,
      type: 'service_reference',
    },
    assignees: (incident.assignments ?? []).map((a: any) => ({ ...a.assignee, type: 'user_reference' })),
    escalation_policy: incident.escalation_policy ?? null,
    teams: incident.teams ?? [],
    priority: incident.priority ? { ...incident.priority, type: 'priority_reference' } : null,
    urgency: incident.urgency ?? 'high',
    conference_bridge: incident.conference_bridge ?? null,
    resolve_reason: incident.resolve_reason ?? null,
  };
}

export function webhookEnvelope(
  eventType: string,
  resourceType: string,
  data: Record<string, unknown>,
  options: WebhookEventOptions = {},
): Record<string, unknown> {
  return {
    event: {
      id: options.id ?? `01${randomBytes(12).toString('hex').toUpperCase().slice(0, 24)}`,
      event_type: eventType,
      resource_type: resourceType,
      occurred_at: options.occurred_at ?? new Date().toISOString(),
      agent: options.agent === undefined ? null : options.agent,
      client: options.client === undefined ? null : options.client,
      data,
    },
  };
}

/** `{ event: { event_type: 'incident.triggered', resource_type: 'incident', data: {...incident} } }`. */
export function incidentWebhook(eventType: IncidentEventType, incident: Record<string, any>, options: WebhookEventOptions = {}): Record<string, unknown> {
  return webhookEnvelope(eventType, 'incident', incidentWebhookData(incident), options);
}

/** incident.annotated: the note and a reference to its incident. */
export function incidentAnnotatedWebhook(
  incident: Record<string, any>,
  note: { id?: string; content: string },
  options: WebhookEventOptions = {},
): Record<string, unknown> {
  const data = incidentWebhookData(incident);
  return webhookEnvelope(
    'incident.annotated',
    'incident',
    {
      incident: { html_url: data.html_url, id: data.id, self: data.self, summary: data.title, type: 'incident_reference' },
      id: note.id ?? `P${randomBytes(6).toString('hex').toUpperCase()}`,
      content: note.content,
      trimmed: false,
      type: 'incident_note',
    },
    options,
  );
}

/** The test event PagerDuty sends when a subscription is created or pinged. */
export function pageyPing(options: WebhookEventOptions = {}): Record<string, unknown> {
  return webhookEnvelope('pagey.ping', 'pagey', { message: 'Hello from your friend Pagey!', type: 'ping' }, options);
}

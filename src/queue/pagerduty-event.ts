import { z } from 'zod';

/** A reference to another PagerDuty object (`user_reference`, `service_reference`, ...). */
export const referenceSchema = z.object({
  id: z.string().min(1),
  type: z.string().nullish(),
  summary: z.string().nullish(),
  html_url: z.string().nullish(),
  self: z.string().nullish(),
});

/** A field PagerDuty documents as nullable or optional, read as a default when null or absent. */
const orDefault = <T extends z.ZodType>(schema: T, fallback: z.output<T>) => schema.nullish().transform((value) => value ?? fallback);

/**
 * A V3 webhook body: exactly one event. `data` depends on `event_type` and is read by the parsers
 * below; unknown fields are kept out of everything Wrench stores. Only what identifies the event is
 * required; every field PagerDuty documents as nullable or optional may be null or absent.
 */
export const webhookEnvelopeSchema = z.object({
  event: z.object({
    id: z.string().min(1).max(200),
    event_type: z.string().min(1).max(100),
    resource_type: orDefault(z.string().max(100), ''),
    occurred_at: orDefault(z.string(), ''),
    agent: referenceSchema.nullish().catch(null),
    client: z.unknown().optional(),
    data: orDefault(z.record(z.string(), z.unknown()), {}),
  }),
});

/** `event.data` of incident.* events (type `incident`). */
export const incidentDataSchema = z.object({
  id: z.string().min(1),
  type: z.literal('incident'),
  html_url: z.string().nullish(),
  number: z.number().int().nullish(),
  status: orDefault(z.string(), 'unknown'),
  title: orDefault(z.string(), ''),
  incident_key: z.string().nullish(),
  created_at: z.string().nullish(),
  service: referenceSchema,
  /** Malformed entries are dropped rather than losing the incident. */
  assignees: orDefault(z.array(z.unknown()), []).transform((list) =>
    list.flatMap((a) => {
      const parsed = referenceSchema.safeParse(a);
      return parsed.success ? [parsed.data] : [];
    }),
  ),
  priority: referenceSchema.nullish().catch(null),
  urgency: z.string().nullish(),
});

/** `event.data` of incident.annotated (type `incident_note`). */
export const incidentNoteDataSchema = z.object({
  type: z.literal('incident_note'),
  id: z.string().min(1),
  content: orDefault(z.string(), ''),
  trimmed: orDefault(z.boolean(), false),
  incident: referenceSchema,
});

export type WebhookEnvelope = z.infer<typeof webhookEnvelopeSchema>;
export type WebhookEvent = WebhookEnvelope['event'];
export type IncidentData = z.infer<typeof incidentDataSchema>;
export type IncidentNoteData = z.infer<typeof incidentNoteDataSchema>;
export type PagerDutyReference = z.infer<typeof referenceSchema>;

/** Incident events that change what the card shows. */
export const CARD_EVENTS = [
  'incident.acknowledged',
  'incident.unacknowledged',
  'incident.resolved',
  'incident.reopened',
  'incident.reassigned',
  'incident.priority_updated',
  'incident.escalated',
  'incident.delegated',
] as const;

export type CardEventType = (typeof CARD_EVENTS)[number];

export const isCardEvent = (type: string): type is CardEventType => (CARD_EVENTS as readonly string[]).includes(type);

export type ParsedWebhook =
  | { kind: 'ping'; event: WebhookEvent }
  | { kind: 'triggered' | 'card'; event: WebhookEvent; incident: IncidentData }
  | { kind: 'annotated'; event: WebhookEvent; note: IncidentNoteData }
  | { kind: 'other'; event: WebhookEvent };

/**
 * `envelope: false`: not a V3 webhook body at all (400). `envelope: true`: a real event whose data
 * Wrench cannot use (say, an incident without a service); the caller acknowledges it and logs why.
 */
export type ParseResult = { ok: true; webhook: ParsedWebhook } | { ok: false; envelope: boolean; error: string; event?: WebhookEvent };

/** Parses a webhook body (already JSON) into what Wrench acts on; an event Wrench does not use is `other`. */
export function parseWebhook(body: unknown): ParseResult {
  const envelope = webhookEnvelopeSchema.safeParse(body);
  if (!envelope.success) return { ok: false, envelope: false, error: describe(envelope.error) };
  const event = envelope.data.event;
  if (event.event_type === 'pagey.ping') return { ok: true, webhook: { kind: 'ping', event } };
  if (event.event_type === 'incident.annotated') {
    const note = incidentNoteDataSchema.safeParse(event.data);
    return note.success
      ? { ok: true, webhook: { kind: 'annotated', event, note: note.data } }
      : { ok: false, envelope: true, event, error: describe(note.error, 'event.data') };
  }
  if (event.event_type === 'incident.triggered' || isCardEvent(event.event_type)) {
    const incident = incidentDataSchema.safeParse(event.data);
    if (!incident.success) return { ok: false, envelope: true, event, error: describe(incident.error, 'event.data') };
    return { ok: true, webhook: { kind: event.event_type === 'incident.triggered' ? 'triggered' : 'card', event, incident: incident.data } };
  }
  return { ok: true, webhook: { kind: 'other', event } };
}

function describe(error: z.ZodError, prefix?: string): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${[prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'body'}: ${issue.message}`)
    .join('; ');
}

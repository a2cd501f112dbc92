import { z } from 'zod';
import { incidentDataSchema, incidentNoteDataSchema, referenceSchema } from './pagerduty-event.js';

export const TRIAGE_QUEUE = 'triage';
/** Incident card and note updates: their own queue, so they never wait behind long triage runs. */
export const INCIDENT_QUEUE = 'incidents';

const eventSchema = z.object({
  id: z.string(),
  type: z.string(),
  occurredAt: z.string(),
  /** Who or what caused the event (a user on acknowledge, the note's author on annotate). */
  agent: referenceSchema.nullish(),
});

const repoSchema = z.object({ owner: z.string(), name: z.string(), baseBranch: z.string().optional() });

/** incident.triggered for a mapped service: post the card, then queue the triage. */
export const incidentTriggeredJobSchema = z.object({
  kind: z.literal('incident-triggered'),
  event: eventSchema,
  incident: incidentDataSchema,
  repo: repoSchema,
  channel: z.string(),
});

/** acknowledged, resolved, reassigned, priority_updated, escalated...: update the card in place. */
export const incidentUpdatedJobSchema = z.object({
  kind: z.literal('incident-updated'),
  event: eventSchema,
  incident: incidentDataSchema,
});

/** incident.annotated: a person's note goes into the thread. */
export const incidentAnnotatedJobSchema = z.object({
  kind: z.literal('incident-annotated'),
  event: eventSchema,
  note: incidentNoteDataSchema,
});

/** One investigation: of a PagerDuty incident (again with responders' notes) or of a "@wrench triage: ..." message. */
export const triageRunJobSchema = z.object({
  kind: z.literal('triage'),
  triageId: z.string(),
  source: z.discriminatedUnion('type', [
    z.object({ type: z.literal('pagerduty'), incidentId: z.string(), withNotes: z.boolean().default(false) }),
    z.object({ type: z.literal('manual'), description: z.string().min(1), messageTs: z.string() }),
  ]),
  repo: repoSchema,
  channel: z.string(),
  threadTs: z.string(),
  /** Slack user who asked (manual triage, re-triage); absent for an incident that triggered. */
  requester: z.string().optional(),
  /** The language the person asked in (a manual triage's reading): its thread's status line speaks it. */
  language: z.string().optional(),
  /** A status message already posted in the thread, updated in place. */
  statusTs: z.string().optional(),
  requestedAt: z.string(),
});

/** "Revert <sha>" pressed on a triage report. */
export const revertJobSchema = z.object({
  kind: z.literal('revert'),
  triageId: z.string(),
  sha: z.string().regex(/^[0-9a-f]{40}$/),
  requester: z.string(),
  requestedAt: z.string(),
});

export const triageJobSchema = z.discriminatedUnion('kind', [
  incidentTriggeredJobSchema,
  incidentUpdatedJobSchema,
  incidentAnnotatedJobSchema,
  triageRunJobSchema,
  revertJobSchema,
]);

/** What the incidents queue carries (the triage queue still accepts these kinds from before that queue existed). */
export const incidentJobSchema = z.discriminatedUnion('kind', [incidentTriggeredJobSchema, incidentUpdatedJobSchema, incidentAnnotatedJobSchema]);

export type TriageJob = z.infer<typeof triageJobSchema>;
export type IncidentJob = z.infer<typeof incidentJobSchema>;
export type IncidentTriggeredJob = z.infer<typeof incidentTriggeredJobSchema>;
export type IncidentUpdatedJob = z.infer<typeof incidentUpdatedJobSchema>;
export type IncidentAnnotatedJob = z.infer<typeof incidentAnnotatedJobSchema>;
export type TriageRunJob = z.infer<typeof triageRunJobSchema>;
export type RevertJob = z.infer<typeof revertJobSchema>;

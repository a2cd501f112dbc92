import { WrenchError } from '../src/errors.js';
import type { IncidentThread } from '../src/pagerduty/incident-thread-store.js';
import { isOwnNote, knownNoteAuthor } from '../src/pagerduty/own-notes.js';
import type { IncidentData } from '../src/queue/pagerduty-event.js';
import { enqueueTriage } from '../src/queue/queues.js';
import { jobIdFor } from '../src/queue/task-job.js';
import type { IncidentAnnotatedJob, IncidentTriggeredJob, IncidentUpdatedJob } from '../src/queue/triage-job.js';
import { incidentCard } from '../src/slack/incident-card.js';
import { incidentNoteMessage } from '../src/slack/incident-note-message.js';
import type { TriageDeps } from './triage-deps.js';

/** The card is not posted yet (the triggered event is still being handled): retried with backoff. */
export class CardNotReadyError extends WrenchError {
  constructor(incidentId: string) {
    super('card_not_ready', `The card of incident ${incidentId} is not posted yet.`);
  }
}

/** The card's first post waits in the channel's outbox (Slack refused it for now): the job checks again later. */
export class CardPendingError extends WrenchError {
  constructor(incidentId: string) {
    super('card_pending', `The card of incident ${incidentId} waits for Slack to take it.`);
  }
}

/** The outbox gave up on the card's first post (Slack refused it until the delivery deadline). */
export class CardUndeliverableError extends WrenchError {
  constructor(incidentId: string) {
    super('card_undeliverable', `Slack never took the card of incident ${incidentId}: its triage is not run.`);
  }
}

/** The outbox key of an incident's card while it is posted in the channel (top level). */
const cardPostKey = (incidentId: string) => `incident-card:${incidentId}`;

/** The triage run of an incident that triggered: one per incident, so its id is the incident's. */
export const firstTriageId = (incidentId: string) => jobIdFor('triage', incidentId);

/**
 * incident.triggered: post the card in the service's channel through the channel's outbox (queued once, so a
 * retried job never posts it twice; retried while Slack fails), remember incident -> thread, and queue the triage
 * in the card's thread. While the card waits for Slack this throws CardPendingError (the job checks again later).
 */
export async function handleIncidentTriggered(job: IncidentTriggeredJob, deps: TriageDeps): Promise<{ cardTs: string }> {
  const { incident } = job;
  const log = deps.logger.child({ incidentId: incident.id, channel: job.channel, repo: `${job.repo.owner}/${job.repo.name}` });
  let thread = await deps.threads.get(incident.id);
  if (!thread?.cardTs) {
    const draft: IncidentThread = {
      ...fieldsOf(incident),
      incidentId: incident.id,
      serviceId: incident.service.id,
      repo: `${job.repo.owner}/${job.repo.name}`,
      channel: job.channel,
      createdAt: incident.created_at ?? job.event.occurredAt,
      lastEventAt: job.event.occurredAt,
      triageIds: [],
    };
    const channelRef = { channel: job.channel, threadTs: '' };
    await deps.outbox.postOnce(channelRef, incidentCard(draft), cardPostKey(incident.id));
    const state = await deps.outbox.keyState(channelRef, cardPostKey(incident.id));
    if (state === 'given-up') throw new CardUndeliverableError(incident.id);
    if (typeof state !== 'object') throw new CardPendingError(incident.id);
    const cardTs = state.ts;
    thread = await deps.threads.update(incident.id, (current) => (current?.cardTs ? null : { ...(current ?? draft), cardTs }));
    log.info({ cardTs }, 'incident card posted');
  }
  // The store answers with the thread it holds, whose card is this one or an earlier job's; without one, look again later.
  const cardTs = thread?.cardTs;
  if (!thread || !cardTs) throw new CardPendingError(incident.id);
  const triageId = firstTriageId(incident.id);
  await enqueueTriage(deps.queues, triageId, {
    kind: 'triage',
    triageId,
    source: { type: 'pagerduty', incidentId: incident.id, withNotes: false },
    repo: job.repo,
    channel: thread.channel,
    threadTs: cardTs,
    requestedAt: new Date().toISOString(),
  });
  return { cardTs };
}

/** acknowledged, resolved, reassigned, priority_updated, escalated...: the card is updated in place. */
export async function handleIncidentUpdated(job: IncidentUpdatedJob, deps: TriageDeps): Promise<'updated' | 'stale'> {
  const current = await deps.threads.get(job.incident.id);
  if (!current?.cardTs) throw new CardNotReadyError(job.incident.id);
  let stale = false;
  const next = await deps.threads.update(job.incident.id, (thread) => {
    if (!thread) return null;
    if (thread.lastEventAt && Date.parse(thread.lastEventAt) > Date.parse(job.event.occurredAt)) {
      stale = true;
      return null;
    }
    return { ...thread, ...fieldsOf(job.incident), lastEventAt: job.event.occurredAt, lastChange: describeChange(job) };
  });
  if (stale || !next?.cardTs) return 'stale';
  await showIncidentCard(next, deps);
  deps.logger.info({ incidentId: job.incident.id, eventType: job.event.type, status: next.status }, 'incident card updated');
  return 'updated';
}

/** incident.annotated: a person's note goes into the thread with a re-triage button; Wrench's own notes do not. */
export async function handleIncidentAnnotated(job: IncidentAnnotatedJob, deps: TriageDeps): Promise<'posted' | 'own_note'> {
  const incidentId = job.note.incident.id;
  const thread = await deps.threads.get(incidentId);
  if (!thread?.cardTs) throw new CardNotReadyError(incidentId);
  const wrenchUser = await knownNoteAuthor(deps.redis, deps.prefix);
  let authorId = job.event.agent?.type?.startsWith('user') ? job.event.agent.id : undefined;
  let author = job.event.agent?.summary ?? undefined;
  if (!authorId && deps.pagerduty) {
    const notes = await deps.pagerduty.notes(incidentId).catch(() => []);
    const found = notes.find((n) => n.id === job.note.id) as { user?: { id?: string; summary?: string } } | undefined;
    authorId = found?.user?.id;
    author ??= found?.user?.summary;
  }
  if (isOwnNote({ authorId, content: job.note.content }, wrenchUser)) {
    deps.logger.info({ incidentId, noteId: job.note.id }, 'own note on the incident: not echoed');
    return 'own_note';
  }
  const message = incidentNoteMessage({ author: author ?? 'A responder', content: job.note.content, incidentId, trimmed: job.note.trimmed });
  await deps.outbox.post({ channel: thread.channel, threadTs: thread.cardTs }, message);
  deps.logger.info({ incidentId, noteId: job.note.id }, 'responder note posted in the thread');
  return 'posted';
}

/** The outbox key of an incident's card (in the outbox of its own thread). */
const INCIDENT_CARD_KEY = 'incident-card';

/** The card shows the incident as stored now; through the card thread's outbox, so Slack failing loses no update. */
export async function showIncidentCard(thread: IncidentThread, deps: Pick<TriageDeps, 'outbox'>): Promise<void> {
  if (!thread.cardTs) return;
  const ref = { channel: thread.channel, threadTs: thread.cardTs };
  await deps.outbox.remember(ref, INCIDENT_CARD_KEY, thread.cardTs);
  await deps.outbox.update(ref, INCIDENT_CARD_KEY, incidentCard(thread));
}

function fieldsOf(incident: IncidentData) {
  return {
    number: incident.number ?? null,
    title: incident.title,
    status: incident.status,
    urgency: incident.urgency ?? null,
    priority: incident.priority?.summary ?? null,
    service: incident.service.summary ?? incident.service.id,
    assignees: incident.assignees.map((a) => a.summary ?? a.id),
    htmlUrl: incident.html_url ?? null,
  };
}

const CHANGE_VERBS: Record<string, string> = {
  'incident.acknowledged': 'Acknowledged',
  'incident.unacknowledged': 'Unacknowledged',
  'incident.resolved': 'Resolved',
  'incident.reopened': 'Reopened',
  'incident.reassigned': 'Reassigned',
  'incident.priority_updated': 'Priority changed',
  'incident.escalated': 'Escalated',
  'incident.delegated': 'Delegated',
};

function describeChange(job: IncidentUpdatedJob): string {
  const verb = CHANGE_VERBS[job.event.type] ?? job.event.type;
  const who = job.event.agent?.summary ? ` by ${job.event.agent.summary}` : '';
  const extra =
    job.event.type === 'incident.reassigned' || job.event.type === 'incident.escalated'
      ? ` to ${job.incident.assignees.map((a) => a.summary ?? a.id).join(', ') || 'nobody'}`
      : job.event.type === 'incident.priority_updated'
        ? ` to ${job.incident.priority?.summary ?? 'none'}`
        : '';
  const at = new Date(job.event.occurredAt);
  const when = Number.isNaN(at.getTime()) ? '' : ` at ${at.toISOString().slice(11, 16)} UTC`;
  return `${verb}${who}${extra}${when}`;
}

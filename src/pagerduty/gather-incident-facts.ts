import type { RedisClient } from '../redis/redis-connection.js';
import { describeError } from '../errors.js';
import type { IncidentFacts } from './incident-context.js';
import type { IncidentThread } from './incident-thread-store.js';
import { isOwnNote, knownNoteAuthor } from './own-notes.js';
import type { PagerDutyClient } from './pagerduty-client.js';

/**
 * What a triage reads about an incident: the incident, its alerts, log entries and responders' notes (never
 * Wrench's own). What cannot be read is named in `problems` (the agent is told) and never stops the triage.
 */
export async function gatherIncidentFacts(
  incidentId: string,
  thread: IncidentThread | null,
  deps: { pagerduty: PagerDutyClient | null; redis: RedisClient; prefix: string },
  problems: string[],
): Promise<IncidentFacts> {
  const fromThread = thread
    ? {
        id: incidentId,
        title: thread.title,
        number: thread.number,
        status: thread.status,
        urgency: thread.urgency,
        priority: { summary: thread.priority },
        service: { summary: thread.service },
        created_at: thread.createdAt,
        html_url: thread.htmlUrl,
      }
    : { id: incidentId };
  if (!deps.pagerduty) {
    problems.push('PagerDuty REST access is not configured (PAGERDUTY_API_TOKEN), so alerts and log entries are missing.');
    return { incident: fromThread, alerts: [], logEntries: [] };
  }
  const pd = deps.pagerduty;
  const attempt = async <T>(what: string, call: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      problems.push(`Could not read the ${what}: ${describeError(error)}`);
      return fallback;
    }
  };
  const [incident, alerts, logEntries, notes] = await Promise.all([
    attempt('incident', () => pd.incident(incidentId), fromThread as Record<string, unknown>),
    attempt('alerts', () => pd.alerts(incidentId), []),
    attempt('log entries', () => pd.logEntries(incidentId), []),
    attempt('notes', () => pd.notes(incidentId), []),
  ]);
  const wrenchUser = await knownNoteAuthor(deps.redis, deps.prefix);
  const human = (notes as Array<{ content?: string; created_at?: string; user?: { id?: string; summary?: string } }>).flatMap(
    ({ content, user, created_at }) =>
      typeof content === 'string' && !isOwnNote({ authorId: user?.id, content }, wrenchUser)
        ? [{ author: user?.summary ?? 'someone', content, at: created_at }]
        : [],
  );
  return { incident, alerts, logEntries, notes: human };
}

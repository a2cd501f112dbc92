import { describeError } from '../src/errors.js';
import { rememberNoteAuthor } from '../src/pagerduty/own-notes.js';
import { triageNote } from '../src/pagerduty/triage-note.js';
import type { ThreadRef } from '../src/slack/thread-outbox.js';
import { renderTriageReport, type TriageReportView } from '../src/slack/triage-report-message.js';
import { triageReportKey, type TriageRecord } from '../src/triage/triage-record.js';
import { showIncidentCard } from './incident-events.js';
import type { TriageDeps } from './triage-deps.js';

/**
 * The report in the thread, each part through the thread's outbox under its own key (so the Dismiss button
 * can edit it once Slack has it, however late); returns those keys for the triage record.
 */
export async function postTriageReport(view: TriageReportView, thread: ThreadRef, deps: TriageDeps): Promise<string[]> {
  const keys: string[] = [];
  for (const [i, part] of renderTriageReport(view).entries()) {
    const key = triageReportKey(view.triageId, i);
    await deps.outbox.post(thread, part, key);
    keys.push(key);
  }
  return keys;
}

/** The findings as a note on the PagerDuty incident; a failure is told in the thread (and rethrown for the log). */
export async function noteOnIncident(incidentId: string, record: TriageRecord, retriage: boolean, deps: TriageDeps): Promise<void> {
  if (!deps.pagerduty?.fromEmail) {
    deps.logger.info({ incidentId }, 'no note on the incident: PAGERDUTY_API_TOKEN or PAGERDUTY_FROM_EMAIL is not set');
    return;
  }
  const content = deps.redact(
    triageNote({
      report: record.report,
      suspects: record.suspects,
      repository: `${record.repo.owner}/${record.repo.name}`,
      threadUrl: record.threadUrl,
      retriage,
      links: record.links,
      monitoring: record.monitoring,
    }),
  );
  try {
    const note = await deps.pagerduty.postNote(incidentId, content);
    await rememberNoteAuthor(deps.redis, deps.prefix, note.userId);
  } catch (error) {
    await deps.outbox.post(
      { channel: record.channel, threadTs: record.threadTs },
      { text: `:warning: I could not add these findings as a note on the PagerDuty incident: ${describeError(error)}` },
    );
    throw error;
  }
}

/** The verdict on the incident's card (and the triage in its list). */
export async function cardVerdict(incidentId: string, triageId: string, verdict: string, deps: TriageDeps): Promise<void> {
  const next = await deps.threads.update(incidentId, (thread) =>
    thread ? { ...thread, verdict, triageIds: thread.triageIds.includes(triageId) ? thread.triageIds : [...thread.triageIds, triageId] } : null,
  );
  if (next?.cardTs) await showIncidentCard(next, deps);
}

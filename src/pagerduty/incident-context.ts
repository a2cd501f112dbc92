import { clipText, neutralizeTags } from '../triage/untrusted-text.js';
import type { PagerDutyObject } from './pagerduty-client.js';

export interface IncidentFacts {
  incident: PagerDutyObject;
  alerts: PagerDutyObject[];
  logEntries: PagerDutyObject[];
  /** Notes written by responders (not by Wrench), oldest first. */
  notes?: Array<{ author: string; content: string; at?: string }>;
}

const MAX_TOTAL = 40_000;

/**
 * The incident as text for the agent: the incident, its alerts with the monitoring payload (alert
 * body), its log entries and responders' notes. All of it is untrusted data, quoted by the caller.
 */
export function incidentContextText(facts: IncidentFacts): string {
  const i = facts.incident as Record<string, any>;
  const parts: string[] = [
    '## PagerDuty incident',
    line('title', i.title),
    line('number', i.incident_number ?? i.number),
    line('status', i.status),
    line('urgency', i.urgency),
    line('priority', i.priority?.summary),
    line('service', i.service?.summary),
    line('created at', i.created_at),
    line('details', typeof i.body?.details === 'string' ? i.body.details : i.body?.details ? JSON.stringify(i.body.details) : undefined),
  ].filter(Boolean);

  parts.push('', `## Alerts (${facts.alerts.length})`);
  for (const a of facts.alerts as Array<Record<string, any>>) {
    const cef = a.body?.cef_details ?? {};
    parts.push(
      `- ${a.created_at ?? ''} [${a.severity ?? '?'}/${a.status ?? '?'}] ${a.summary ?? ''}`,
      ...[
        line('  source', cef.source_origin ?? cef.source_component),
        line('  message', cef.message !== a.summary ? cef.message : undefined),
        line('  details', a.body?.details && Object.keys(a.body.details).length > 0 ? clipText(JSON.stringify(a.body.details, null, 1), 4000) : undefined),
      ].filter(Boolean),
    );
  }

  // Notes appear as annotate entries too; they are listed (responders' only) in their own section below.
  const entries = (facts.logEntries as Array<Record<string, any>>).filter((e) => e.type !== 'annotate_log_entry');
  parts.push('', `## Log entries (${entries.length}, newest first, notes left out)`);
  for (const e of entries) {
    const channel = e.channel ?? {};
    const detail = channel.summary ?? channel.details ?? channel.description;
    parts.push(`- ${e.created_at ?? ''} ${e.type ?? ''}: ${e.summary ?? ''}${detail ? ` — ${clipText(typeof detail === 'string' ? detail : JSON.stringify(detail), 600)}` : ''}`);
  }

  if (facts.notes && facts.notes.length > 0) {
    parts.push('', `## Notes from responders (${facts.notes.length})`);
    for (const note of facts.notes) parts.push(`- ${note.at ?? ''} ${note.author}: ${clipText(note.content, 2000)}`);
  }
  return neutralizeTags(clipText(parts.join('\n'), MAX_TOTAL));
}

function line(label: string, value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  return `${label}: ${String(value)}`;
}

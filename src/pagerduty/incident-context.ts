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
    line('incident key', i.incident_key),
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
        line('  links', contextLinks(a.body?.contexts ?? cef.contexts)),
      ].filter(Boolean),
    );
  }

  // Notes appear as annotate entries too; they are listed (responders' only) in their own section below.
  const entries = (facts.logEntries as Array<Record<string, any>>).filter((e) => e.type !== 'annotate_log_entry');
  parts.push('', `## Log entries (${entries.length}, newest first, notes left out)`);
  for (const e of entries) parts.push(...logEntryLines(e));

  if (facts.notes && facts.notes.length > 0) {
    parts.push('', `## Notes from responders (${facts.notes.length})`);
    for (const note of facts.notes) parts.push(`- ${note.at ?? ''} ${note.author}: ${clipText(note.content, 2000)}`);
  }
  return neutralizeTags(clipText(parts.join('\n'), MAX_TOTAL));
}

/**
 * A log entry and what its channel carried: the monitoring tool's or email's summary, subject and
 * body (the text responders read on the trigger), details, and the entry's context links.
 */
function logEntryLines(e: Record<string, any>): string[] {
  const channel = (e.channel && typeof e.channel === 'object' ? e.channel : {}) as Record<string, any>;
  const text = (value: unknown, max: number) =>
    value === undefined || value === null || value === '' ? undefined : clipText(typeof value === 'string' ? value : JSON.stringify(value), max);
  return [
    `- ${e.created_at ?? ''} ${e.type ?? ''}: ${e.summary ?? ''}`,
    line('  via', channel.type),
    line('  channel summary', text(channel.summary !== e.summary ? channel.summary : undefined, 600)),
    line('  subject', text(channel.subject, 300)),
    line('  from', text(channel.from, 200)),
    line('  body', text(channel.body, 3000)),
    line('  details', text(channel.details ?? channel.description, 2000)),
    line('  links', contextLinks(e.contexts ?? channel.contexts)),
  ].filter(Boolean);
}

/** Alert and log-entry `contexts`: links (`href`, `text`) and images (`src`, `href`, `alt`). */
function contextLinks(contexts: unknown): string | undefined {
  if (!Array.isArray(contexts)) return undefined;
  const links = contexts.slice(0, 10).flatMap((c: Record<string, unknown> | null) => {
    const href = typeof c?.href === 'string' ? c.href : typeof c?.src === 'string' ? c.src : undefined;
    if (!href) return [];
    const label = typeof c?.text === 'string' ? c.text : typeof c?.alt === 'string' ? c.alt : undefined;
    return [clipText(label && label !== href ? `${label} (${href})` : href, 400)];
  });
  return links.length > 0 ? links.join('; ') : undefined;
}

function line(label: string, value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  return `${label}: ${String(value)}`;
}

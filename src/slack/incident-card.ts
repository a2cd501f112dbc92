import type { KnownBlock } from '@slack/types';
import type { IncidentThread } from '../pagerduty/incident-thread-store.js';
import { escapeMrkdwn, mrkdwnLink, truncate } from './slack-escape.js';

const STATUS: Record<string, { emoji: string; label: string }> = {
  triggered: { emoji: ':red_circle:', label: 'Triggered' },
  acknowledged: { emoji: ':large_yellow_circle:', label: 'Acknowledged' },
  resolved: { emoji: ':large_green_circle:', label: 'Resolved' },
};

export const INVESTIGATING = ':mag: Wrench is investigating; findings will follow in the thread.';

/**
 * The incident card, a top-level message in the service's channel, updated in place as the incident
 * changes: title, number, urgency, priority, service, status, assignees, link, the last change and
 * the triage verdict. Every value from PagerDuty is escaped (titles are untrusted).
 */
export function incidentCard(incident: IncidentThread): { text: string; blocks: KnownBlock[] } {
  const status = STATUS[incident.status] ?? { emoji: ':white_circle:', label: capitalise(incident.status) };
  const number = incident.number ? `#${incident.number}` : incident.incidentId;
  const field = (label: string, value: string) => ({ type: 'mrkdwn' as const, text: truncate(`*${label}*\n${value}`, 1900) });
  const blocks: KnownBlock[] = [
    {
      type: 'header',
      text: { type: 'plain_text', text: truncate(`${incident.status === 'resolved' ? '✅' : '🚨'} [${number}] ${incident.title || 'Untitled incident'}`, 150) },
    },
    {
      type: 'section',
      fields: [
        field('Status', `${status.emoji} ${status.label}`),
        field('Urgency', escapeMrkdwn(capitalise(incident.urgency ?? 'unknown'))),
        field('Priority', escapeMrkdwn(incident.priority ?? '—')),
        field('Service', escapeMrkdwn(incident.service)),
        field('Assignees', incident.assignees.length ? escapeMrkdwn(incident.assignees.join(', ')) : '—'),
        field('Incident', mrkdwnLink(incident.htmlUrl, `${number} in PagerDuty`)),
      ],
    },
  ];
  if (incident.lastChange) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: truncate(escapeMrkdwn(incident.lastChange), 2900) }] });
  const verdict = incident.verdict ? `:bulb: *Triage:* ${escapeMrkdwn(incident.verdict)} (details in the thread)` : INVESTIGATING;
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: truncate(verdict, 2900) }] });
  const text = escapeMrkdwn(`Incident ${number}: ${incident.title} (${status.label})${incident.verdict ? ` — triage: ${incident.verdict}` : ''}`);
  return { text: truncate(text, 3000), blocks };
}

function capitalise(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

import { describe, expect, it } from 'vitest';
import type { IncidentThread } from '../../../src/pagerduty/incident-thread-store.js';
import { incidentCard, INVESTIGATING } from '../../../src/slack/incident-card.js';

const thread: IncidentThread = {
  incidentId: 'Q1ABC',
  serviceId: 'PABC123',
  repo: 'acme/checkout',
  channel: 'C0INC',
  number: 1234,
  title: 'Checkout 500s <!channel> <@U0EVIL>',
  status: 'triggered',
  urgency: 'high',
  priority: 'P1',
  service: 'Checkout',
  assignees: ['Alice', 'Bob'],
  htmlUrl: 'https://acme.pagerduty.com/incidents/Q1ABC',
  triageIds: [],
};

const text = (card: ReturnType<typeof incidentCard>) => JSON.stringify(card.blocks);

describe('incidentCard', () => {
  it('shows title, number, urgency, priority, service, status, assignees and the link', () => {
    const card = incidentCard(thread);
    expect(card.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text', text: expect.stringContaining('[#1234] Checkout 500s') } });
    const fields = (card.blocks[1] as { fields: Array<{ text: string }> }).fields.map((f) => f.text);
    expect(fields).toEqual([
      '*Status*\n:red_circle: Triggered',
      '*Urgency*\nHigh',
      '*Priority*\nP1',
      '*Service*\nCheckout',
      '*Assignees*\nAlice, Bob',
      '*Incident*\n<https://acme.pagerduty.com/incidents/Q1ABC|#1234 in PagerDuty>',
    ]);
    expect(text(card)).toContain(INVESTIGATING);
  });

  it('escapes what comes from PagerDuty, so a title cannot mention anyone', () => {
    const card = incidentCard({ ...thread, assignees: ['<!here>'], verdict: 'Likely <@U1> broke it' });
    expect(card.text).not.toMatch(/<!channel>|<@U0EVIL>/);
    expect(card.text).toContain('&lt;!channel&gt;');
    expect(text(card)).not.toMatch(/<!here>|<@U1>/);
  });

  it('shows the lifecycle change and the verdict once there is one', () => {
    const card = incidentCard({ ...thread, status: 'resolved', lastChange: 'Resolved by Alice at 14:05 UTC', verdict: 'Likely abc1234 (high confidence)' });
    expect(text(card)).toContain(':large_green_circle: Resolved');
    expect(text(card)).toContain('Resolved by Alice at 14:05 UTC');
    expect(text(card)).toContain('*Triage:* Likely abc1234 (high confidence)');
    expect(text(card)).not.toContain(INVESTIGATING);
    expect(card.text).toContain('triage: Likely abc1234');
  });
});

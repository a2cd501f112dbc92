import { describe, expect, it } from 'vitest';
import { parseWebhook } from '../../../src/queue/pagerduty-event.js';
import { incidentAnnotatedWebhook, incidentWebhook, pageyPing, webhookEnvelope } from '../../fakes/pagerduty-webhook-sender.js';

const incident = {
  id: 'Q1ABC',
  incident_number: 1234,
  title: 'Checkout error rate above 5%',
  status: 'triggered',
  urgency: 'high',
  service: { id: 'PABC123', summary: 'Checkout' },
  assignments: [{ assignee: { id: 'PUSER1', summary: 'Alice' } }],
  priority: { id: 'PP1', summary: 'P1' },
};

describe('parseWebhook', () => {
  it('reads incident.triggered with the incident fields the card needs', () => {
    const parsed = parseWebhook(incidentWebhook('incident.triggered', incident, { id: 'EV1' }));
    expect(parsed).toMatchObject({
      ok: true,
      webhook: {
        kind: 'triggered',
        event: { id: 'EV1', event_type: 'incident.triggered', resource_type: 'incident' },
        incident: {
          id: 'Q1ABC',
          number: 1234,
          title: 'Checkout error rate above 5%',
          status: 'triggered',
          urgency: 'high',
          service: { id: 'PABC123', summary: 'Checkout' },
          assignees: [{ id: 'PUSER1', summary: 'Alice' }],
          priority: { summary: 'P1' },
        },
      },
    });
  });

  it('sorts lifecycle events, notes and pings', () => {
    for (const type of ['incident.acknowledged', 'incident.resolved', 'incident.reassigned', 'incident.priority_updated', 'incident.escalated'] as const) {
      const parsed = parseWebhook(incidentWebhook(type, { ...incident, status: 'acknowledged' }));
      expect(parsed.ok && parsed.webhook.kind).toBe('card');
    }
    const note = parseWebhook(
      incidentAnnotatedWebhook(
        incident,
        { id: 'PNOTE1', content: 'Rolled back the deploy' },
        { agent: { id: 'PUSER1', type: 'user_reference', summary: 'Alice' } },
      ),
    );
    expect(note).toMatchObject({
      ok: true,
      webhook: {
        kind: 'annotated',
        note: { id: 'PNOTE1', content: 'Rolled back the deploy', incident: { id: 'Q1ABC' } },
        event: { agent: { id: 'PUSER1', summary: 'Alice' } },
      },
    });
    expect(parseWebhook(pageyPing())).toMatchObject({ ok: true, webhook: { kind: 'ping' } });
    expect(parseWebhook(webhookEnvelope('service.updated', 'service', { id: 'PABC123' }))).toMatchObject({ ok: true, webhook: { kind: 'other' } });
  });

  it('refuses bodies that are not V3 envelopes, naming the field', () => {
    expect(parseWebhook({})).toMatchObject({ ok: false, error: expect.stringContaining('event') });
    expect(parseWebhook({ messages: [{ event: 'incident.trigger' }] })).toMatchObject({ ok: false });
    const noService = incidentWebhook('incident.triggered', incident) as { event: { data: Record<string, unknown> } };
    delete noService.event.data.service;
    expect(parseWebhook(noService)).toMatchObject({ ok: false, error: expect.stringContaining('event.data.service') });
    const badNote = webhookEnvelope('incident.annotated', 'incident', { type: 'incident_note', content: 'x' });
    expect(parseWebhook(badNote)).toMatchObject({ ok: false });
  });

  it('reads every field PagerDuty documents as nullable or optional as null or absent', () => {
    const body = incidentWebhook('incident.triggered', incident) as { event: Record<string, unknown> & { data: Record<string, unknown> } };
    Object.assign(body.event.data, {
      assignees: null,
      title: null,
      priority: null,
      escalation_policy: null,
      teams: null,
      urgency: null,
      number: null,
      html_url: null,
    });
    body.event.agent = null;
    body.event.client = null;
    const parsed = parseWebhook(body);
    expect(parsed).toMatchObject({ ok: true, webhook: { kind: 'triggered', incident: { id: 'Q1ABC', title: '', assignees: [], priority: null } } });
    const minimal = parseWebhook({ event: { id: 'EV2', event_type: 'incident.triggered', data: { id: 'Q2', type: 'incident', service: { id: 'PABC123' } } } });
    expect(minimal).toMatchObject({ ok: true, webhook: { incident: { id: 'Q2', status: 'unknown', title: '', assignees: [] } } });
    const oddAssignee = incidentWebhook('incident.reassigned', incident) as { event: { data: Record<string, unknown> } };
    oddAssignee.event.data.assignees = [null, { id: 'PUSER2', type: null, summary: null }];
    expect(parseWebhook(oddAssignee)).toMatchObject({ ok: true, webhook: { incident: { assignees: [{ id: 'PUSER2' }] } } });
  });

  it('tells a body that is no envelope (400) from a real event whose data is unusable (acknowledged)', () => {
    expect(parseWebhook(null)).toMatchObject({ ok: false, envelope: false });
    const noService = incidentWebhook('incident.triggered', incident) as { event: { data: Record<string, unknown> } };
    noService.event.data.service = null;
    expect(parseWebhook(noService)).toMatchObject({ ok: false, envelope: true, event: { event_type: 'incident.triggered' } });
  });
});

import { api } from '@pagerduty/pdjs';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPagerDutyFake, type PagerDutyFake } from '../../fakes/pagerduty-fake.js';
import { incidentWebhook, pageyPing, sendPagerDutyWebhook } from '../../fakes/pagerduty-webhook-sender.js';
import { freePort } from '../../helpers/free-port.js';

describe('pagerduty fake with the real pdjs', () => {
  let fake: PagerDutyFake;
  let incidentId: string;

  beforeAll(async () => {
    fake = await startPagerDutyFake({ token: 'pd-token' });
    fake.addService({ id: 'PABC123', name: 'Checkout' });
    incidentId = fake.addIncident({
      title: 'Checkout error rate above 5%',
      service: 'PABC123',
      alerts: [
        { summary: 'HTTP 500 on /pay', details: { route: '/pay', error: 'TypeError: cannot read total' }, cef_details: { source_component: 'checkout-api' } },
      ],
      logEntries: [{ type: 'trigger_log_entry', summary: 'Triggered through the API.' }],
    }).id;
  });
  afterAll(() => fake.stop());

  it('reads an incident, its alerts and log entries', async () => {
    const pd = api({ token: 'pd-token' });
    const incident = await pd.get(`/incidents/${incidentId}`, { url: `${fake.url}/incidents/${incidentId}` });
    expect(incident.status).toBe(200);
    expect(incident.data.incident).toMatchObject({
      id: incidentId,
      title: 'Checkout error rate above 5%',
      status: 'triggered',
      service: { id: 'PABC123', summary: 'Checkout' },
    });

    const alerts = await pd.get('', { url: `${fake.url}/incidents/${incidentId}/alerts` });
    expect(alerts.data.alerts[0].body.details).toEqual({ route: '/pay', error: 'TypeError: cannot read total' });
    expect(alerts.data.alerts[0].body.cef_details).toMatchObject({ source_component: 'checkout-api', summary: 'HTTP 500 on /pay' });

    const logs = await pd.get('', { url: `${fake.url}/incidents/${incidentId}/log_entries` });
    expect(logs.data.log_entries.map((e: { type: string }) => e.type)).toEqual(['trigger_log_entry']);
    expect(fake.requests[0]!.headers.authorization).toBe('Token token=pd-token');
  });

  it('posts a note as the From user and refuses one without From', async () => {
    const pd = api({ token: 'pd-token' });
    const posted = await pd.post('', {
      url: `${fake.url}/incidents/${incidentId}/notes`,
      headers: { From: 'wrench@example.com' },
      data: { note: { content: 'Likely cause: null total in cart.ts' } },
    });
    expect(posted.status).toBe(201);
    expect(posted.data.note.content).toBe('Likely cause: null total in cart.ts');
    expect(fake.notes(incidentId)[0]).toMatchObject({ content: 'Likely cause: null total in cart.ts', user: { email: 'wrench@example.com' } });

    const refused = await pd.post('', { url: `${fake.url}/incidents/${incidentId}/notes`, data: { note: { content: 'x' } } });
    expect(refused.status).toBe(400);
    const listed = await pd.get('', { url: `${fake.url}/incidents/${incidentId}/notes` });
    expect(listed.data.notes).toHaveLength(1);
  });

  it('answers 401 for a wrong token and 404 for an unknown incident', async () => {
    const wrong = await api({ token: 'nope' }).get('', { url: `${fake.url}/incidents/${incidentId}` });
    expect(wrong.status).toBe(401);
    const missing = await api({ token: 'pd-token' }).get('', { url: `${fake.url}/incidents/QNOPE` });
    expect(missing.status).toBe(404);
    expect(missing.data).toEqual({ error: { message: 'Not Found', code: 2100 } });
  });
});

describe('pagerduty webhook sender', () => {
  it('signs V3 payloads so that node:crypto verifies them, with several secrets', async () => {
    const received: { raw: string; headers: Record<string, string | string[] | undefined> }[] = [];
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        received.push({ raw, headers: req.headers });
        res.writeHead(202).end();
      });
    });
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${port}/pagerduty/webhook`;
    const fake = await startPagerDutyFake();
    const incident = fake.addIncident({ title: 'Disk full', service: 'PABC123' });

    const sent = await sendPagerDutyWebhook(target, incidentWebhook('incident.triggered', fake.incidentJson(incident.id)), { secrets: ['old', 'new'] });
    await sendPagerDutyWebhook(target, pageyPing(), { secrets: 'new', badSignature: true });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await fake.stop();

    expect(sent.status).toBe(202);
    const verify = (raw: string, header: string, secret: string) => {
      const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(raw).digest('hex')}`);
      return header.split(',').some((sig) => sig.length === expected.length && timingSafeEqual(Buffer.from(sig), expected));
    };
    const [triggered, ping] = received;
    const body = JSON.parse(triggered!.raw);
    expect(body.event).toMatchObject({
      event_type: 'incident.triggered',
      resource_type: 'incident',
      data: { id: incident.id, type: 'incident', title: 'Disk full', service: { id: 'PABC123', type: 'service_reference' } },
    });
    expect(verify(triggered!.raw, String(triggered!.headers['x-pagerduty-signature']), 'new')).toBe(true);
    expect(verify(triggered!.raw, String(triggered!.headers['x-pagerduty-signature']), 'old')).toBe(true);
    expect(triggered!.headers['x-webhook-id']).toBeTruthy();
    expect(triggered!.headers['x-webhook-subscription']).toBeTruthy();
    expect(JSON.parse(ping!.raw).event).toMatchObject({ event_type: 'pagey.ping', data: { type: 'ping' } });
    expect(verify(ping!.raw, String(ping!.headers['x-pagerduty-signature']), 'new')).toBe(false);
  });
});

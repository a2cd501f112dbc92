import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse, type RecordedRequest } from '../fakes/anthropic-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import type { SlackCall } from '../fakes/slack-fake.js';
import { pagerDutyFixture } from '../fixtures/pagerduty/load-fixture.js';
import { jobIdFor } from '../../src/queue/task-job.js';
import { createTriageWorld, type TriageWorld } from './triage-world.js';

const CONFIG = `
channels:
  C0INC: { repo: acme/checkout, baseBranch: main }
pagerduty:
  services:
    PABC123: { repo: acme/checkout, channel: C0INC }
sandbox: { mode: none }
`;

const finishTriage = toolUseResponse([
  {
    name: 'finish_task',
    input: {
      whatIsGoingOn: 'POST /pay answers 500.',
      verdict: 'Not enough evidence yet',
      likelyCause: { summary: 'Unknown from the repository alone.', confidence: 'low', evidence: [] },
      suspectCommits: [],
      ruledOut: [],
      nextSteps: ['Read the runbook'],
    },
  },
]);

const isCardFor = (title: string) => (c: SlackCall) =>
  c.method === 'chat.postMessage' && c.args.channel === 'C0INC' && !c.args.thread_ts && JSON.stringify(c.args).includes(title);

/** PagerDuty's documented webhook and REST shapes, with their nulls and absent fields, through the real route. */
describe('what PagerDuty really sends', () => {
  let world: TriageWorld;

  beforeAll(async () => {
    world = await createTriageWorld(CONFIG);
    await world.github.createRepo('acme', 'checkout', { 'src/pay.js': 'export const pay = (total) => total.toFixed(2);\n' });
    world.pagerduty.addService({ id: 'PABC123', name: 'Checkout' });
    world.anthropic.setScript(Array.from({ length: 10 }, () => finishTriage));
    await world.start();
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await world?.stop();
  });

  it('an incident with assignees, priority, teams and escalation policy null is triaged with its email body, alert links and incident key', async () => {
    const incidentId = world.pagerduty.addIncident({ title: 'Checkout 5xx burst', service: 'PABC123' }).id;
    const rest = pagerDutyFixture<Record<string, unknown>>('incident-rest.json', { incidentId });
    world.pagerduty.answerNext(`GET /incidents/${incidentId}`, rest.incident);
    world.pagerduty.answerNext(`GET /incidents/${incidentId}/alerts`, rest.alerts);
    world.pagerduty.answerNext(`GET /incidents/${incidentId}/log_entries`, rest.log_entries);

    const answer = await world.sendWebhook(pagerDutyFixture('incident-triggered-nulls.json', { incidentId }));
    expect(answer.status).toBe(202);
    const card = await world.slack.waitFor(isCardFor('Checkout 5xx burst'), 20_000);
    expect(JSON.stringify(card.args.blocks)).toContain('Assignees');

    const context = await pollFor(
      () => world.anthropic.requests.map((r: RecordedRequest) => JSON.stringify(r.body)).find((body) => body.includes('checkout-5xx-burst')),
      90_000,
      () => 'the triage agent never received the incident',
    );
    expect(context).toContain('incident key: checkout-5xx-burst');
    expect(context).toContain('POST /pay answers 500 since the 17:55 deploy');
    expect(context).toContain('[FIRING:1] Checkout5xx checkout-api');
    expect(context).toContain('Checkout dashboard (https://grafana.acme.test/d/checkout?from=now-1h)');
    expect(context).toContain('Runbook (https://runbooks.acme.test/checkout-5xx)');
    expect(context).toMatch(/<untrusted/);
    await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && String(c.args.text).startsWith('Triage of') && JSON.stringify(c.args).includes('4711'),
      90_000,
    );
  });

  it('an incident whose optional fields are absent and title null still gets its card', async () => {
    const incidentId = world.pagerduty.addIncident({ title: 'Untitled from the API', service: 'PABC123' }).id;
    const answer = await world.sendWebhook(pagerDutyFixture('incident-triggered-absent-fields.json', { incidentId }));
    expect(answer.status).toBe(202);
    await world.slack.waitFor(isCardFor('Untitled incident'), 20_000);
    // Its triage is queued once the card's ts is stored: the next test counts the queued jobs.
    expect(await world.jobResult(jobIdFor('triage', incidentId), 60_000)).toMatchObject({ status: 'reported' });
  });

  it('a signed event whose data Wrench cannot use is acknowledged 200 and logged; a body that is no V3 envelope is 400', async () => {
    const body = pagerDutyFixture<{ event: { data: Record<string, unknown> } }>('incident-triggered-absent-fields.json', { incidentId: 'QNOSERVICE1' });
    body.event.data.service = null;
    const before = await world.triageJobCount();
    const answer = await world.sendWebhook(body);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ status: 'ignored', reason: expect.stringContaining('event.data.service') });
    expect(await world.triageJobCount()).toBe(before);
    expect((await world.sendWebhook({ messages: [{ event: 'incident.trigger' }] })).status).toBe(400);
    await pollFor(
      () => (/acknowledged a PagerDuty event Wrench cannot use/.test(world.wrench!.output()) ? true : undefined),
      10_000,
      () => 'no log line',
    );
  });
});

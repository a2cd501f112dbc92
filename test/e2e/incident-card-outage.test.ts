import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { incidentWebhook } from '../fakes/pagerduty-webhook-sender.js';
import type { SlackCall } from '../fakes/slack-fake.js';
import type { SlackFailure } from '../fakes/slack/types.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { jobIdFor } from '../../src/queue/task-job.js';
import { createTriageWorld, type TriageWorld } from './triage-world.js';

const CONFIG = `
channels:
  C0INC: { repo: acme/checkout, baseBranch: main }
repos: [acme/*]
pagerduty:
  services:
    PABC123: { repo: acme/checkout, channel: C0INC }
sandbox: { mode: bwrap }
`;

const triageScript = (verdict: string) => [
  toolUseResponse([{ name: 'bash', input: { command: 'git log --oneline -3' } }]),
  toolUseResponse([
    {
      name: 'finish_task',
      input: {
        whatIsGoingOn: 'Checkout answers HTTP 500.',
        verdict,
        likelyCause: { summary: 'Unknown from the code alone.', confidence: 'low', evidence: [{ claim: 'one commit', kind: 'commit', ref: 'HEAD' }] },
        suspectCommits: [],
        ruledOut: [],
        nextSteps: ['Look at the service logs'],
      },
    },
  ]),
];

const alice = { id: 'PALICE', type: 'user_reference', summary: 'Alice Responder' };
const isCard = (c: SlackCall) => c.method === 'chat.postMessage' && c.args.channel === 'C0INC' && !c.args.thread_ts;

/** Slack refuses the incident card for longer than the job's own 3 attempts would cover: the card waits in the channel's outbox. */
describe("an incident's card while Slack fails: posted once after recovery, and the triage runs in its thread", () => {
  let world: TriageWorld;
  let incidents: Queue;

  beforeAll(async () => {
    world = await createTriageWorld(CONFIG);
    await world.github.createRepo('acme', 'checkout', { 'README.md': '# checkout\n', 'src/cart.js': 'export const total = 0;\n' });
    world.pagerduty.addService({ id: 'PABC123', name: 'Checkout' });
    await world.start();
    incidents = new Queue('incidents', { connection: { url: world.redis.url }, prefix: world.env.WRENCH_QUEUE_PREFIX });
  });

  afterAll(async () => {
    await incidents?.close();
    await world?.stop();
  });

  const outages: [string, SlackFailure, number][] = [
    // Retry-After 1 s: 20 refusals span longer than the job's attempts (backoff 5 s, then 10 s).
    ['HTTP 429 with Retry-After', { status: 429, retryAfter: 1 }, 20],
    // The outbox's backoff (1, 2, 4, 8 s): 5 refusals span about 15 s.
    ['HTTP 500', { status: 500 }, 5],
  ];

  it.each(outages)('Slack answering %s to chat.postMessage when the incident arrives', async (name, failure, refusals) => {
    const { slack, anthropic, pagerduty } = world;
    const verdict = `Nothing in the code explains it (${name})`;
    anthropic.setScript(triageScript(verdict));
    const incidentId = pagerduty.addIncident({ title: `Checkout failing (${name})`, service: 'PABC123', urgency: 'high' }).id;
    const eventId = `EVT-${incidentId}`;
    slack.startOutage(failure, { methods: ['chat.postMessage'] });

    expect((await world.sendWebhook(incidentWebhook('incident.triggered', pagerduty.incidentJson(incidentId), { id: eventId }))).status).toBe(202);
    // Acknowledged while the card still waits: the update waits for the card too, however long the outage.
    const acked = incidentWebhook(
      'incident.acknowledged',
      { ...pagerduty.incidentJson(incidentId), status: 'acknowledged' },
      { agent: alice, id: `${eventId}-ack` },
    );
    expect((await world.sendWebhook(acked)).status).toBe(202);
    const refused = () => slack.calls.filter((c) => isCard(c) && String(c.args.text).includes(name) && (c.status !== 200 || !!c.error)).length;
    await pollFor(
      () => (refused() >= refusals ? true : undefined),
      90_000,
      () => `${refused()} refused card posts so far`,
    );
    // The incident's job is still waiting for its card, not failed: its attempts were not spent.
    expect(['delayed', 'active', 'waiting']).toContain(await incidents.getJobState(jobIdFor('pd', eventId)));
    expect(slack.messages('C0INC').filter((m) => (!m.thread_ts || m.thread_ts === m.ts) && m.text.includes(name))).toHaveLength(0);

    slack.recover();
    const report = await slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' &&
        !!c.args.thread_ts &&
        String(c.args.text).startsWith('Triage of') &&
        c.status === 200 &&
        !c.error &&
        JSON.stringify(c.args.blocks).includes(verdict),
      90_000,
    );
    const cards = slack.messages('C0INC').filter((m) => (!m.thread_ts || m.thread_ts === m.ts) && m.text.includes(name));
    expect(cards).toHaveLength(1);
    expect(report.args.thread_ts).toBe(cards[0]!.ts);
    expect(await world.jobResult(jobIdFor('pd', eventId))).toMatchObject({ cardTs: cards[0]!.ts });
    expect(await world.jobResult(jobIdFor('triage', incidentId), 60_000)).toMatchObject({ status: 'reported' });
    expect(slack.calls.filter((c) => isCard(c) && String(c.args.text).includes(name) && c.status === 200 && !c.error)).toHaveLength(1);
    await slack.waitFor(
      (c) => c.method === 'chat.update' && c.args.ts === cards[0]!.ts && JSON.stringify(c.args.blocks).includes('Acknowledged by Alice'),
      60_000,
    );
    expect(await world.jobResult(jobIdFor('pd', `${eventId}-ack`), 60_000)).toEqual({ status: 'updated' });
  });
});

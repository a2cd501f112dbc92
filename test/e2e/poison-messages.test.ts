import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { incidentWebhook } from '../fakes/pagerduty-webhook-sender.js';
import type { SlackCall } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { runWrench } from '../helpers/wrench-process.js';
import { redisKeys } from '../../src/redis/redis-keys.js';
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
      whatIsGoingOn: 'Checkout answers 500.',
      verdict: 'Not enough evidence yet',
      likelyCause: { summary: 'Unknown from the repository alone.', confidence: 'low', evidence: [] },
      suspectCommits: [],
      ruledOut: [],
      nextSteps: ['Read the runbook'],
    },
  },
]);

const isCard = (c: SlackCall) => c.method === 'chat.postMessage' && c.args.channel === 'C0INC' && !c.args.thread_ts && c.status === 200 && !c.error;
const cardsFor = (world: TriageWorld, marker: string) => world.slack.calls.filter((c) => isCard(c) && JSON.stringify(c.args).includes(marker));
const isWellFormed = (value: unknown) => JSON.stringify(value) === JSON.stringify(value).toWellFormed() && !/\\ud[89a-f]/i.test(JSON.stringify(value));

/** One incident card Wrench cannot store or keep track of must not stop every later card in its channel. */
describe('poison messages: one bad string cannot block a channel', () => {
  let world: TriageWorld;
  let redis: Redis;

  beforeAll(async () => {
    world = await createTriageWorld(CONFIG);
    await world.github.createRepo('acme', 'checkout', { 'src/pay.js': 'export const pay = (total) => total.toFixed(2);\n' });
    world.pagerduty.addService({ id: 'PABC123', name: 'Checkout' });
    world.anthropic.setScript(Array.from({ length: 20 }, () => finishTriage));
    await world.start({ WRENCH_METRICS: 'on' });
    redis = new Redis(world.redis.url);
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    redis?.disconnect();
    await world?.stop();
  });

  const trigger = async (title: string) => {
    const incident = world.pagerduty.addIncident({ title, service: 'PABC123' });
    const answer = await world.sendWebhook(incidentWebhook('incident.triggered', world.pagerduty.incidentJson(incident.id), { id: `EVT-${incident.id}` }));
    expect(answer.status).toBe(202);
    return incident;
  };

  it('an incident titled with 100 emoji, then one holding a lone surrogate: each card is posted once, cut between graphemes, and the next card still comes', async () => {
    await trigger(`${'🔥'.repeat(100)} fire-marker`);
    const lone = await trigger('lone-marker \ud83d half an emoji');
    const next = await trigger('Checkout after the poison');
    await pollFor(
      () => cardsFor(world, 'Checkout after the poison')[0],
      60_000,
      () => `cards so far: ${world.slack.calls.filter(isCard).length}`,
    );
    // Settled: nothing more waits in the channel's outbox, and each card went out exactly once.
    await pollFor(
      async () => ((await redis.llen(redisKeys(world.env.WRENCH_QUEUE_PREFIX!).outbox.queue('C0INC:'))) === 0 ? true : undefined),
      20_000,
      () => 'the channel outbox never emptied',
    );
    const fireCards = cardsFor(world, 'fire-marker');
    expect(fireCards).toHaveLength(1);
    expect(cardsFor(world, 'lone-marker')).toHaveLength(1);
    expect(cardsFor(world, 'Checkout after the poison')).toHaveLength(1);
    const header = (fireCards[0]!.args.blocks as { type: string; text?: { text: string } }[]).find((b) => b.type === 'header')!.text!.text;
    expect(header.endsWith('🔥…')).toBe(true);
    expect(header.length).toBeLessThanOrEqual(150);
    for (const card of [...fireCards, ...cardsFor(world, 'lone-marker')]) expect(isWellFormed(card.args)).toBe(true);
    expect(JSON.stringify(cardsFor(world, 'lone-marker')[0]!.args)).toContain('lone-marker \ufffd half an emoji');
    expect(lone.id).not.toBe(next.id);
  });

  it('an outbox item nobody can read is quarantined after a few tries: the next card flows, wrench doctor lists it, /metrics counts it', async () => {
    const keys = redisKeys(world.env.WRENCH_QUEUE_PREFIX!).outbox;
    // What an older version (or a half-written item) may have left at the head of the channel's outbox.
    await redis.rpush(keys.queue('C0INC:'), '{"id":"left-by-an-old-version","op":"post","message":{"text":"cut');
    await redis.zadd(keys.due, Date.now(), 'C0INC:');
    await trigger('Checkout behind the unreadable item');
    await pollFor(
      () => cardsFor(world, 'Checkout behind the unreadable item')[0],
      60_000,
      () => 'the card behind the unreadable item never came',
    );
    expect(await redis.llen(keys.quarantine)).toBe(1);
    const record = JSON.parse((await redis.lindex(keys.quarantine, 0))!) as Record<string, unknown>;
    expect(record).toMatchObject({ channel: 'C0INC', threadTs: '', delivered: false, failures: 3 });
    expect(record.stored).toContain('left-by-an-old-version');
    expect(record.error).toMatch(/not JSON/);

    const metrics = await (await fetch(`${world.wrench!.url}/metrics`)).text();
    expect(metrics).toMatch(/^wrench_slack_quarantined_total 1$/m);
    const doctor = await runWrench(['doctor'], world.env);
    expect(doctor.stdout + doctor.stderr).toContain('1 outbox item was quarantined');
    expect(doctor.stdout + doctor.stderr).toMatch(/C0INC \(channel\): unreadable item \(the stored item is not JSON/);
  });
});

import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { runWrench } from '../helpers/wrench-process.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';
import { bashStep, createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/epoch }
sandbox: { mode: none }
limits: { concurrency: 1 }
`;

/** Redis restarts without its data (no persistence) while one run is under way and two more are queued behind it. */
describe('a Redis that comes back empty', () => {
  let world: E2eWorld;
  let restarted: RedisServer | undefined;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'epoch', { 'README.md': '# epoch\n' });
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await world?.stop();
    await restarted?.stop();
  });

  const health = async () => (await (await fetch(`${world.wrench!.url}/healthz`)).json()) as Record<string, unknown>;

  it('is noticed (log, /healthz, doctor), and the mentions Wrench kept are taken again, each thread told', async () => {
    const agent = scriptByRun({
      'epoch run one': [bashStep('true', 15_000), createFileStep('src/one.js', 'export const one = 1;\n'), finishStep('Added one.js.')],
      'epoch run two': [createFileStep('src/two.js', 'export const two = 2;\n'), finishStep('Added two.js.')],
      'epoch run three': [createFileStep('src/three.js', 'export const three = 3;\n'), finishStep('Added three.js.')],
    });
    world.anthropic.setScript(agent.items);
    await world.start({ WRENCH_MENTION_CLAIM_SECONDS: '2' });
    const tasks = new Queue('tasks', { connection: { url: world.redis.url }, prefix: world.env.WRENCH_QUEUE_PREFIX });
    const mention = (text: string) => appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> ${text}` });
    const [one, two, three] = [
      mention('epoch run one: add src/one.js'),
      mention('epoch run two: add src/two.js'),
      mention('epoch run three: add src/three.js'),
    ];
    const tsOf = (envelope: Record<string, unknown>) => (envelope.event as { ts: string }).ts;
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, one)).status).toBe(200);
    await pollFor(
      () => (world.anthropic.requests.length > 0 ? true : undefined),
      30_000,
      () => 'run one never reached the model',
    );
    for (const envelope of [two, three]) expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    const deadline = Date.now() + 15_000;
    while ((await tasks.getJobCountByTypes('waiting', 'delayed', 'prioritized')) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await tasks.getJobCountByTypes('waiting', 'delayed', 'prioritized')).toBe(2);
    await tasks.close();
    // One sweep of the journal sees run one running.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await health()).status).toBe('ok');

    // Redis restarts without its data, at the same address.
    const port = world.redis.port;
    await world.redis.stop();
    restarted = await startRedisServer({ port });

    const degraded = await pollFor(
      () => (/Redis lost its data/.test(world.wrench!.output()) ? true : undefined),
      30_000,
      () => 'the loss was never logged',
    ).then(health);
    expect(degraded).toMatchObject({ status: 'degraded', redis: 'lost-data', reason: expect.stringMatching(/epoch key .* restarted without its data/) });
    expect(world.wrench!.output()).toMatch(/"level":50[^\n]*Redis lost its data/);

    // The two queued mentions are taken again from the journal and answered; the running one's thread hears its result may still come.
    for (const envelope of [two, three]) await threadReply(world, tsOf(envelope), /lost its data .*taking it again/, 30_000);
    await threadReply(world, tsOf(one), /lost its data .*while this request was running/, 30_000);
    // Queued again in the new Redis, and run to the end.
    const after = new Queue('tasks', { connection: { url: restarted.url }, prefix: world.env.WRENCH_QUEUE_PREFIX });
    try {
      for (const envelope of [two, three]) {
        const id = `run-${envelope.event_id as string}`;
        const end = Date.now() + 120_000;
        while (!['completed', 'failed'].includes(await after.getJobState(id)) && Date.now() < end) await new Promise((r) => setTimeout(r, 250));
        expect(await after.getJobState(id)).toBe('completed');
        expect((await after.getJob(id))?.returnvalue).toMatchObject({ status: 'pr_opened' });
      }
    } finally {
      await after.close();
    }
    const pulls = world.github.pulls('acme', 'epoch').map((p) => p.title);
    expect(pulls.filter((title) => /run two/i.test(title))).toHaveLength(1);
    expect(pulls.filter((title) => /run three/i.test(title))).toHaveLength(1);

    const doctor = await runWrench(['doctor'], { ...world.env, REDIS_URL: restarted.url });
    expect(doctor.stdout).toMatch(/FAIL\s+Redis data: Redis lost its data 1 time\(s\) in the last day/);
  });
});

import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIdFor, TASK_QUEUE } from '../../src/queue/task-job.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { freePort } from '../helpers/free-port.js';
import { startWrench, type WrenchProcess } from '../helpers/wrench-process.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { streamText } from '../fakes/slack/streams.js';
import { bashStep, createFileStep, finishStep, runsNeverInterleaved, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/multi }
sandbox: { mode: bwrap }
limits: { concurrency: 1, perRepository: 5, perUser: 5 }
`;

describe('scaling out: one web process and two worker processes on one Redis', () => {
  let world: E2eWorld;
  const workers: WrenchProcess[] = [];
  let connection: Redis;
  let tasks: Queue;
  let events: QueueEvents;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'multi', { 'README.md': '# multi\n' });
    world.wrench = await startWrench({ ...world.env }, ['start', '--role', 'web']);
    for (let i = 0; i < 2; i++) workers.push(await startWrench({ ...world.env, PORT: String(await freePort()) }, ['start', '--role', 'worker']));
    connection = new Redis(world.redis.url, { maxRetriesPerRequest: null });
    tasks = new Queue(TASK_QUEUE, { connection, prefix: world.env.WRENCH_QUEUE_PREFIX });
    events = new QueueEvents(TASK_QUEUE, { connection: connection.duplicate(), prefix: world.env.WRENCH_QUEUE_PREFIX });
    await events.waitUntilReady();
  });

  afterAll(async () => {
    await events?.close();
    await tasks?.close();
    connection?.disconnect();
    await Promise.all(workers.map((w) => w.stop()));
    await world?.stop();
  });

  it('never runs the same thread in two workers at once, while other threads run in parallel', async () => {
    const script = scriptByRun({
      'thread one first': [bashStep('sleep 2'), createFileStep('src/a1.js', 'export const a = 1;\n'), finishStep('a1')],
      'thread one second': [bashStep('sleep 2'), createFileStep('src/a2.js', 'export const a = 2;\n'), finishStep('a2')],
      'thread one third': [bashStep('sleep 2'), createFileStep('src/a3.js', 'export const a = 3;\n'), finishStep('a3')],
      'thread two only': [bashStep('sleep 2'), createFileStep('src/b1.js', 'export const b = 1;\n'), finishStep('b1')],
    });
    world.anthropic.setScript(script.items);
    const seen: Array<{ event: string; jobId: string }> = [];
    for (const event of ['added', 'delayed', 'completed', 'failed'] as const) events.on(event, ({ jobId }: { jobId: string }) => seen.push({ event, jobId }));
    const jobIds: string[] = [];
    const deliver = async (text: string, thread?: string) => {
      const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> ${text}`, thread_ts: thread });
      jobIds.push(jobIdFor('run', String(envelope.event_id)));
      await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
      return (envelope.event as { ts: string }).ts;
    };
    const one = await deliver('thread one first: add src/a1.js exporting `a`');
    // The thread exists once its first run is queued: the follow-ups are asked after that.
    await pollFor(
      () => seen.find((e) => e.event === 'added' && e.jobId === jobIds[0]),
      30_000,
      () => `no 'added' event for ${jobIds[0]}: ${JSON.stringify(seen)}`,
    );
    await deliver('thread one second: add src/a2.js exporting `a`', one);
    await deliver('thread one third: add src/a3.js exporting `a`', one);
    const two = await deliver('thread two only: add src/b1.js exporting `b`');

    // Each run's one streamed message (the default) ends naming its pull request.
    const done = (ts: string) => world.slack.streamsIn('C0DEV', ts).filter((s) => s.state === 'stopped' && /PR #\d+/.test(streamText(s))).length;
    const deadline = Date.now() + 120_000;
    while (done(one) < 3 || done(two) < 1) {
      if (Date.now() > deadline) throw new Error(`runs did not finish: ${done(one)} ${done(two)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const threadOne = script.trace.filter((t) => t.run.startsWith('thread one'));
    expect(runsNeverInterleaved(threadOne)).toBe(true);
    expect(threadOne.map((t) => t.run).filter((r, i, a) => a[i - 1] !== r)).toEqual(['thread one first', 'thread one second', 'thread one third']);
    // The other thread was not held up behind thread one: it overlapped with it.
    const firstTwo = script.trace.findIndex((t) => t.run === 'thread two only');
    const lastOne = script.trace.map((t) => t.run).lastIndexOf('thread one third');
    expect(firstTwo).toBeLessThan(lastOne);
    expect(world.github.pulls('acme', 'multi')).toHaveLength(2);
    // Four jobs, each completed once; the follow-ups waited (delayed) behind the first run of their thread. A job
    // completes just after its reply, once its tree is readied for the next job.
    const [first, second, third, other] = jobIds;
    await pollFor(
      () => jobIds.every((id) => seen.some((e) => e.event === 'completed' && e.jobId === id)) || undefined,
      30_000,
      () => `not every job completed: ${JSON.stringify(seen)}`,
    );
    expect(await tasks.getJobCounts('completed', 'failed', 'active', 'waiting', 'delayed')).toEqual({
      completed: 4,
      failed: 0,
      active: 0,
      waiting: 0,
      delayed: 0,
    });
    for (const id of jobIds) expect(seen.filter((e) => e.event === 'completed' && e.jobId === id)).toHaveLength(1);
    expect(seen.some((e) => e.event === 'delayed' && e.jobId === second)).toBe(true);
    expect(seen.some((e) => e.event === 'delayed' && e.jobId === third)).toBe(true);
    expect(seen.some((e) => e.event === 'delayed' && (e.jobId === first || e.jobId === other))).toBe(false);
    // Both worker processes took part: each runs one job at a time, and thread two arrived while thread one ran.
    const busy = workers.filter((w) => /agent finished/.test(w.output()));
    expect(busy.length).toBe(2);
  });
});

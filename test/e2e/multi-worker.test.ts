import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { startWrench, type WrenchProcess } from '../helpers/wrench-process.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { bashStep, createFileStep, finishStep, runsNeverInterleaved, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/multi }
sandbox: { mode: bwrap }
limits: { concurrency: 3, perRepository: 5, perUser: 5 }
`;

describe('scaling out: one web process and two worker processes on one Redis', () => {
  let world: E2eWorld;
  const workers: WrenchProcess[] = [];

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'multi', { 'README.md': '# multi\n' });
    world.wrench = await startWrench({ ...world.env }, ['start', '--role', 'web']);
    for (let i = 0; i < 2; i++) workers.push(await startWrench({ ...world.env, PORT: String(await freePort()) }, ['start', '--role', 'worker']));
  });

  afterAll(async () => {
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
    const deliver = async (text: string, thread?: string) => {
      const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> ${text}`, thread_ts: thread });
      await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
      return (envelope.event as { ts: string }).ts;
    };
    const one = await deliver('thread one first: add src/a1.js exporting `a`');
    await new Promise((r) => setTimeout(r, 300));
    await deliver('thread one second: add src/a2.js exporting `a`', one);
    await deliver('thread one third: add src/a3.js exporting `a`', one);
    const two = await deliver('thread two only: add src/b1.js exporting `b`');

    const done = (ts: string) => world.slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === ts && /PR #\d+/.test(String(c.args.text))).length;
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
    // Both worker processes took part.
    const busy = workers.filter((w) => /agent finished/.test(w.output()));
    expect(busy.length).toBe(2);
  });
});

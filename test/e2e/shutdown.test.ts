import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { bashStep, createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/restart }
sandbox: { mode: bwrap }
`;

describe('graceful shutdown', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'restart', { 'README.md': '# restart\n' });
    await world.start({ WRENCH_SHUTDOWN_GRACE_SECONDS: '1' });
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('SIGTERM during a run: the run stops after the grace period, its work is kept in a draft PR, the thread is told, the process exits 0', async () => {
    const script = scriptByRun({
      'restart me': [createFileStep('src/partial.js', 'export const partial = true;\n'), bashStep('sleep 120'), finishStep('never')],
    });
    world.anthropic.setScript(script.items);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> restart me: add src/partial.js exporting `partial`' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const deadline = Date.now() + 60_000;
    while (script.trace.length < 2) {
      if (Date.now() > deadline) throw new Error('the run did not reach its long command');
      await new Promise((r) => setTimeout(r, 100));
    }
    const stopping = Date.now();
    const code = await world.wrench!.stop();
    expect(code).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(15_000);
    const reply = world.slack.callsTo('chat.postMessage').find((c) => c.args.thread_ts === ts && /Wrench was restarting/.test(String(c.args.text)));
    expect(reply).toBeDefined();
    expect(String(reply!.args.text)).toMatch(/draft PR #\d+/);
    expect(world.github.pulls('acme', 'restart')[0]?.draft).toBe(true);
  });
});

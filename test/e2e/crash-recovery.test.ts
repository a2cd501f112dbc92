import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { bashStep, createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/crash }
sandbox: { mode: bwrap }
# The card surface: the restart note is read as a thread message (a streamed run says it in its plan instead:
# integration stream-run-reporter).
slack: { streamRuns: false }
`;

describe('a worker killed mid-run', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'crash', { 'README.md': '# crash\n' });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('the run starts again after the restart, says so in its thread once, and finishes with one PR', async () => {
    const script = scriptByRun({
      'survive a crash': [createFileStep('src/crash.js', 'export const crash = 1;\n'), bashStep('sleep 2'), finishStep('Added crash.js.')],
    });
    world.anthropic.setScript(script.items);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> survive a crash: add src/crash.js exporting `crash`' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    await pollFor(
      () => (script.trace.length >= 2 ? true : undefined),
      60_000,
      () => 'the run did not reach its command',
    );

    const { child } = world.wrench!;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    await world.start();

    // BullMQ hands the job on once the dead worker's lock expires (about 30 s).
    const thread = () => world.slack.messages('C0DEV', ts).map((m) => m.text);
    await pollFor(
      () => thread().find((t) => /restarted after an interruption/.test(t)),
      120_000,
      () => `thread: ${JSON.stringify(thread())}`,
    );
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Opened PR #/.test(String(c.args.text)), 120_000);
    expect(world.github.pulls('acme', 'crash')).toHaveLength(1);
    expect(
      world.slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === ts && /restarted after an interruption/.test(String(c.args.text))),
    ).toHaveLength(1);
  });
});

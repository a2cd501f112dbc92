import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { finalWord } from './thread-replies.js';
import { bashStep, createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/silence }
sandbox: { mode: none }
`;

/**
 * Issue 47: acknowledged runs whose process was SIGKILLed mid-run ended in silence. A run whose worker is killed under
 * it twice is one BullMQ fails when it is next taken, without running it (maxStalledCount 1): nothing told its thread.
 */
describe('a streamed run whose process is SIGKILLed mid-run, twice', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'silence', { 'README.md': '# silence\n' });
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await world?.stop();
  });

  // Short locks: a dead worker's job is handed on within seconds instead of about a minute.
  const LOCKS = { WRENCH_JOB_LOCK_SECONDS: '5', WRENCH_STALLED_CHECK_SECONDS: '2' };
  const killAndRestart = async () => {
    const { child } = world.wrench!;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    await world.start(LOCKS);
  };

  it('ends with a last word in its thread that says what happened, once', { timeout: 400_000 }, async () => {
    const script = scriptByRun({
      'speak after two crashes': [createFileStep('src/word.js', 'export const word = 1;\n'), bashStep('sleep 5'), finishStep('Added word.js.')],
    });
    world.anthropic.setScript(script.items);
    await world.start(LOCKS);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> speak after two crashes: add src/word.js exporting `word`' });
    const ts = (envelope.event as { ts: string }).ts;
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    // Killed in its `sleep 5` (its second step), then again in the same step of the attempt after the restart.
    const inSleep = (attempt: number) => () => (script.trace.filter((t) => t.step === 1).length >= attempt ? true : undefined);
    await pollFor(inSleep(1), 60_000, () => 'the run did not reach its command');
    await killAndRestart();
    // BullMQ hands the job on once the dead worker's lock expires.
    await pollFor(inSleep(2), 120_000, () => `the run was not taken again: ${JSON.stringify(script.trace)}`);
    await killAndRestart();

    const word = await pollFor(
      () => finalWord(world, 'C0DEV', ts),
      60_000,
      () =>
        `no last word in the thread; Slack calls: ${world.slack.calls.filter((c) => c.args.channel === 'C0DEV' || c.args.channel_id === 'C0DEV').map((c) => c.method)}`,
    );
    expect(word).toMatch(/stopped 2 times while it was under way/);
    // Said once (one message for the run: its one stream, then edits of it), and the run was not started a third time.
    expect(world.slack.calls.filter((c) => c.method === 'chat.startStream' && !c.error)).toHaveLength(1);
    expect(world.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && !c.error)).toHaveLength(0);
    expect(script.trace.filter((t) => t.step === 0)).toHaveLength(2);
    expect(world.wrench!.output()).toMatch(/job failed \(final\): its worker stopped while running it too often/);
  });
});

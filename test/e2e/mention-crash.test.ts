import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponse, type ScriptItem, type ScriptReply } from '../fakes/anthropic-fake.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/intake }
sandbox: { mode: none }
`;
const READER_MODEL = 'claude-haiku-reader-e2e';

/** The web process dies after Slack got its 200 and before the mention reached the queue. */
describe('an acknowledged mention whose web process is killed', () => {
  let world: E2eWorld;
  let tasks: Queue;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'intake', { 'README.md': '# intake\n' });
    tasks = new Queue('tasks', { connection: { url: world.redis.url }, prefix: world.env.WRENCH_QUEUE_PREFIX });
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await tasks?.close();
    await world?.stop();
  });

  it('is answered once after the restart', async () => {
    // The model reader is held: the process is acknowledged, claimed and waiting on it when it is killed.
    let readerHeld = false;
    let releaseReader: (reply: ScriptReply) => void = () => {};
    const heldReader: ScriptItem = () =>
      new Promise((resolve) => {
        readerHeld = true;
        releaseReader = resolve;
      });
    const agent = scriptByRun({ 'survive the web crash': [createFileStep('src/intake.js', 'export const intake = 1;\n'), finishStep('Added intake.js.')] });
    world.anthropic.setScript([heldReader, ...agent.items]);
    await world.start({ WRENCH_READER_MODEL: READER_MODEL, WRENCH_READER_TIMEOUT_MS: '30000', WRENCH_MENTION_CLAIM_SECONDS: '2' });

    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> survive the web crash: add src/intake.js exporting `intake`' });
    const ts = (envelope.event as { ts: string }).ts;
    const answer = await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    expect(answer.status).toBe(200);
    await pollFor(
      () => (readerHeld ? true : undefined),
      15_000,
      () => 'the model reader was never asked',
    );
    const { child } = world.wrench!;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    world.wrench = undefined;
    // Nothing was queued or said before the kill.
    expect(await tasks.getJobCountByTypes('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized')).toBe(0);
    releaseReader(errorResponse(500));
    expect(world.slack.messages('C0DEV', ts).filter((m) => m.ts !== ts)).toEqual([]);

    // Slack retries it (it saw a 200, but a retry may still come): a duplicate either way, never a second run.
    world.anthropic.setScript(agent.items);
    await world.start({ WRENCH_READER_MODEL: 'none', WRENCH_MENTION_CLAIM_SECONDS: '2' });
    await threadReply(world, ts, /Opened PR #/, 90_000);
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);

    expect(world.github.pulls('acme', 'intake')).toHaveLength(1);
    const jobs = await tasks.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized']);
    expect(jobs).toHaveLength(1);
    // The run was announced once: its one streamed message (by default), or its status card.
    const announced = world.slack.calls.filter(
      (c) => c.args.thread_ts === ts && (c.method === 'chat.startStream' || (c.method === 'chat.postMessage' && /Queued/.test(JSON.stringify(c.args)))),
    );
    expect(announced).toHaveLength(1);
    expect(world.wrench!.output()).toMatch(/resuming a mention that was acknowledged but never handled/);
    // The redelivery was answered as a duplicate, and the intake holds nothing.
    await pollFor(
      () => (/duplicate event: already handled/.test(world.wrench!.output()) ? true : undefined),
      10_000,
      () => 'the redelivery was not seen',
    );
    expect(world.github.pulls('acme', 'intake')).toHaveLength(1);
  });
});

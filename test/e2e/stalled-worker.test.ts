import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIdFor, TASK_QUEUE } from '../../src/queue/task-job.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { freePort } from '../helpers/free-port.js';
import { startWrench, type WrenchProcess } from '../helpers/wrench-process.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { bashStep, createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const config = (streamRuns: boolean) => `
channels:
  C0DEV: { repo: acme/stall }
sandbox: { mode: bwrap }
limits: { concurrency: 1 }
slack: { streamRuns: ${streamRuns} }
`;

/** Short locks, so that a worker paused a few seconds loses its job (the default is 30 s). */
const LOCKS = { WRENCH_JOB_LOCK_SECONDS: '3', WRENCH_STALLED_CHECK_SECONDS: '1' };

// The final reply is a thread message on the card surface, the stream's end on the streamed one (the default).
describe.each([
  { surface: 'card', streamRuns: false },
  { surface: 'stream', streamRuns: true },
])('a worker paused past its job lock (SIGSTOP), then resumed (SIGCONT), $surface surface', ({ streamRuns }) => {
  let world: E2eWorld;
  let a: WrenchProcess | undefined;
  let b: WrenchProcess | undefined;
  let connection: Redis | undefined;
  let tasks: Queue | undefined;

  beforeAll(async () => {
    world = await createE2eWorld(config(streamRuns));
    await world.github.createRepo('acme', 'stall', { 'README.md': '# stall\n' });
    world.wrench = await startWrench({ ...world.env, ...LOCKS }, ['start', '--role', 'web']);
    a = await startWrench({ ...world.env, ...LOCKS, PORT: String(await freePort()) }, ['start', '--role', 'worker']);
    connection = new Redis(world.redis.url, { maxRetriesPerRequest: null });
    tasks = new Queue(TASK_QUEUE, { connection, prefix: world.env.WRENCH_QUEUE_PREFIX });
  });

  afterAll(async () => {
    await tasks?.close();
    connection?.disconnect();
    if (a?.child.exitCode === null) a.child.kill('SIGCONT');
    await Promise.all([a?.stop(), b?.stop()]);
    await world?.stop();
  });

  it('only the attempt that holds the job pushes and replies; the other stops quietly', async () => {
    const script = scriptByRun({
      'stall here': [bashStep('sleep 1'), createFileStep('src/stall.js', 'export const stall = 1;\n'), bashStep('sleep 2'), finishStep('Added stall.js.')],
    });
    world.anthropic.setScript(script.items);
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> stall here: add src/stall.js exporting `stall`' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;

    // Worker A has the job and its agent is at work: A stops (as a machine at load ~45 starves it) past its lock.
    await pollFor(
      () => (script.trace.length >= 1 ? true : undefined),
      60_000,
      () => `worker A did not start the run:\n${a!.output().slice(-3000)}`,
    );
    a!.child.kill('SIGSTOP');
    // Worker B finds the job's lock expired, hands the job to the queue again and runs it from the start.
    b = await startWrench({ ...world.env, ...LOCKS, PORT: String(await freePort()), WRENCH_DATA_DIR: path.join(world.dir.path, 'data-b') }, [
      'start',
      '--role',
      'worker',
    ]);
    await pollFor(
      () => (script.trace.filter((t) => t.step === 0).length >= 2 ? true : undefined),
      90_000,
      () => `worker B did not take the job over:\n${b!.output().slice(-3000)}`,
    );
    // A wakes up while B runs: it must not act.
    a!.child.kill('SIGCONT');

    // On the streamed surface the run's one message ends with the reply as a markdown block: streamed there, or edited
    // in by the attempt that took the message over (B restarted the run, so its plan replaces A's).
    const replyBlock = (block: unknown) => (block as { type?: string }).type === 'markdown' && /PR #\d+/.test(String((block as { text?: string }).text));
    const finalReplies = () => [
      ...world.slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === ts && /Opened PR #/.test(String(c.args.text))),
      ...world.slack.messages('C0DEV', ts).filter((m) => m.bot_id && (m.blocks ?? []).some(replyBlock)),
    ];
    await pollFor(
      () => (finalReplies().length >= 1 ? true : undefined),
      120_000,
      () =>
        `no final reply; thread: ${JSON.stringify(world.slack.messages('C0DEV', ts).map((m) => m.text))}\nA:\n${a!.output().slice(-3000)}\nB:\n${b!.output().slice(-3000)}`,
    );
    // A either stops at once (it lost its claim) or, unfenced, goes on to the end of its run, which BullMQ then refuses.
    const aEnded = /lost its claim on the job|Lock mismatch for job|Missing lock for job/;
    await pollFor(
      () => (aEnded.test(a!.output()) ? true : undefined),
      90_000,
      () => `worker A neither stopped nor finished:\n${a!.output().slice(-4000)}`,
    );
    const jobId = jobIdFor('run', String(envelope.event_id));
    for (const deadline = Date.now() + 90_000; (await tasks!.getJobState(jobId)) !== 'completed'; ) {
      if (Date.now() > deadline) throw new Error(`the job did not complete:\nB:\n${b!.output().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // What A might still have queued for Slack is delivered within a second or two.
    await new Promise((r) => setTimeout(r, 3000));

    // The remote got one run's branch and one pull request; the thread one final reply and no failure.
    const refs = await promisify(execFile)('git', ['for-each-ref', '--format=%(refname:short)', 'refs/heads'], { cwd: world.github.gitDir('acme', 'stall') });
    const branches = refs.stdout.split('\n').filter((b) => b && b !== 'main');
    expect(branches, `branches on the remote: ${branches.join(', ')}`).toHaveLength(1);
    expect(world.github.pulls('acme', 'stall')).toHaveLength(1);
    expect(finalReplies()).toHaveLength(1);
    const thread = world.slack.messages('C0DEV', ts).map((m) => m.text);
    expect(
      thread.filter((t) => /^:x:/.test(t)),
      JSON.stringify(thread),
    ).toEqual([]);
    // B did the work to the end; A stopped, said why, and did not fail the job.
    expect(b!.output()).toMatch(/agent finished/);
    expect(a!.output()).toMatch(/lost its claim on the job/);
    expect(a!.output()).not.toMatch(/"msg":"job failed"/);
    expect(a!.output()).not.toMatch(/Missing lock|Lock mismatch/);
  });
});

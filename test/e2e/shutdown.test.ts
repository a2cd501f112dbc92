import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { freePort } from '../helpers/free-port.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { HAND_BACK_SECONDS } from '../helpers/shutdown-budget.js';
import { howItEnded, startWrench, type WrenchProcess } from '../helpers/wrench-process.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';
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
    // Said before Wrench exited (in the run's streamed message by default, or a reply beside the card).
    const reply = await threadReply(world, ts, /Wrench was restarting/, 1_000);
    expect(reply.text).toMatch(/draft PR #\d+/);
    expect(world.github.pulls('acme', 'restart')[0]?.draft).toBe(true);
  });
});

/**
 * A worker pod scaled down, evicted or rolled: Kubernetes sends `wrench start --role worker` SIGTERM and kills it
 * terminationGracePeriodSeconds later (deploy/kubernetes/worker.yaml: WRENCH_SHUTDOWN_GRACE_SECONDS plus
 * HAND_BACK_SECONDS, checked in test/unit/deploy/kubernetes-manifests.test.ts). Within that, a running job either
 * finishes or is handed back; the web process stays up and answers the threads.
 */
describe('graceful shutdown of a worker process (a Kubernetes worker pod scaled down)', () => {
  let world: E2eWorld;
  let worker: WrenchProcess | undefined;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'restart', { 'README.md': '# restart\n' });
    world.wrench = await startWrench({ ...world.env }, ['start', '--role', 'web']);
  });

  afterAll(async () => {
    await worker?.stop();
    await world?.stop();
  });

  async function mention(text: string): Promise<string> {
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> ${text}` });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    return (envelope.event as { ts: string }).ts;
  }

  async function waitForTrace(trace: unknown[], length: number): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (trace.length < length) {
      if (Date.now() > deadline) throw new Error('the run did not reach its command');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('a run that ends within the grace finishes after SIGTERM: a ready pull request, the thread answered, exit 0', async () => {
    const grace = 30;
    worker = await startWrench({ ...world.env, PORT: String(await freePort()), WRENCH_SHUTDOWN_GRACE_SECONDS: String(grace) }, ['start', '--role', 'worker']);
    const script = scriptByRun({
      'finish me': [bashStep('sleep 3'), createFileStep('src/done.js', 'export const done = true;\n'), finishStep('added src/done.js')],
    });
    world.anthropic.setScript(script.items);
    const ts = await mention('finish me: add src/done.js exporting `done`');
    await waitForTrace(script.trace, 1);
    const stopping = Date.now();
    expect(await worker.stop()).toBe(0);
    expect(Date.now() - stopping).toBeLessThan((grace + HAND_BACK_SECONDS) * 1000);
    // The run went on after the signal: the model was asked for its next steps, and it ended as it would have.
    expect(script.trace).toHaveLength(3);
    const [pull] = world.github.pulls('acme', 'restart');
    expect(pull?.draft).toBe(false);
    const reply = await threadReply(world, ts, new RegExp(`/pull/${pull?.number}\\b`), 30_000);
    expect(reply.text).not.toMatch(/Wrench was restarting/);
  });

  it('a run longer than the grace is handed back within the grace plus HAND_BACK_SECONDS: its work in a draft pull request, the thread told', async () => {
    const grace = 1;
    worker = await startWrench({ ...world.env, PORT: String(await freePort()), WRENCH_SHUTDOWN_GRACE_SECONDS: String(grace) }, ['start', '--role', 'worker']);
    const script = scriptByRun({
      'hand me back': [createFileStep('src/partial.js', 'export const partial = true;\n'), bashStep('sleep 120'), finishStep('never')],
    });
    world.anthropic.setScript(script.items);
    const ts = await mention('hand me back: add src/partial.js exporting `partial`');
    await waitForTrace(script.trace, 2);
    const stopping = Date.now();
    // WrenchProcess.stop() kills after 15 s, well within HAND_BACK_SECONDS: a clean exit (0) is a hand-back in time.
    expect(await worker.stop()).toBe(0);
    expect(Date.now() - stopping).toBeLessThan((grace + HAND_BACK_SECONDS) * 1000);
    const reply = await threadReply(world, ts, /Wrench was restarting/, 30_000);
    const draft = world.github.pulls('acme', 'restart').find((p) => p.draft);
    expect(reply.text).toContain(`draft PR #${draft?.number}`);
  });
});

/**
 * Redis stops answering (connected, silent: SIGSTOP) just as Wrench shuts down, as a connection still looking for a
 * new primary after a failover does. Every shutdown step has its own bound: the ones left waiting are named in the
 * log, and Wrench exits non-zero within the helper's 15 s instead of waiting for Redis forever.
 */
describe('shutdown while Redis does not answer', () => {
  let world: E2eWorld;
  let redis: RedisServer | undefined;

  beforeAll(async () => {
    world = await createE2eWorld('channels:\n  C0DEV: { repo: acme/restart }\nsandbox: { mode: none }\n');
    // Its own redis-server on its own port, so that it can be paused whatever REDIS_URL the tests run with.
    redis = await startRedisServer({ port: await freePort() });
  });

  afterAll(async () => {
    redis?.signal('SIGCONT');
    if (world?.wrench && howItEnded(world.wrench.child) === undefined) world.wrench.child.kill('SIGKILL');
    await world?.stop();
    await redis?.stop();
  });

  it('each step waits at most its bound: Wrench exits 1 within seconds and names the steps it left', async () => {
    const wrench = await world.start({
      REDIS_URL: redis!.url,
      WRENCH_SHUTDOWN_GRACE_SECONDS: '1',
      WRENCH_SHUTDOWN_HAND_BACK_SECONDS: '2',
      WRENCH_SHUTDOWN_STEP_SECONDS: '1',
    });
    await pollFor(
      () => (wrench.output().includes('Wrench worker is running') ? true : undefined),
      30_000,
      () => 'the workers to start',
    );
    expect(redis!.signal('SIGSTOP')).toBe(true);
    const stopping = Date.now();
    wrench.child.kill('SIGTERM');
    const ended = await pollFor(
      () => howItEnded(wrench.child),
      20_000,
      () => `Wrench to exit after SIGTERM; its last lines:\n${wrench.output().split('\n').slice(-5).join('\n')}`,
    );
    expect(ended).toBe(1);
    expect(Date.now() - stopping).toBeLessThan(15_000);
    // Withdrawing from host affinity is the first step that needs Redis; the task worker's close is where BullMQ waits.
    expect(wrench.output()).toContain('shutdown step host affinity did not finish within 1000 ms');
    expect(wrench.output()).toMatch(/shutdown step task worker did not finish within 1000 ms/);
  });
});

/**
 * Redis does not answer while Wrench is still starting (a slow start, a primary being replaced): a SIGTERM then must
 * stop it as it would a running Wrench, closing what it had opened within the same bounds, not wait for SIGKILL.
 */
describe('SIGTERM while Wrench is starting and Redis does not answer', () => {
  let world: E2eWorld;
  let redis: RedisServer | undefined;
  let wrench: WrenchProcess | undefined;

  beforeAll(async () => {
    world = await createE2eWorld('channels:\n  C0DEV: { repo: acme/restart }\nsandbox: { mode: none }\n');
    redis = await startRedisServer({ port: await freePort() });
  });

  afterAll(async () => {
    redis?.signal('SIGCONT');
    if (wrench && howItEnded(wrench.child) === undefined) wrench.child.kill('SIGKILL');
    await world?.stop();
    await redis?.stop();
  });

  it('gives up starting: exits 1 within the shutdown bounds and says it was stopped while starting', async () => {
    expect(redis!.signal('SIGSTOP')).toBe(true);
    wrench = await startWrench(
      { ...world.env, REDIS_URL: redis!.url, WRENCH_SHUTDOWN_GRACE_SECONDS: '1', WRENCH_SHUTDOWN_HAND_BACK_SECONDS: '1', WRENCH_SHUTDOWN_STEP_SECONDS: '1' },
      ['start'],
      30_000,
      (output) => output.includes('Wrench is listening'),
    );
    expect(wrench.output()).not.toContain('Wrench worker is running');
    const stopping = Date.now();
    wrench.child.kill('SIGTERM');
    const ended = await pollFor(
      () => howItEnded(wrench!.child),
      20_000,
      () => `Wrench to exit after SIGTERM while starting; its last lines:\n${wrench!.output().split('\n').slice(-5).join('\n')}`,
    );
    expect(ended).toBe(1);
    expect(Date.now() - stopping).toBeLessThan(15_000);
    expect(wrench.output()).toMatch(/^wrench: stopped by SIGTERM while starting\b/m);
    expect(wrench.output()).not.toContain('Wrench started');
  });
});

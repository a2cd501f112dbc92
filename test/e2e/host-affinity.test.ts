import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIdFor } from '../../src/queue/task-job.js';
import { redisKeys } from '../../src/redis/redis-keys.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { freePort } from '../helpers/free-port.js';
import { startWrench, type WrenchProcess } from '../helpers/wrench-process.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { bashStep, createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0ONE: { repo: acme/one }
  C0TWO: { repo: acme/two }
sandbox: { mode: bwrap }
limits: { concurrency: 1, perRepository: 5, perUser: 10 }
`;

const RUNS = ['one-a', 'one-b', 'two-a', 'one-c', 'two-b', 'one-d', 'two-c', 'two-long', 'two-beside', 'one-after-kill'];

/**
 * Two worker processes as two hosts (each its own WRENCH_DATA_DIR, so its own mirrors and pooled trees) on one Redis,
 * with jobs for two repositories: a job runs on the worker that has its repository warm when that worker has room.
 */
describe('host affinity: jobs go to the worker holding their repository warm', () => {
  let world: E2eWorld;
  const hosts: Record<'A' | 'B', WrenchProcess | undefined> = { A: undefined, B: undefined };
  let killedOutput = '';
  const script = scriptByRun(
    Object.fromEntries(
      RUNS.map((run) => [
        run,
        [bashStep(run === 'two-long' ? 'sleep 6' : 'true'), createFileStep(`src/${run}.js`, `export const x = '${run}';\n`), finishStep(run)],
      ]),
    ),
  );

  const startHost = async (name: 'A' | 'B') => {
    hosts[name] = await startWrench(
      {
        ...world.env,
        PORT: String(await freePort()),
        WRENCH_DATA_DIR: path.join(world.dir.path, `data-${name}`),
        WRENCH_HOST_ID: `host-${name}`,
        WRENCH_AFFINITY_MS: '5000',
      },
      ['start', '--role', 'worker'],
    );
  };
  /** Which host ran a job: the one whose log has the agent finishing it. */
  const ranOn = (jobId: string) =>
    (['A', 'B'] as const).filter((name) =>
      (hosts[name]?.output() ?? (name === 'A' ? killedOutput : ''))
        .split('\n')
        .some((line) => line.includes(`"jobId":"${jobId}"`) && line.includes('agent finished')),
    );
  const deliver = async (run: string) => {
    const channel = run.startsWith('one') ? 'C0ONE' : 'C0TWO';
    const envelope = appMentionEnvelope({ channel, user: 'U0ALICE', text: `<@U0BOT> ${run}: add src/${run}.js` });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    return { jobId: jobIdFor('run', String(envelope.event_id)), ts: (envelope.event as { ts: string }).ts, at: Date.now() };
  };
  const finished = (jobId: string) =>
    pollFor(
      () => (ranOn(jobId).length > 0 ? Date.now() : undefined),
      90_000,
      () => `${jobId} did not finish`,
    );
  let redis: Redis;
  /** Every live worker has given its slot back (its room, as the other workers read it, is 1 again). */
  const idle = () =>
    expect
      .poll(
        async () => {
          const live = (['A', 'B'] as const).filter((name) => hosts[name]);
          const room = (name: string) => redis.get(redisKeys(world.env.WRENCH_QUEUE_PREFIX ?? '').affinity.room(`host-${name}`));
          return Object.fromEntries(await Promise.all(live.map(async (name) => [name, await room(name)])));
        },
        { timeout: 30_000, interval: 50 },
      )
      .toSatisfy((rooms: Record<string, string | null>) => Object.values(rooms).every((room) => room === '1'));
  const runAlone = async (run: string) => {
    const { jobId } = await deliver(run);
    await finished(jobId);
    // Its tree is readied for the next job after the agent finishes: wait until the job gave its slot back.
    await idle();
    return ranOn(jobId);
  };

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'one', { 'README.md': '# one\n' });
    await world.github.createRepo('acme', 'two', { 'README.md': '# two\n' });
    world.anthropic.setScript(script.items);
    world.wrench = await startWrench({ ...world.env }, ['start', '--role', 'web']);
    redis = new Redis(world.redis.url);
  });

  afterAll(async () => {
    redis?.disconnect();
    await Promise.all([hosts.A?.stop(), hosts.B?.stop()]);
    await world?.stop();
  });

  it('runs each repository on its warm worker, falls back when that worker is busy, and when it is killed', async () => {
    // Host A alone first: acme/one is warm there.
    await startHost('A');
    expect(await runAlone('one-a')).toEqual(['A']);
    await startHost('B');
    // B is idle and would take the job half of the time; it gives it back to A, warm with room.
    const oneB = await deliver('one-b');
    await pollFor(
      () => (ranOn(oneB.jobId).length > 0 || /"run":"one-b"/.test(JSON.stringify(script.trace)) ? true : undefined),
      60_000,
      () => 'one-b never started',
    );
    // While A runs one-b, acme/two (warm nowhere) goes to B.
    const twoA = await deliver('two-a');
    await Promise.all([finished(oneB.jobId), finished(twoA.jobId)]);
    expect(ranOn(oneB.jobId)).toEqual(['A']);
    expect(ranOn(twoA.jobId)).toEqual(['B']);
    await idle();

    // One at a time, both idle: each job goes where its repository is warm (by chance: 1 in 16).
    expect(await runAlone('one-c')).toEqual(['A']);
    expect(await runAlone('two-b')).toEqual(['B']);
    expect(await runAlone('one-d')).toEqual(['A']);
    expect(await runAlone('two-c')).toEqual(['B']);

    // B busy (a 6 s run): another acme/two job does not wait for it, A takes it at once.
    const long = await deliver('two-long');
    await pollFor(
      () => (script.trace.some((t) => t.run === 'two-long') ? true : undefined),
      30_000,
      () => 'two-long never started',
    );
    const beside = await deliver('two-beside');
    const besideDone = await finished(beside.jobId);
    const longDone = await finished(long.jobId);
    expect(ranOn(long.jobId)).toEqual(['B']);
    expect(ranOn(beside.jobId)).toEqual(['A']);
    expect(besideDone).toBeLessThan(longDone);
    await idle();

    // A killed (its heartbeat still says warm with room for a few seconds): B holds the job back at most the bound.
    const killed = hosts.A!;
    killed.child.kill('SIGKILL');
    await new Promise((resolve) => killed.child.once('exit', resolve));
    killedOutput = killed.output();
    hosts.A = undefined;
    const afterKill = await deliver('one-after-kill');
    await finished(afterKill.jobId);
    expect(ranOn(afterKill.jobId)).toEqual(['B']);
    const placed = hosts
      .B!.output()
      .split('\n')
      .find((line) => line.includes(`"jobId":"${afterKill.jobId}"`) && line.includes('job placed'));
    expect(placed).toBeDefined();
    const { warm, heldBackMs } = JSON.parse(placed!) as { warm: boolean; heldBackMs: number };
    expect(warm).toBe(false);
    expect(heldBackMs).toBeGreaterThan(0);
    expect(heldBackMs).toBeLessThan(5000 + 1500);
    // Every run opened its pull request (the last one's comes just after its agent finishes).
    const pulls = () => world.github.pulls('acme', 'one').length + world.github.pulls('acme', 'two').length;
    await pollFor(
      () => (pulls() === RUNS.length ? true : undefined),
      30_000,
      () => `${pulls()} pull requests`,
    );
  }, 240_000);
});

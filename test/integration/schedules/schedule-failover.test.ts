import type { Worker } from 'bullmq';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleWorker } from '../../../app/service/schedule-worker.js';
import type { HandlerDeps } from '../../../handlers/handler-deps.js';
import { createRedis, type RedisClient } from '../../../src/redis/redis-connection.js';
import { redisConnectionOptions, type RedisConnectionOptions } from '../../../src/redis/redis-options.js';
import { type ScheduleBook, schedulerIdOf } from '../../../src/schedules/schedule-queue.js';
import type { Schedule } from '../../../src/schedules/schedule-store.js';
import { startHandlerWorld, type HandlerWorld } from '../../helpers/handler-world.js';
import { runMessagesOf, testSchedule, withScheduleBook } from './schedule-fixtures.js';
import { startRedisCluster, type ClusterSetup } from '../../helpers/redis-cluster.js';
import { startSentinelSetup, type SentinelSetup } from '../../helpers/redis-sentinel.js';
import { uniqueName } from '../../helpers/unique-name.js';

const EVERY_SECOND = '* * * * * *';
const THREAD = '1700000000.000100';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type World = Omit<HandlerWorld, 'redis'> & { redis: RedisClient };

interface Fleet {
  world: World;
  deps: HandlerDeps & { schedules: ScheduleBook };
  workers: Worker[];
  close(): Promise<void>;
}

/** Handlers and two schedule workers (two processes of the fleet), every connection made by Wrench's own factory. */
async function startFleet(label: string, url: string, options: RedisConnectionOptions, prefix: string): Promise<Fleet> {
  const world = await startHandlerWorld(label, { connect: () => createRedis(url, undefined, 'main', options), prefix });
  const deps = withScheduleBook(world, prefix);
  const workers = [0, 1].map(() => startScheduleWorker(createRedis(url, undefined, 'schedule-worker', options), world.client, deps));
  return {
    world,
    deps,
    workers,
    async close() {
      // As Wrench's shutdown does (app/service/start-service.ts), each step gets a time and is cut after it: after a
      // Cluster failover, closing BullMQ's clients can wait on the dead node.
      const within = (step: Promise<unknown>, ms: number) => Promise.race([step, sleep(ms)]);
      // A worker's disconnect waits for its client's 'end', which a Cluster client retrying a dead node may never emit.
      await Promise.all(workers.map((w) => within(w.close(), 5_000).then(() => within(w.disconnect(), 2_000))));
      await within(deps.schedules.close(), 5_000);
      await within(world.stop(), 10_000);
      world.redis.disconnect();
    },
  };
}

const schedule = (id: string) => testSchedule(id, { cron: EVERY_SECOND, when: 'every second', threadTs: THREAD });

/**
 * What Slack saw of each occurrence, read from the schedule's thread: every due time named by a note (started,
 * skipped while the previous run goes on, or run late with the earlier ones it skipped), and how often.
 */
function notesByDue(fleet: Fleet): Map<string, number> {
  const seen = new Map<string, number>();
  for (const message of fleet.world.slack.messages('C0DEV', THREAD)) {
    const due = /run due (.+?\(UTC\))/.exec(message.text ?? '')?.[1];
    if (due) seen.set(due, (seen.get(due) ?? 0) + 1);
  }
  return seen;
}

/** The due times (ms) of the schedule's occurrence jobs that completed. */
async function handledDues(fleet: Fleet, id: string): Promise<number[]> {
  const done = await fleet.deps.schedules.queue.getJobs(['completed']);
  return done.filter((job) => job.repeatJobKey === schedulerIdOf(id)).map((job) => job.opts.prevMillis as number);
}

/**
 * The schedule fires every second through the failover: the process handling it dies with the primary (SIGKILL), the
 * replica is promoted, and the scheduler goes on from the promoted one: nothing handled twice, occurrences again after.
 */
async function acrossFailover(fleet: Fleet, fail: () => Promise<number>): Promise<void> {
  const { schedules } = fleet.deps;
  await schedules.store.save(schedule('1'));
  await schedules.activate((await schedules.store.get('1')) as Schedule);
  const deadline = Date.now() + 20_000;
  while ((await handledDues(fleet, '1')).length < 3 && Date.now() < deadline) await sleep(100);
  expect((await handledDues(fleet, '1')).length).toBeGreaterThanOrEqual(3);

  const promotedAt = await fail();
  const after = Date.now() + 30_000;
  let later: number[] = [];
  while (later.length < 3 && Date.now() < after) {
    later = (await handledDues(fleet, '1').catch(() => [])).filter((due) => due > promotedAt);
    await sleep(200);
  }
  // It goes on from the promoted replica: occurrences due after the failover are handled.
  expect(later.length).toBeGreaterThanOrEqual(3);

  // Nothing twice: each due time handled by one job, named by one note, and given one run message at most.
  const dues = (await handledDues(fleet, '1')).sort((a, b) => a - b);
  expect(dues.length - new Set(dues).size).toBe(0);
  // None lost silently: every second from the first occurrence to the last was handled by its own job, or counted as
  // skipped (and said so) by the next job handled: one taken late runs as the latest due by then, one after a lost job
  // counts the due times since the last handled (docs/schedules.md).
  const covered: number[] = [];
  for (const due of dues) {
    const runsAs = (await schedules.store.occurrence('1', due))?.runsAs;
    const from = runsAs?.first ?? due;
    const to = runsAs?.due ?? due;
    expect(runsAs?.skipped ?? 0).toBe((to - from) / 1000);
    for (let t = from; t <= to; t += 1000) covered.push(t);
  }
  const first = dues[0] as number;
  const last = dues.at(-1) as number;
  expect(covered).toEqual(Array.from({ length: (last - first) / 1000 + 1 }, (_, i) => first + i * 1000));
  expect(dues.some((due) => due < promotedAt && due > first)).toBe(true);
  expect([...notesByDue(fleet).entries()].filter(([, count]) => count > 1)).toEqual([]);
  const runMessages = runMessagesOf(fleet.world.slack, '1');
  const started = fleet.world.slack.messages('C0DEV', THREAD).filter((m) => m.text?.includes(' started: '));
  expect(runMessages.length).toBe(started.length);
  await schedules.deactivate('1');
}

describe('a schedule across a Redis Sentinel failover', () => {
  let setup: SentinelSetup;
  let fleet: Fleet;

  beforeAll(async () => {
    setup = await startSentinelSetup();
    const url = `redis://:${setup.password}@${setup.group}`;
    const options = redisConnectionOptions({ REDIS_URL: url, REDIS_SENTINELS: setup.sentinels, REDIS_SENTINEL_PASSWORD: setup.sentinelPassword });
    fleet = await startFleet('sched-sentinel', url, options, uniqueName('sched-sentinel'));
  }, 40_000);

  afterAll(async () => {
    await fleet?.close();
    await setup?.stop();
  });

  it('fires once per due time before and after the primary dies and the replica is promoted', async () => {
    await acrossFailover(fleet, async () => {
      setup.killPrimary();
      await setup.waitForPrimary(setup.replicaPort, 20_000);
      return Date.now();
    });
  }, 90_000);
});

describe('a schedule across a Redis Cluster failover', () => {
  let setup: ClusterSetup;
  let fleet: Fleet;
  let prefix: string;

  beforeAll(async () => {
    setup = await startRedisCluster({ auth: { password: 'schedule-cluster-password-01' }, replicas: 1 });
    const options = redisConnectionOptions({ REDIS_URL: setup.url, REDIS_CLUSTER_NODES: setup.nodes.slice(1) });
    prefix = `{${uniqueName('sched-cluster').toLowerCase()}}`;
    fleet = await startFleet('sched-cluster', setup.url, options, prefix);
  }, 60_000);

  afterAll(async () => {
    await fleet?.close();
    await setup?.stop();
  });

  it("fires once per due time before and after the master of Wrench's slot dies and its replica is promoted", async () => {
    const redis = fleet.world.redis as Cluster;
    await acrossFailover(fleet, async () => {
      const slot = Number(await redis.cluster('KEYSLOT', prefix));
      const master = Number(redis.slots[slot]?.[0]?.split(':')[1]);
      setup.kill(master);
      await setup.waitForMaster(slot, master, 30_000);
      return Date.now();
    });
  }, 120_000);
});

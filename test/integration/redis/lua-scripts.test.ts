import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSlots, type SlotRequest } from '../../../src/queue/run-slots.js';
import { Cancellation } from '../../../src/sessions/cancellation.js';
import { UpdateRateLimiter } from '../../../src/slack/update-rate-limiter.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

/** The Lua scripts and pub/sub behind admission, Slack's update budget and cancellation, against a real Redis. */
describe('Redis scripts', () => {
  let server: RedisServer;
  let redis: Redis;

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  describe('run slots', () => {
    const run = (jobId: string, overrides: Partial<SlotRequest> = {}): SlotRequest => ({
      jobId,
      thread: `t-${jobId}`,
      repository: 'acme/web',
      user: `U-${jobId}`,
      ...overrides,
    });

    it('admits one run per thread, and the same run again (a renewal)', async () => {
      const slots = new RunSlots(redis, uniqueName('slots'), { global: 10, perRepository: 10, perUser: 10 });
      expect(await slots.acquire(run('a', { thread: 'T1' }))).toBe('ok');
      expect(await slots.acquire(run('b', { thread: 'T1' }))).toBe('thread');
      expect(await slots.acquire(run('a', { thread: 'T1' }))).toBe('ok');
      await slots.release(run('a', { thread: 'T1' }));
      expect(await slots.acquire(run('b', { thread: 'T1' }))).toBe('ok');
    });

    it('says which limit is full: global, then repository, then user', async () => {
      const prefix = uniqueName('slots');
      const global = new RunSlots(redis, prefix, { global: 1, perRepository: 5, perUser: 5 });
      expect(await global.acquire(run('a'))).toBe('ok');
      expect(await global.acquire(run('b', { repository: 'acme/api' }))).toBe('global');

      const perRepo = new RunSlots(redis, uniqueName('slots'), { global: 5, perRepository: 1, perUser: 5 });
      expect(await perRepo.acquire(run('a'))).toBe('ok');
      expect(await perRepo.acquire(run('b'))).toBe('repository');
      expect(await perRepo.acquire(run('c', { repository: 'acme/api' }))).toBe('ok');

      const perUser = new RunSlots(redis, uniqueName('slots'), { global: 5, perRepository: 5, perUser: 1 });
      expect(await perUser.acquire(run('a', { user: 'U1' }))).toBe('ok');
      expect(await perUser.acquire(run('b', { user: 'U1', repository: 'acme/api' }))).toBe('user');
    });

    it('frees the slots of a worker that stopped renewing them once the lease has passed', async () => {
      let clock = 1_000_000;
      const slots = new RunSlots(redis, uniqueName('slots'), { global: 1, perRepository: 1, perUser: 1 }, 60_000, () => clock);
      expect(await slots.acquire(run('crashed'))).toBe('ok');
      clock += 59_000;
      expect(await slots.acquire(run('next'))).toBe('global');
      clock += 2_000;
      expect(await slots.acquire(run('next'))).toBe('ok');
    });

    it('a refused request takes nothing', async () => {
      const prefix = uniqueName('slots');
      const slots = new RunSlots(redis, prefix, { global: 5, perRepository: 1, perUser: 5 });
      expect(await slots.acquire(run('a'))).toBe('ok');
      expect(await slots.acquire(run('b'))).toBe('repository');
      expect(await redis.zrange(`${prefix}:slots:global`, '0', '-1')).toEqual(['a']);
      expect(await redis.exists(`${prefix}:slots:thread:t-b`)).toBe(0);
    });
  });

  describe('Slack update budget', () => {
    it('grants the budget per minute and per workspace, then says how long to wait', async () => {
      let clock = 5_000_000;
      const limiter = new UpdateRateLimiter(redis, uniqueName('updates'), 2, () => clock);
      expect(await limiter.tryTake('T1')).toBe(0);
      clock += 10_000;
      expect(await limiter.tryTake('T1')).toBe(0);
      clock += 5_000;
      expect(await limiter.tryTake('T1')).toBe(45_000); // the oldest edit leaves the window 60 s after it was made
      expect(await limiter.tryTake('T2')).toBe(0); // another workspace has its own budget
      clock += 45_000;
      expect(await limiter.tryTake('T1')).toBe(0);
    });

    it('is shared by every process (every connection) of the same prefix', async () => {
      const prefix = uniqueName('updates');
      const other = new Redis(server.url);
      try {
        const clock = () => 7_000_000;
        expect(await new UpdateRateLimiter(redis, prefix, 1, clock).tryTake('T1')).toBe(0);
        expect(await new UpdateRateLimiter(other, prefix, 1, clock).tryTake('T1')).toBe(60_000);
      } finally {
        other.disconnect();
      }
    });
  });

  describe('cancellation', () => {
    it('keeps the request for a run that has not started and tells running workers at once', async () => {
      const prefix = uniqueName('cancel');
      const worker = new Cancellation(redis, prefix);
      const heard: string[] = [];
      let heardOne!: () => void;
      const received = new Promise<void>((resolve) => (heardOne = resolve));
      const unsubscribe = await worker.subscribe((jobId) => {
        heard.push(jobId);
        heardOne();
      });
      const other = new Redis(server.url);
      try {
        await new Cancellation(other, prefix).request('job-1');
        await received;
        expect(heard).toEqual(['job-1']);
        expect(await worker.isRequested('job-1')).toBe(true);
        expect(await worker.isRequested('job-2')).toBe(false);
      } finally {
        await unsubscribe();
        other.disconnect();
      }
    });
  });
});

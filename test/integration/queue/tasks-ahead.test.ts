import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueues, type Queues, tasksAhead } from '../../../src/queue/queues.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

describe('tasksAhead: the queue position a new run is told', () => {
  let server: RedisServer;
  let redis: Redis;
  let queues: Queues;

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    queues = createQueues(redis, uniqueName('ahead'));
  });
  afterAll(async () => {
    await queues?.close();
    redis?.disconnect();
    await server?.stop();
  });

  it('counts waiting runs and runs delayed for a slot, not runs paused on a question to their requester', async () => {
    const data = (extra: Record<string, unknown> = {}) => ({ kind: 'task', instruction: 'x', ...extra }) as never;
    await queues.tasks.add('task', data(), { jobId: 'waiting-1' });
    await queues.tasks.add('task', data(), { jobId: 'slot-wait', delay: 60_000 });
    await queues.tasks.add('task', data({ resume: { pauseId: 'p1' } }), { jobId: 'paused-resume', delay: 3_600_000 });
    await queues.tasks.add('task', data({ resume: { pauseId: 'p2' } }), { jobId: 'paused-resume-2', delay: 3_600_000 });
    await queues.tasks.add('task', data({ remind: { pauseId: 'p1' } }), { jobId: 'paused-reminder', delay: 1_800_000 });
    expect(await tasksAhead(queues)).toBe(2);
  });
});

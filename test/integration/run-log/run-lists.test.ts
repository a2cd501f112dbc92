import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { RunLogStore } from '../../../src/run-log/run-log-store.js';
import type { RunSummary } from '../../../src/run-log/run-log-types.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const summary = (i: number, over: Partial<RunSummary> = {}): RunSummary => ({
  id: `run-${i}`,
  repository: i % 2 ? 'acme/api' : 'acme/web',
  instruction: `task ${i}`,
  category: 'feature',
  requester: 'U0ALICE',
  channel: 'C0DEV',
  threadTs: `17000.${i}`,
  status: 'done',
  outcome: i % 3 === 0 ? 'failed' : 'pr_opened',
  startedAt: Date.now() - (100 - i) * 60_000,
  phases: [],
  bytes: 0,
  truncated: false,
  ...over,
});

describe('a person’s runs for App Home, on a real Redis', () => {
  let server: RedisServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
  });

  it('pages past the newest 15 and filters by repository, outcome or both, with exact counts', async () => {
    const store = new RunLogStore(redis, uniqueName('lists'), { retentionDays: 30 });
    const runs = Array.from({ length: 40 }, (_, i) => summary(i));
    for (const run of runs) await store.saveSummary(run);
    await store.saveSummary(summary(99, { requester: 'U0BOB' }));
    const newestFirst = [...runs].reverse();

    const first = await store.listFor('U0ALICE', { offset: 0, limit: 15 });
    expect(first.total).toBe(40);
    expect(first.runs.map((r) => r.id)).toEqual(newestFirst.slice(0, 15).map((r) => r.id));
    const third = await store.listFor('U0ALICE', { offset: 30, limit: 15 });
    expect(third.runs.map((r) => r.id)).toEqual(newestFirst.slice(30).map((r) => r.id));

    const api = await store.listFor('U0ALICE', { repository: 'acme/api', offset: 0, limit: 15 });
    expect(api.total).toBe(20);
    expect(api.runs.every((r) => r.repository === 'acme/api')).toBe(true);
    const failed = await store.listFor('U0ALICE', { outcome: 'failed', offset: 0, limit: 50 });
    expect(failed.runs.map((r) => r.id)).toEqual(newestFirst.filter((r) => r.outcome === 'failed').map((r) => r.id));
    const both = await store.listFor('U0ALICE', { repository: 'acme/api', outcome: 'failed', offset: 0, limit: 50 });
    expect(both.runs.map((r) => r.id)).toEqual(newestFirst.filter((r) => r.outcome === 'failed' && r.repository === 'acme/api').map((r) => r.id));
    expect(both.total).toBe(7);
    // The intersection is not left behind.
    expect(await redis.keys('*filtered*')).toEqual([]);
    expect(await store.repositoriesOf('U0ALICE')).toEqual(['acme/api', 'acme/web']);
  });

  it('lists the runs going on now until they end, and a running run is under no outcome yet', async () => {
    const store = new RunLogStore(redis, uniqueName('lists'), { retentionDays: 30 });
    await store.saveSummary(summary(1, { status: 'running', outcome: undefined }));
    await store.saveSummary(summary(2, { status: 'queued', outcome: undefined }));
    await store.saveSummary(summary(4));
    expect((await store.activeFor('U0ALICE')).map((r) => r.id)).toEqual(['run-2', 'run-1']);
    expect((await store.listFor('U0ALICE', { outcome: 'pr_opened', offset: 0, limit: 15 })).runs.map((r) => r.id)).toEqual(['run-4']);

    await store.saveSummary(summary(1, { status: 'cancelled', outcome: 'cancelled' }));
    expect((await store.activeFor('U0ALICE')).map((r) => r.id)).toEqual(['run-2']);
    expect((await store.listFor('U0ALICE', { outcome: 'cancelled', offset: 0, limit: 15 })).runs.map((r) => r.id)).toEqual(['run-1']);
  });
});

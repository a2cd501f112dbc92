import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { RunLogStore } from '../../../src/run-log/run-log-store.js';
import type { RunSummary } from '../../../src/run-log/run-log-types.js';
import { appHomeView } from '../../../src/slack/app-home-view.js';

const NO_RUNS = { running: [], list: { runs: [], total: 0 }, state: { page: 0 }, repositories: [] };
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const DAY_MS = 24 * 3600 * 1000;
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

const summary = (i: number, now: number): RunSummary => ({
  id: `run-${i}`,
  repository: 'acme/web',
  instruction: 'fix it',
  category: 'bug-fixing',
  requester: `U0P${i % 37}`,
  channel: `C0CH${i % 23}`,
  status: 'done',
  outcome: i % 9 === 0 ? 'failed' : 'pr_opened',
  // Spread over the last 6 days; costs with fractions of a cent that a float sum would drift on.
  startedAt: now - (i % 6) * DAY_MS,
  costUsd: 0.1 + (i % 100) * 0.0123457,
  phases: [],
  bytes: 0,
  truncated: false,
});

describe('run totals', () => {
  it('are exact at 10,000 finished runs, per channel and per person, and a run counted twice counts once', async () => {
    const store = new RunLogStore(redis, uniqueName('totals'), { retentionDays: 30 });
    const now = Date.now();
    const runs = Array.from({ length: 10_000 }, (_, i) => summary(i, now));
    for (let i = 0; i < runs.length; i += 500) await Promise.all(runs.slice(i, i + 500).map((run) => store.countFinished(run)));
    await store.countFinished(runs[0]!);

    const micros = (run: RunSummary) => Math.round(run.costUsd! * 1e6);
    const totals = await store.totals(now);
    expect(totals.runs).toBe(10_000);
    expect(totals.failed).toBe(runs.filter((r) => r.outcome === 'failed').length);
    expect(totals.costMicros).toBe(runs.reduce((sum, r) => sum + micros(r), 0));
    expect(totals.byChannel.size).toBe(23);
    expect(totals.byPerson.size).toBe(37);
    const dev = runs.filter((r) => r.channel === 'C0CH5');
    expect(totals.byChannel.get('C0CH5')).toEqual({
      runs: dev.length,
      failed: dev.filter((r) => r.outcome === 'failed').length,
      costMicros: dev.reduce((sum, r) => sum + micros(r), 0),
    });
    const alice = runs.filter((r) => r.requester === 'U0P7');
    expect(totals.byPerson.get('U0P7')?.costMicros).toBe(alice.reduce((sum, r) => sum + micros(r), 0));
    // The week before holds none of them.
    expect((await store.totals(now - 7 * DAY_MS)).runs).toBe(0);

    const home = JSON.stringify(
      appHomeView({ ...NO_RUNS, week: { current: totals, previous: await store.totals(now - 7 * DAY_MS) }, runPageUrl: () => undefined }).blocks,
    );
    expect(home).toContain(`*10,000* runs · *$${(totals.costMicros / 1e6).toFixed(2)}* model spend`);
    expect(home).toContain('…and 8 more channels');
    expect(home).toContain('…and 22 more people');
  });
});

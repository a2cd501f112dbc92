import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollFor } from '../fakes/shared/wait-for.js';
import { freePort } from '../helpers/free-port.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startWrench, type WrenchProcess } from '../helpers/wrench-process.js';
import { createE2eWorld, type E2eWorld } from './e2e-world.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/target }
sandbox: { mode: none }
`;

/** Redis stops under a running Wrench and comes back at the same address. */
describe('a Redis outage', () => {
  let world: E2eWorld;
  let restarted: RedisServer | undefined;
  /** A `--role worker` process beside the `all` one: its own HTTP port (src/http/health-server.ts) answers the probes. */
  let worker: WrenchProcess | undefined;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.start();
    worker = await startWrench(
      { ...world.env, PORT: String(await freePort()), WRENCH_DATA_DIR: path.join(world.dir.path, 'worker-data'), WRENCH_HOST_ID: 'outage-worker' },
      ['start', '--role', 'worker'],
    );
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await worker?.stop();
    await world?.stop();
    await restarted?.stop();
  });

  const health = async (route = '/healthz', base = world.wrench!.url) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 5000);
    try {
      const response = await fetch(`${base}${route}`, { signal: controller.signal });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    } finally {
      clearTimeout(timer);
    }
  };

  it('/healthz answers 503 within a second while Redis hangs (connected, not answering), 200 once it answers again; /livez 200 throughout', async () => {
    expect((await health()).status).toBe(200);
    if (!world.redis.signal('SIGSTOP')) return; // an external REDIS_URL cannot be paused
    try {
      const hung = await health();
      expect(hung.status).toBe(503);
      expect(hung.body).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/did not answer within/) });
      // Liveness does not ask Redis: both processes answer it while Redis hangs.
      for (const base of [world.wrench!.url, worker!.url]) expect(await health('/livez', base)).toMatchObject({ status: 200, body: { status: 'ok' } });
    } finally {
      world.redis.signal('SIGCONT');
    }
    await waitForHealth(200);
  });

  it('/healthz answers 503 with the reason while Redis is down, 200 once it is back, on the all and the worker process; /livez 200 on both; the outage is logged once, with the recovery', async () => {
    expect((await health()).status).toBe(200);
    const port = world.redis.port;
    await world.redis.stop();

    const unhealthy = await health();
    expect(unhealthy.status).toBe(503);
    expect(unhealthy.body).toMatchObject({ status: 'unavailable', redis: expect.any(String), reason: expect.stringMatching(/Redis/) });
    // Several checks during the outage, each answered (the fetch above aborts after 5 s otherwise).
    for (let i = 0; i < 3; i += 1) expect((await health()).status).toBe(503);
    // Readiness (/healthz) fails on both processes; liveness (/livez) holds on both, so no orchestrator restarts them.
    expect((await health('/healthz', worker!.url)).status).toBe(503);
    for (const base of [world.wrench!.url, worker!.url]) {
      const live = await health('/livez', base);
      expect(live).toMatchObject({ status: 200, body: { status: 'ok', uptimeSeconds: expect.any(Number), eventLoopMaxDelayMs: expect.any(Number) } });
    }

    // A longer outage: several reconnection attempts of each connection, still one line per connection.
    const attempts = () => world.wrench!.output().match(/"connection":"main"[^\n]*Redis reconnection attempt/g)?.length ?? 0;
    await pollFor(
      () => (attempts() >= 4 ? true : undefined),
      30_000,
      () => `${attempts()} reconnection attempts logged`,
    );
    expect(world.wrench!.output()).not.toMatch(/"level":50/);
    restarted = await startRedisServer({ port });
    await waitForHealth(200);
    await pollFor(
      () => (/Redis connection restored/.test(world.wrench!.output()) ? true : undefined),
      10_000,
      () => 'no recovery log line',
    );
    const log = world.wrench!.output();
    expect(log).not.toMatch(/Unhandled error event/);
    // Once per connection (main, one per worker), not once per reconnection attempt.
    const lost = [...log.matchAll(/"connection":"([^"]+)"[^\n]*Redis connection lost/g)].map((m) => m[1]);
    expect(lost.length).toBeGreaterThanOrEqual(1);
    expect(new Set(lost).size).toBe(lost.length);
    expect(world.wrench!.child.exitCode).toBeNull();
  });

  async function waitForHealth(status: number): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if ((await health()).status === status) return;
      if (Date.now() > deadline) throw new Error(`/healthz never answered ${status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
});

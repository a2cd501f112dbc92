import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsHandler } from '../../../handlers/metrics.js';
import { ModelBudget } from '../../../src/agent/model-budget.js';
import { createMetrics, type Metrics } from '../../../src/metrics/metrics.js';
import { createQueues, type Queues } from '../../../src/queue/queues.js';
import { TASK_QUEUE } from '../../../src/queue/task-job.js';
import { buildKustomization } from '../../helpers/kustomize.js';
import { startPrometheusScraper, type PrometheusServer } from '../../helpers/prometheus-server.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The ScaledObject as `kubectl apply -k` applies it (its threshold put in by the kustomization). */
const scaledObject = buildKustomization(path.join(ROOT, 'deploy/kubernetes'))
  .map(
    ({ object }) =>
      object as unknown as {
        kind: string;
        spec: { minReplicaCount: number; maxReplicaCount: number; triggers: Array<{ metadata: { query: string; threshold: string } }> };
      },
  )
  .find((o) => o.kind === 'ScaledObject');
const trigger = scaledObject?.spec.triggers[0]?.metadata;

/**
 * The ScaledObject's query against what KEDA would read: a real Prometheus scraping two Wrench pods' /metrics
 * (each with its own registry, as every pod has), both reporting the one queue in a real Redis.
 */
describe('deploy/kubernetes/worker-autoscaling.yaml: the query KEDA scales workers on', () => {
  let redis: RedisServer;
  let connection: Redis;
  let queues: Queues;
  let busy: Worker;
  let release: () => void = () => {};
  const servers: Server[] = [];
  const podMetrics: Metrics[] = [];
  let prefix: string;
  let prometheus: PrometheusServer;

  beforeAll(async () => {
    redis = await startRedisServer();
    connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    prefix = uniqueName('keda');
    queues = createQueues(connection, prefix);
    // One task running (a worker holds it), four waiting, two delayed (parked follow-ups hold no worker); three
    // triage runs waiting; a GitHub event waiting (quick, not an agent run).
    const held = new Promise<void>((resolve) => (release = resolve));
    busy = new Worker(TASK_QUEUE, () => held, { connection: connection.duplicate(), prefix, concurrency: 1 });
    await queues.tasks.add('run', { n: 0 } as never);
    await waitUntil(async () => (await queues.tasks.getJobCounts('active')).active === 1);
    for (let n = 1; n <= 4; n++) await queues.tasks.add('run', { n } as never);
    for (let n = 5; n <= 6; n++) await queues.tasks.add('run', { n } as never, { delay: 3_600_000 });
    for (let n = 0; n < 3; n++) await queues.triage.add('triage', { n } as never);
    await queues.github.add('event', {} as never);
    for (let pod = 0; pod < 2; pod++) {
      podMetrics.push(createMetrics());
      const handle = metricsHandler({ WRENCH_METRICS: 'on', WRENCH_METRICS_TOKEN: undefined }, podMetrics[pod]!, queues);
      const server = createServer((req, res) => void handle(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
    }
    prometheus = await startPrometheusScraper({ host: servers.map((s) => `127.0.0.1:${(s.address() as AddressInfo).port}`), path: '/metrics' });
  }, 60_000);

  afterAll(async () => {
    release();
    await prometheus?.stop();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await busy?.close();
    await queues?.close();
    connection?.disconnect();
    await redis?.stop();
  });

  it('counts the jobs that want a worker once, however many pods report them, and asks for ceil(jobs / threshold) workers', async () => {
    expect(trigger).toBeDefined();
    await waitUntil(async () => (await prometheus.query('count(up{job="wrench"} == 1)')) === 2, 30_000);
    // 1 active + 4 waiting tasks + 3 waiting triage runs; not the delayed tasks, not the GitHub event.
    await waitUntil(async () => (await prometheus.query(trigger!.query)) === 8, 30_000);
    // Each pod reports the whole queue: a plain sum over pods would ask for twice the workers.
    expect(await prometheus.query('sum(wrench_queue_depth{queue=~"tasks|triage", state=~"waiting|prioritized|active"})')).toBe(16);
    const desired = Math.ceil(8 / Number(trigger!.threshold));
    expect(desired).toBe(4);
    expect(desired).toBeGreaterThanOrEqual(scaledObject!.spec.minReplicaCount);
    expect(desired).toBeLessThanOrEqual(scaledObject!.spec.maxReplicaCount);
  }, 60_000);

  it("adds no worker for the queue while a model call waits for the fleet's model budget: only the running jobs count, until the wait ends", async () => {
    // The fleet's budget: one request a minute. The first call takes it; the second (on the second pod) waits.
    const budget = new ModelBudget(
      connection.duplicate(),
      prefix,
      { requestsPerMinute: 1, inputTokensPerMinute: 0, outputTokensPerMinute: 0, maxWaitSeconds: 600 },
      { metrics: podMetrics[1] },
    );
    await budget.reserve('claude-test', { inputTokens: 1, outputTokens: 1 });
    const stop = new AbortController();
    const waiting = budget.reserve('claude-test', { inputTokens: 1, outputTokens: 1 }, { signal: stop.signal });
    waiting.catch(() => undefined);
    // 1 active task; the 4 waiting tasks and 3 waiting triage runs would only wait for the budget too.
    await waitUntil(async () => (await prometheus.query(trigger!.query)) === 1, 30_000);
    stop.abort();
    await expect(waiting).rejects.toThrow();
    await waitUntil(async () => (await prometheus.query(trigger!.query)) === 8, 30_000);
  }, 60_000);
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

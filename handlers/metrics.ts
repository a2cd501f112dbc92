import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { EnvOptions } from '../src/config/env-options.js';
import type { Metrics } from '../src/metrics/metrics.js';
import type { Queues } from '../src/queue/queues.js';

const STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed'] as const;

/**
 * GET /metrics in Prometheus text format. Off (404) unless WRENCH_METRICS=on or WRENCH_METRICS_TOKEN is
 * set; with a token every scrape needs `Authorization: Bearer <token>` (401 otherwise).
 */
export function metricsHandler(
  env: Pick<EnvOptions, 'WRENCH_METRICS' | 'WRENCH_METRICS_TOKEN'>,
  metrics: Metrics,
  queues?: Pick<Queues, 'tasks' | 'triage'> & Partial<Pick<Queues, 'github'>>,
) {
  const enabled = env.WRENCH_METRICS === 'on' || !!env.WRENCH_METRICS_TOKEN;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!enabled) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Metrics are off. Set WRENCH_METRICS=on, or WRENCH_METRICS_TOKEN to require a bearer token.\n');
      return;
    }
    if (env.WRENCH_METRICS_TOKEN && !bearerMatches(req.headers.authorization, env.WRENCH_METRICS_TOKEN)) {
      res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="wrench metrics"' });
      res.end('A bearer token is required: Authorization: Bearer <WRENCH_METRICS_TOKEN>.\n');
      return;
    }
    try {
      if (queues) await observeQueues(metrics, queues);
      const body = await metrics.registry.metrics();
      res.writeHead(200, { 'content-type': metrics.registry.contentType });
      res.end(body);
    } catch (error) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`Metrics are unavailable: ${(error as Error).message}\n`);
    }
  };
}

async function observeQueues(metrics: Metrics, queues: Pick<Queues, 'tasks' | 'triage'> & Partial<Pick<Queues, 'github' | 'incidents'>>): Promise<void> {
  await Promise.all(
    [queues.tasks, queues.triage, ...(queues.github ? [queues.github] : []), ...(queues.incidents ? [queues.incidents] : [])].map(async (queue) => {
      const [counts, oldest] = await Promise.all([queue.getJobCounts(...STATES), queue.getJobs(['waiting', 'prioritized'], 0, 0, true)]);
      for (const state of STATES) metrics.queueDepth.set({ queue: queue.name, state }, counts[state] ?? 0);
      const first = oldest[0];
      metrics.queueOldestAge.set({ queue: queue.name }, first ? Math.max(0, (Date.now() - first.timestamp) / 1000) : 0);
    }),
  );
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

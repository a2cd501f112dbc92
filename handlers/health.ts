import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HandlerDeps } from './handler-deps.js';

/** GET /healthz: 200 once Redis answers, with queue depth and worker count; 503 otherwise. */
export async function handleHealth(_req: IncomingMessage, res: ServerResponse, deps: Pick<HandlerDeps, 'redis' | 'queues'>) {
  try {
    await deps.redis.ping();
    const states = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;
    const [counts, triage, workers] = await Promise.all([
      deps.queues.tasks.getJobCounts(...states),
      deps.queues.triage.getJobCounts(...states),
      deps.queues.tasks.getWorkersCount(),
    ]);
    const depth = [...Object.values(counts), ...Object.values(triage)].reduce((sum, n) => sum + n, 0);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'ok', redis: 'ok', queue: { depth, ...counts }, triageQueue: triage, workers }));
  } catch (error) {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'unavailable', redis: 'unreachable', error: (error as Error).message }));
  }
}

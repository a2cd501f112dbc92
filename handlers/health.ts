import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HandlerDeps } from './handler-deps.js';

/** GET /healthz: 200 once Redis answers, with queue depth and worker count; 503 otherwise. */
export async function handleHealth(_req: IncomingMessage, res: ServerResponse, deps: Pick<HandlerDeps, 'redis' | 'queues'>) {
  try {
    await deps.redis.ping();
    const [counts, workers] = await Promise.all([
      deps.queues.tasks.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children'),
      deps.queues.tasks.getWorkersCount(),
    ]);
    const depth = Object.values(counts).reduce((sum, n) => sum + n, 0);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'ok', redis: 'ok', queue: { depth, ...counts }, workers }));
  } catch (error) {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'unavailable', redis: 'unreachable', error: (error as Error).message }));
  }
}

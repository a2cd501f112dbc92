import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HandlerDeps } from './handler-deps.js';

/** /healthz answers within this, whatever Redis does (orchestrators time out their probes). */
export const HEALTH_TIMEOUT_MS = 800;

/**
 * GET /healthz: 200 once Redis answers, with queue depth and worker count; 503 with the reason
 * otherwise: the connection is not ready (down, reconnecting), or Redis did not answer in time.
 */
export async function handleHealth(_req: IncomingMessage, res: ServerResponse, deps: Pick<HandlerDeps, 'redis' | 'queues'>, timeoutMs = HEALTH_TIMEOUT_MS) {
  const unavailable = (redis: string, reason: string) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'unavailable', redis, reason }));
  };
  if (deps.redis.status !== 'ready')
    return unavailable(
      deps.redis.status,
      `The Redis connection is ${deps.redis.status}; Wrench reconnects by itself. Check that Redis is running and REDIS_URL points to it.`,
    );
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms.`)), timeoutMs);
  });
  try {
    const states = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;
    const [, counts, triage, workers] = await Promise.race([
      Promise.all([
        deps.redis.ping(),
        deps.queues.tasks.getJobCounts(...states),
        deps.queues.triage.getJobCounts(...states),
        deps.queues.tasks.getWorkersCount(),
      ]),
      timeout,
    ]);
    const depth = [...Object.values(counts), ...Object.values(triage)].reduce((sum, n) => sum + n, 0);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'ok', redis: 'ok', queue: { depth, ...counts }, triageQueue: triage, workers }));
  } catch (error) {
    unavailable('unreachable', `Redis did not answer: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

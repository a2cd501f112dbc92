import type { IncomingMessage, ServerResponse } from 'node:http';
import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks';
import type { DataLoss } from '../src/redis/redis-epoch.js';
import { dataDirLow } from '../src/workspace/disk-space.js';
import type { HandlerDeps } from './handler-deps.js';

/** /healthz answers within this, whatever Redis does (orchestrators time out their probes). */
export const HEALTH_TIMEOUT_MS = 800;

/**
 * What /healthz reads: Redis, the queues, (when known) a recent loss of Redis's data (src/redis/redis-epoch.ts) and,
 * with the config, the data dir's free space.
 */
export type HealthDeps = Pick<HandlerDeps, 'redis' | 'queues'> & Partial<Pick<HandlerDeps, 'config'>> & { dataLoss?: () => DataLoss | undefined };

/**
 * GET /healthz: 200 once Redis answers, with queue depth and worker count; 503 with the reason
 * otherwise: the connection is not ready (down, reconnecting), or Redis did not answer in time. Redis that answers
 * but lost its data recently is 200 with status `degraded` and why (the work it lost is gone; restarting helps nothing).
 * Both say the data dir's free space (`disk`): `low` under WRENCH_MIN_FREE_MB, new runs then wait for space (still 200:
 * a restart frees none).
 */
export async function handleHealth(_req: IncomingMessage, res: ServerResponse, deps: HealthDeps, timeoutMs = HEALTH_TIMEOUT_MS) {
  const disk = deps.config ? await diskHealth(deps.config.dataDir, deps.config.env.WRENCH_MIN_FREE_MB) : undefined;
  const unavailable = (redis: string, reason: string) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'unavailable', redis, reason, ...(disk ? { disk } : {}) }));
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
    const loss = deps.dataLoss?.();
    const status = loss ? { status: 'degraded', redis: 'lost-data', reason: loss.reason, dataLossAt: loss.detectedAt } : { status: 'ok', redis: 'ok' };
    res.end(JSON.stringify({ ...status, queue: { depth, ...counts }, triageQueue: triage, workers, ...(disk ? { disk } : {}) }));
  } catch (error) {
    unavailable('unreachable', `Redis did not answer: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

/** The data dir's free space for /healthz; what stopped it from being read, when it could not be. */
async function diskHealth(dataDir: string, minFreeMb: number) {
  try {
    const { low, freeMb, totalMb } = await dataDirLow(dataDir, minFreeMb);
    return { status: low ? 'low' : 'ok', freeMb, totalMb, minFreeMb };
  } catch (error) {
    return { status: 'unknown', reason: `The data dir's free space could not be read: ${(error as Error).message}` };
  }
}

/** The event loop's delay since the last /livez (started with the first one): how late timers ran, in ms. */
let loopDelay: ELDHistogram | undefined;

/**
 * GET /livez, for the liveness probe: 200 whenever the process answers, whatever Redis or the disk do (a restart fixes
 * neither, and would stop the running jobs). Answering at all is the proof that the event loop is not stuck: a blocked
 * loop answers nothing and the probe times out. The body says the uptime and the longest event-loop delay since the
 * previous /livez. /healthz (Redis, queues, disk) is for readiness.
 */
export function handleLive(_req: IncomingMessage, res: ServerResponse) {
  const histogram = (loopDelay ??= startLoopDelay());
  const maxDelayMs = Math.round(histogram.max / 1e6);
  histogram.reset();
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: 'ok', uptimeSeconds: Math.round(process.uptime()), eventLoopMaxDelayMs: maxDelayMs }));
}

function startLoopDelay(): ELDHistogram {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  return histogram;
}

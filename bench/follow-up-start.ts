/**
 * bench/follow-up-start: how long a follow-up queued behind the run going on in its thread waits after that run
 * ends, side by side: the old way (the follow-up looks again every 3 s: moveToDelayed(now + 3000)) and the
 * current one (runners/job-waits.ts: parked until the earlier job's completion event). Real Redis, the real
 * worker wrapper; the earlier run lasts a different time in each round so the old poll meets it at every phase.
 *
 *   npx tsx bench/follow-up-start.ts [ROUNDS]
 *
 * Prints p50, p95 and max in milliseconds from the earlier run's end to the follow-up's start.
 */
import { DelayedError, Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { JobWaits } from '../runners/job-waits.js';
import { startQueueWorker } from '../runners/queue-worker.js';
import { createLogger } from '../src/logging/logger.js';
import { startRedisServer } from '../test/helpers/redis-server.js';
import { uniqueName } from '../test/helpers/unique-name.js';

const ROUNDS = Number(process.argv[2] ?? 8);
const POLL_MS = 3000;
const schema = z.object({ role: z.enum(['earlier', 'follow-up']), runMs: z.number(), round: z.number() });
type Data = z.infer<typeof schema>;

async function measure(server: { url: string }, mode: 'poll' | 'event'): Promise<number[]> {
  const redis = new Redis(server.url, { maxRetriesPerRequest: null });
  const prefix = uniqueName(`bench-${mode}`);
  const queue = new Queue<Data>('tasks', { connection: redis, prefix });
  const logger = createLogger({ level: 'silent' });
  const waits = await JobWaits.start({ queue, redis, prefix, logger, fallbackMs: 60_000 });
  const ended = new Map<number, number>();
  const started = new Map<number, { resolve: (ms: number) => void }>();
  const worker = await startQueueWorker<Data, string>({
    queue: 'tasks',
    schema,
    connection: redis,
    prefix,
    logger,
    concurrency: 2,
    process: async (job: Job<Data, string>, data, context) => {
      if (data.role === 'earlier') {
        await new Promise((resolve) => setTimeout(resolve, data.runMs));
        ended.set(data.round, performance.now());
        return 'done';
      }
      const earlierEnd = ended.get(data.round);
      if (earlierEnd === undefined) {
        if (mode === 'event') throw await waits.park(job, context.token, `earlier-${data.round}`, async () => !ended.has(data.round));
        await job.moveToDelayed(Date.now() + POLL_MS, context.token);
        throw new DelayedError();
      }
      started.get(data.round)?.resolve(performance.now() - earlierEnd);
      return 'done';
    },
  });
  const waited: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const runMs = 300 + ((round * 1237) % POLL_MS);
      const done = new Promise<number>((resolve) => started.set(round, { resolve }));
      await queue.add('earlier', { role: 'earlier', runMs, round }, { jobId: `earlier-${round}` });
      await queue.add('follow-up', { role: 'follow-up', runMs: 0, round }, { jobId: `follow-up-${round}` });
      waited.push(await done);
    }
  } finally {
    await worker.close(0);
    await waits.close();
    await queue.close();
    redis.disconnect();
  }
  return waited.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const row = (name: string, t: number[]) =>
  console.log(
    `${name.padEnd(44)} p50 ${pct(t, 50).toFixed(1).padStart(8)}  p95 ${pct(t, 95).toFixed(1).padStart(8)}  max ${t[t.length - 1]!.toFixed(1).padStart(8)}`,
  );

const server = await startRedisServer();
try {
  console.log(`${ROUNDS} rounds: ms from the earlier run's end to the follow-up's start`);
  row('before: the follow-up looks again every 3 s', await measure(server, 'poll'));
  row("now: woken by the earlier job's end event", await measure(server, 'event'));
} finally {
  await server.stop();
}

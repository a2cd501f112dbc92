import { PassThrough } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunnerDeps } from '../../../runners/runner-deps.js';
import { startTaskWorker, type TaskWorker } from '../../../runners/task-worker.js';
import { WrenchError } from '../../../src/errors.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createQueues, type Queues } from '../../../src/queue/queues.js';
import { RunSlots } from '../../../src/queue/run-slots.js';
import type { TaskJob } from '../../../src/queue/task-job.js';
import { renderProgress, type ProgressDetail } from '../../../src/reporting/progress.js';
import type { RunReporter } from '../../../src/reporting/run-result.js';
import { Cancellation } from '../../../src/sessions/cancellation.js';
import { SteeringInbox } from '../../../src/sessions/steering-inbox.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import { stringsFor } from '../../../src/slack/strings/index.js';
import type { ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

/** The run as the pipeline runs it during setup: the `prepare` stage begins, then the install gives up once the signal is aborted, as the sandboxed command does. */
const installing = vi.hoisted(() => ({ started: undefined as undefined | (() => void) }));
vi.mock('../../../runners/run-task.js', () => ({
  runTask: async (_job: unknown, context: { jobId: string; signal: AbortSignal; onStage?: (event: object) => void }) => {
    context.onStage?.({ jobId: context.jobId, kind: 'change', stage: 'prepare', status: 'started', at: Date.now() });
    installing.started?.();
    await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
    throw new WrenchError('verification_cancelled', 'Verification was cancelled before it finished.');
  },
}));

describe('a person stops a run during its setup', () => {
  let server: RedisServer;
  let redis: Redis;
  let queues: Queues;
  let worker: TaskWorker;
  let prefix: string;
  const phases: Array<[string, ProgressDetail | undefined]> = [];
  const failures: string[] = [];
  const logLines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    prefix = uniqueName('stop');
    queues = createQueues(redis, prefix);
    const sessions = new ThreadSessionStore(redis, prefix);
    const reporter: RunReporter = {
      phase: async (phase, detail) => void phases.push([phase, detail]),
      finished: async () => undefined,
      failed: async (text) => void failures.push(text),
    };
    const destination = new PassThrough();
    destination.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    });
    worker = await startTaskWorker(
      {
        connection: redis,
        redis,
        prefix,
        concurrency: 1,
        queue: queues.tasks,
        sessions,
        steering: new SteeringInbox(redis, prefix),
        slots: new RunSlots(redis, prefix, { global: 4, perRepository: 4, perUser: 4 }),
        queueingGraceMs: 1000,
        outbox: { post: async () => undefined } as unknown as ThreadOutbox,
        reporterFor: async () => ({ reporter }),
      },
      { logger: createLogger({ level: 'info', destination }), config: { env: { WRENCH_MIN_FREE_MB: 0 } } } as unknown as RunnerDeps,
    );
  });
  afterAll(async () => {
    await worker?.close(1000);
    await queues?.close();
    redis?.disconnect();
    await server?.stop();
  });

  it('says who stopped it and during which stage, as a stop (not "The run failed"), and logs it at info', async () => {
    const now = new Date().toISOString();
    const job: TaskJob = {
      kind: 'task',
      origin: { type: 'slack', channel: 'C0STOP', threadTs: '1.1', messageTs: '1.1' },
      repo: { owner: 'acme', name: 'shop' },
      instruction: 'fix the rounding',
      category: 'bug-fixing',
      complexity: 'simple',
      elements: {},
      language: 'de',
      requester: { slackUserId: 'U1' },
      requestedAt: now,
    };
    const started = new Promise<void>((resolve) => {
      installing.started = resolve;
    });
    await queues.tasks.add('task', job, { jobId: 'stop-1' });
    await started;
    await new Cancellation(redis, prefix).request('stop-1', '<@U0ALICE> on the run page');
    for (let i = 0; i < 200 && !['completed', 'failed'].includes(await queues.tasks.getJobState('stop-1')); i++) await new Promise((r) => setTimeout(r, 25));

    expect(failures).toEqual([]);
    const stop = phases.find(([phase]) => phase === 'cancelled');
    expect(stop?.[1]).toEqual({ key: 'stoppedDuring', by: '<@U0ALICE> on the run page', stage: 'setup' });
    expect(renderProgress(stop?.[1] as ProgressDetail)).toBe('stopped by <@U0ALICE> on the run page during setup (cloning and installing dependencies)');
    // The thread's language says it too.
    expect(renderProgress(stop?.[1] as ProgressDetail, stringsFor('de').progress)).toMatch(
      /^von <@U0ALICE> on the run page angehalten während der Einrichtung/,
    );
    const line = logLines.find((l) => l.jobId === 'stop-1' && (l.msg === 'job stopped' || l.msg === 'job failed'));
    expect(line?.msg).toBe('job stopped');
    expect(line?.level).toBe(30);
    expect(logLines.some((l) => l.level === 50)).toBe(false);
  });
});

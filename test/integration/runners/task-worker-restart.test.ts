import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunnerDeps } from '../../../runners/runner-deps.js';
import { startTaskWorker, type TaskWorker } from '../../../runners/task-worker.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createQueues, type Queues } from '../../../src/queue/queues.js';
import { RunSlots } from '../../../src/queue/run-slots.js';
import type { TaskJob } from '../../../src/queue/task-job.js';
import type { RunReporter } from '../../../src/reporting/run-result.js';
import { SteeringInbox } from '../../../src/sessions/steering-inbox.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import type { ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

/** What the run found in its thread's record when it began (the run itself is not what this test is about: it ends at once). */
const began = vi.hoisted(() => ({
  sessions: undefined as { get(channel: string, threadTs: string): Promise<unknown> } | undefined,
  agentDone: new Map<string, unknown>(),
}));
vi.mock('../../../runners/run-task.js', () => ({
  runTask: async (job: TaskJob, context: { jobId: string }) => {
    if (job.origin.type === 'slack') {
      const session = (await began.sessions?.get(job.origin.channel, job.origin.threadTs)) as { runs: Array<{ jobId: string; agentDone?: true }> } | null;
      began.agentDone.set(context.jobId, session?.runs.find((r) => r.jobId === context.jobId)?.agentDone);
    }
    return { status: 'answered', repository: 'acme/shop', instruction: job.instruction, filesChanged: [], durationMs: 1 };
  },
}));

const CHANNEL = 'C0RESTART';
const silent = createLogger({ level: 'silent' });

describe('a run picked up again after its worker died', () => {
  let server: RedisServer;
  let redis: Redis;
  let queues: Queues;
  let sessions: ThreadSessionStore;
  let worker: TaskWorker;
  const notes = new Map<string, string[]>();

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    const prefix = uniqueName('restart');
    queues = createQueues(redis, prefix);
    sessions = new ThreadSessionStore(redis, prefix);
    began.sessions = sessions;
    const reporter = (jobId: string): RunReporter => ({
      phase: async () => undefined,
      finished: async () => undefined,
      failed: async () => undefined,
      note: async (text) => void notes.set(jobId, [...(notes.get(jobId) ?? []), text]),
    });
    worker = await startTaskWorker(
      {
        connection: redis,
        redis,
        prefix,
        concurrency: 2,
        queue: queues.tasks,
        sessions,
        steering: new SteeringInbox(redis, prefix),
        slots: new RunSlots(redis, prefix, { global: 4, perRepository: 4, perUser: 4 }),
        queueingGraceMs: 1000,
        outbox: { post: async () => undefined } as unknown as ThreadOutbox,
        reporterFor: async (_job, jobId) => ({ reporter: reporter(jobId) }),
      },
      { logger: silent, config: { env: { WRENCH_MIN_FREE_MB: 0 } } } as unknown as RunnerDeps,
    );
  });
  afterAll(async () => {
    await worker?.close(1000);
    await queues?.close();
    redis?.disconnect();
    await server?.stop();
  });

  /** A run its thread's session still records as running (its worker died), queued again under the same id. */
  async function rerun(threadTs: string, language?: string, agentDone = false): Promise<string[]> {
    const jobId = `restart-${threadTs.replace('.', '-')}`;
    const now = new Date().toISOString();
    await sessions.update(CHANNEL, threadTs, () => ({
      channel: CHANNEL,
      threadTs,
      repo: { owner: 'acme', name: 'shop' },
      requester: 'U1',
      ...(language ? { language } : {}),
      runs: [
        {
          jobId,
          instruction: 'fix the rounding',
          requester: 'U1',
          messageTs: threadTs,
          status: 'running',
          at: now,
          inQueue: true,
          ...(agentDone ? { agentDone } : {}),
        },
      ],
      createdAt: now,
      updatedAt: now,
    }));
    const job: TaskJob = {
      kind: 'task',
      origin: { type: 'slack', channel: CHANNEL, threadTs, messageTs: threadTs },
      repo: { owner: 'acme', name: 'shop' },
      instruction: 'fix the rounding',
      category: 'bug-fixing',
      complexity: 'simple',
      elements: {},
      ...(language ? { language } : {}),
      requester: { slackUserId: 'U1' },
      requestedAt: now,
    };
    await queues.tasks.add('task', job, { jobId });
    for (let i = 0; i < 200 && (await queues.tasks.getJobState(jobId)) !== 'completed'; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await queues.tasks.getJobState(jobId)).toBe('completed');
    return notes.get(jobId) ?? [];
  }

  it("says in the thread's language that it starts again from the beginning", async () => {
    expect(await rerun('1700000001.000100', 'de')).toEqual([
      ':arrows_counterclockwise: Wrench wurde nach einer Unterbrechung neu gestartet: Dieser Lauf beginnt noch einmal von vorn.',
    ]);
    expect(await rerun('1700000002.000100', 'ja')).toEqual([':arrows_counterclockwise: 中断の後に Wrench が再起動しました。この実行は最初からやり直します。']);
    expect(await rerun('1700000003.000100')).toEqual([
      ':arrows_counterclockwise: Wrench restarted after an interruption: this run starts again from the beginning.',
    ]);
  });

  it('a run whose agent had finished before the interruption starts over reading steering again', async () => {
    await rerun('1700000004.000100', undefined, true);
    expect(began.agentDone.has('restart-1700000004-000100')).toBe(true);
    expect(began.agentDone.get('restart-1700000004-000100')).toBeUndefined();
  });
});

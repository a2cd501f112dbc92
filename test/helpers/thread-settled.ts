import type { Redis } from 'ioredis';
import { GITHUB_QUEUE } from '../../src/queue/github-job.js';
import { TASK_QUEUE } from '../../src/queue/task-job.js';
import { redisKeys } from '../../src/redis/redis-keys.js';

export interface TaskQueueState {
  /** Task jobs running, and GitHub events being handled (a merge or a review can still say something). */
  active: number;
  /** Task jobs and GitHub events waiting. */
  waiting: number;
  completed: number;
  failed: number;
  /** Messages still waiting in the thread's outbox. */
  outbox: number;
}

/**
 * What could still reach a thread, read from Redis: the task and GitHub queues' jobs and the thread's outbox. A test that must
 * show nothing more is said waits until none runs or waits and the outbox is empty, instead of sleeping.
 */
export async function taskQueueState(redis: Redis, prefix: string, channel: string, threadTs: string): Promise<TaskQueueState> {
  const key = (name: string, queue = TASK_QUEUE) => `${prefix}:${queue}:${name}`;
  const [active, waiting, githubActive, githubWaiting, completed, failed, outbox] = await Promise.all([
    redis.llen(key('active')),
    redis.llen(key('wait')),
    redis.llen(key('active', GITHUB_QUEUE)),
    redis.llen(key('wait', GITHUB_QUEUE)),
    redis.zcard(key('completed')),
    redis.zcard(key('failed')),
    redis.llen(redisKeys(prefix).outbox.queue(`${channel}:${threadTs}`)),
  ]);
  return { active: active + githubActive, waiting: waiting + githubWaiting, completed, failed, outbox };
}

/** Reads the state every 100 ms until `settled` holds; fails with the last state read after `timeoutMs`. */
export async function waitForTaskQueue(
  redis: Redis,
  prefix: string,
  thread: { channel: string; threadTs: string },
  settled: (state: TaskQueueState) => boolean,
  timeoutMs = 30_000,
): Promise<TaskQueueState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await taskQueueState(redis, prefix, thread.channel, thread.threadTs).catch(() => undefined);
    if (state && settled(state)) return state;
    if (Date.now() >= deadline) throw new Error(`the task queue and the thread's outbox did not settle in ${timeoutMs} ms: ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

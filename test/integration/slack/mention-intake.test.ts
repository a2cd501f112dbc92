import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandlerDeps } from '../../../handlers/handler-deps.js';
import { resumeUnfinishedMentions } from '../../../handlers/resume-mentions.js';
import { createLogger } from '../../../src/logging/logger.js';
import { MentionIntake } from '../../../src/slack/mention-intake.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';

describe('stored mentions that fail every time', () => {
  let server: RedisServer;
  let redis: Redis;

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  it('are dropped after maxAttempts, and the thread is told rather than left silent', async () => {
    const intake = new MentionIntake(redis, 'wrench-test-intake', { claimSeconds: 1, maxAttempts: 0 });
    const body = { type: 'event_callback', event_id: 'Ev0DROP', event: { type: 'app_mention', channel: 'C0DEV', ts: '1700000000.000100', text: 'hi' } };
    await intake.record(JSON.stringify(body));
    const posted: Array<{ thread: unknown; text: string }> = [];
    const deps = {
      stores: { intake },
      logger: createLogger({ level: 'silent' }),
      queues: { tasks: { getJob: async () => undefined } },
      outbox: { post: async (thread: unknown, message: { text: string }) => void posted.push({ thread, text: message.text }) },
    } as unknown as HandlerDeps;
    const client = { auth: { test: async () => ({ user_id: 'U0BOT' }) } } as never;
    const resumer = resumeUnfinishedMentions(client, deps);
    await resumer.stop();
    expect(posted).toEqual([
      { thread: { channel: 'C0DEV', threadTs: '1700000000.000100' }, text: expect.stringMatching(/could not take this request.*mention me again/) },
    ]);
    expect(await redis.hlen('wrench-test-intake:slack-intake')).toBe(0);
  });
});

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

  it("tells a dropped mention's thread in the requester's Slack locale, or in the thread's language", async () => {
    const intake = new MentionIntake(redis, 'wrench-test-intake-de', { claimSeconds: 1, maxAttempts: 0 });
    const mention = (id: string, user: string, ts: string) => ({
      type: 'event_callback',
      event_id: id,
      event: { type: 'app_mention', channel: 'C0DEV', user, ts, text: 'hi' },
    });
    await intake.record(JSON.stringify(mention('Ev0DE', 'U0DIETER', '1700000001.000100')));
    await intake.record(JSON.stringify(mention('Ev0JA', 'U0ALICE', '1700000002.000100')));
    const posted: Array<{ thread: { threadTs: string }; text: string }> = [];
    const locales: Record<string, string> = { U0DIETER: 'de-DE', U0ALICE: 'en-US' };
    const deps = {
      stores: { intake },
      logger: createLogger({ level: 'silent' }),
      queues: { tasks: { getJob: async () => undefined } },
      names: { userLocale: async (user: string) => locales[user] },
      // The second thread already speaks Japanese.
      sessions: { get: async (_channel: string, threadTs: string) => (threadTs === '1700000002.000100' ? { language: 'ja' } : null) },
      outbox: { post: async (thread: { threadTs: string }, message: { text: string }) => void posted.push({ thread, text: message.text }) },
    } as unknown as HandlerDeps;
    const client = { auth: { test: async () => ({ user_id: 'U0BOT' }) } } as never;
    await resumeUnfinishedMentions(client, deps).stop();
    const said = Object.fromEntries(posted.map((p) => [p.thread.threadTs, p.text]));
    expect(said['1700000001.000100']).toMatch(/^:x: Ich konnte diese Anfrage nicht annehmen: Die Bearbeitung ist 0-mal fehlgeschlagen\./);
    expect(said['1700000002.000100']).toMatch(/^:x: このリクエストを受け付けられませんでした/);
  });
});

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlerDeps, type HandlerDeps } from '../../../handlers/handler-deps.js';
import { steerRun } from '../../../handlers/steer-run.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createQueues } from '../../../src/queue/queues.js';
import { createRedactor } from '../../../src/security/redact.js';
import { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import { startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import { fastOutbox } from '../../helpers/fast-outbox.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { uniqueName } from '../../helpers/unique-name.js';

describe('steering a run that ends at that moment (real Redis, Slack fake)', () => {
  let redisServer: RedisServer;
  let redis: Redis;
  let slack: SlackFake;
  let dir: TempDir;
  let deps: HandlerDeps;

  beforeAll(async () => {
    [redisServer, slack, dir] = await Promise.all([startRedisServer(), startSlackFake(), makeTempDir('steer-')]);
    redis = new Redis(redisServer.url, { maxRetriesPerRequest: null });
    const config = loadConfig({ WRENCH_QUEUE_PREFIX: uniqueName('steer'), WRENCH_DATA_DIR: dir.path }, dir.path);
    const redact = createRedactor([]);
    const logger = createLogger({ level: 'silent' });
    const outbox = fastOutbox(redis, config.env.WRENCH_QUEUE_PREFIX, slack.apiUrl, redact, logger);
    outbox.start();
    deps = createHandlerDeps({
      config,
      queues: createQueues(redis, config.env.WRENCH_QUEUE_PREFIX),
      redis,
      sessions: new ThreadSessionStore(redis, config.env.WRENCH_QUEUE_PREFIX),
      redact,
      logger,
      outbox,
      names: { userName: async () => 'Alice', channelName: async () => undefined },
    });
  });

  afterAll(async () => {
    await deps?.outbox.stop();
    await deps?.queues.close();
    deps?.sessions.close();
    redis?.disconnect();
    await Promise.all([redisServer?.stop(), slack?.stop()]);
    await dir?.remove();
  });

  it('a message added after the run stopped being "running" is taken back and the thread is told, not left for nobody', async () => {
    const threadTs = '1700000200.000100';
    const now = new Date().toISOString();
    const running = { jobId: 'run-late', instruction: 'x', requester: 'U0ALICE', status: 'running' as const, at: now };
    // The handler read the run as running; the worker has since finished it.
    await deps.sessions.update('C0DEV', threadTs, () => ({
      channel: 'C0DEV',
      threadTs,
      repo: { owner: 'acme', name: 'app' },
      requester: 'U0ALICE',
      runs: [{ ...running, status: 'done' }],
      createdAt: now,
      updatedAt: now,
    }));
    const outcome = await steerRun(
      running,
      { channel: 'C0DEV', threadTs, user: 'U0ALICE', text: 'also <!channel> the docs', messageTs: '1700000201.000100' },
      deps,
    );
    expect(outcome).toBe('too-late');
    expect(await deps.stores.steering.drain('run-late')).toEqual([]);
    const told = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs, 10_000);
    expect(String(told.args.text)).toBe(
      ':envelope: This message reached the run after its last step, so it did not read it:\nAlice wrote:\n> also &lt;!channel&gt; the docs\nMention me here with what you still want and I will do it as a follow-up.',
    );
    expect(slack.calls.some((c) => /Passed to the running agent/.test(String(c.args.text)))).toBe(false);
  });
});

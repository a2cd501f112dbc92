import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import pino from 'pino';
import { runPageHandlers } from '../../../handlers/run-page.js';
import { serveRunPages } from './serve-run-pages.js';
import { RunLinks } from '../../../src/run-log/run-links.js';
import { RunLogStore } from '../../../src/run-log/run-log-store.js';
import { RunRecorder } from '../../../src/run-log/run-recorder.js';
import { createRedactor } from '../../../src/security/redact.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const log = pino({ level: 'silent' });

describe('a run page’s event stream', () => {
  let server: RedisServer;
  let redis: Redis;
  let closeWeb: () => void;
  let base: string;
  let store: RunLogStore;
  const links = new RunLinks('stream-test-secret-0123456789', undefined, 3600_000);

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
    store = new RunLogStore(redis, uniqueName('runs'), { retentionDays: 1 });
    const handlers = runPageHandlers({ runLog: store, links, logger: log, pollMs: 20, maxStreamMs: 300 });
    ({ base, close: closeWeb } = await serveRunPages(handlers));
  });
  afterAll(async () => {
    closeWeb();
    redis.disconnect();
    await server.stop();
  });

  const events = async (id: string, headers: Record<string, string> = {}, from?: number) => {
    const path = links.pathFor(id, Math.floor(Date.now() / 1000) + 600).replace('?', '/events?');
    const body = await (await fetch(`${base}${path}${from === undefined ? '' : `&from=${from}`}`, { headers })).text();
    return body
      .split('\n\n')
      .filter((block) => block.includes('event: '))
      .map((block) => ({ id: /^id: (\d+)$/m.exec(block)?.[1], event: /^event: (\w+)$/m.exec(block)![1] }));
  };

  it('resumes after the last entry a reconnecting browser saw, ends a long stream without `end`, and says `end` when the run is over', async () => {
    const recorder = await RunRecorder.start(
      store,
      createRedactor(),
      { id: uniqueName('run'), repository: 'acme/web', instruction: 'x', category: 'feature', requester: 'U0' },
      { maxBytes: 1 << 20 },
      log,
    );
    for (const word of ['one', 'two', 'three']) recorder.note(word);
    await recorder.flush();

    const resumed = await events(recorder.id, { 'last-event-id': '0' });
    expect(resumed.filter((e) => e.event === 'entry').map((e) => e.id)).toEqual(['1', '2']);
    expect(resumed.some((e) => e.event === 'end')).toBe(false);

    recorder.note('four');
    recorder.complete('reported', { summary: 'done' });
    await recorder.flush();
    const last = await events(recorder.id, {}, 3);
    expect(last.filter((e) => e.event === 'entry').map((e) => e.id)).toEqual(['3']);
    expect(last.at(-1)!.event).toBe('end');
  });
});

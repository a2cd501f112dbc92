import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { IntakeJournal, keepMention } from '../../../src/slack/intake-journal.js';
import { MentionIntake } from '../../../src/slack/mention-intake.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const logger = createLogger({ level: 'silent' });
const mention = (id: string) =>
  JSON.stringify({ type: 'event_callback', event_id: id, event: { type: 'app_mention', channel: 'C0DEV', user: 'U0A', ts: '1700000000.000100', text: 'hi' } });

describe('the local intake journal', () => {
  let server: RedisServer;
  let redis: Redis;
  let admin: Redis;
  let dir: TempDir;

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    admin = new Redis(server.url);
    dir = await makeTempDir('wrench-journal-');
  });
  afterAll(async () => {
    await admin?.call('CLIENT', 'UNPAUSE').catch(() => undefined);
    redis?.disconnect();
    admin?.disconnect();
    await server?.stop();
    await dir?.remove();
  });

  it('keeps a mention stored in Redis as stored, and forgets it once it is over', async () => {
    const intake = new MentionIntake(redis, 'journal-a');
    const journal = new IntakeJournal(path.join(dir.path, 'a'));
    await keepMention(mention('Ev0A'), { intake, journal }, logger, 1000);
    expect((await journal.entries()).map((e) => [e.eventId, e.state])).toEqual([['Ev0A', 'stored']]);
    expect(await redis.hexists('journal-a:slack-intake', 'Ev0A')).toBe(1);
    await journal.prune(async () => false);
    expect(await journal.entries()).toHaveLength(1);
    await journal.prune(async (id) => id === 'Ev0A');
    expect(await journal.entries()).toEqual([]);
  });

  it('acknowledges from the journal alone when Redis takes no write in time, and replays it once Redis does', async () => {
    const intake = new MentionIntake(redis, 'journal-b');
    const journal = new IntakeJournal(path.join(dir.path, 'b'));
    await admin.call('CLIENT', 'PAUSE', '5000', 'WRITE');
    const started = Date.now();
    try {
      await keepMention(mention('Ev0B'), { intake, journal }, logger, 300);
      expect(Date.now() - started).toBeLessThan(2000);
      expect((await journal.entries()).map((e) => [e.eventId, e.state])).toEqual([['Ev0B', 'pending']]);
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
    }
    expect(await journal.replay(intake, logger)).toBe(1);
    expect(await redis.hexists('journal-b:slack-intake', 'Ev0B')).toBe(1);
    expect((await journal.entries()).map((e) => e.state)).toEqual(['stored']);
    // Nothing left to replay.
    expect(await journal.replay(intake, logger)).toBe(0);
  });

  it('fails (so Slack is answered 503 and sends it again) only when neither Redis nor the disk kept it', async () => {
    const intake = new MentionIntake(redis, 'journal-c');
    // A file where the journal's directory should be: nothing can be written there.
    const blocked = path.join(dir.path, 'blocked');
    await writeFile(blocked, 'not a directory');
    const journal = new IntakeJournal(blocked);
    await expect(keepMention(mention('Ev0C'), { intake, journal }, logger, 1000)).resolves.toBeUndefined();
    await admin.call('CLIENT', 'PAUSE', '5000', 'WRITE');
    try {
      await expect(keepMention(mention('Ev0D'), { intake, journal }, logger, 300)).rejects.toThrow(/longer than 300 ms/);
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
    }
    // Not a mention: nothing to keep, whatever the stores do.
    await expect(
      keepMention(JSON.stringify({ type: 'event_callback', event_id: 'Ev0E', event: { type: 'message' } }), { intake, journal }, logger, 1),
    ).resolves.toBeUndefined();
  });
});

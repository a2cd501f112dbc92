import { WebClient } from '@slack/web-api';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPageHandlers } from '../../../handlers/run-page.js';
import { serveRunPages } from './serve-run-pages.js';
import { channelMembership } from '../../../src/run-log/channel-members.js';
import { RunLogStore } from '../../../src/run-log/run-log-store.js';
import { RunRecorder } from '../../../src/run-log/run-recorder.js';
import type { SlackSignIn } from '../../../src/run-log/slack-sign-in.js';
import { createRedactor } from '../../../src/security/redact.js';
import { startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const log = pino({ level: 'silent' });

describe('who may read a run page after signing in with Slack', () => {
  let server: RedisServer;
  let redis: Redis;
  let slack: SlackFake;
  let closeWeb: () => void;
  let base: string;
  let store: RunLogStore;
  let signedIn = 'U0ALICE';
  let clock = 0;

  beforeAll(async () => {
    [server, slack] = await Promise.all([startRedisServer(), startSlackFake()]);
    redis = new Redis(server.url);
    store = new RunLogStore(redis, uniqueName('runs'), { retentionDays: 1 });
    slack.addChannel({ id: 'C0TEAM', is_private: true, members: ['U0ALICE', slack.botUserId] });
    // More members than one page of conversations.members holds.
    slack.addChannel({ id: 'C0ALL', members: [...Array.from({ length: 1500 }, (_, i) => `U${String(i).padStart(6, '0')}`), 'U0BOB'] });
    const signIn = { session: () => ({ user: signedIn, team: slack.teamId }), authorizeRedirect: async () => '/sign-in' } as unknown as SlackSignIn;
    const client = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    const handlers = runPageHandlers({ runLog: store, links: undefined, logger: log, signIn, isChannelMember: channelMembership(client, () => clock) });
    ({ base, close: closeWeb } = await serveRunPages(handlers));
  });
  afterAll(async () => {
    closeWeb();
    redis.disconnect();
    await Promise.all([server.stop(), slack.stop()]);
  });

  const run = async (channel?: string) => {
    const recorder = await RunRecorder.start(
      store,
      createRedactor(),
      { id: uniqueName('run'), repository: 'acme/web', instruction: 'rotate the signing key', category: 'feature', requester: 'U0ALICE', channel },
      { maxBytes: 1 << 20 },
      log,
    );
    recorder.note('read src/keys.ts');
    await recorder.flush();
    return recorder.id;
  };
  const open = async (id: string, user: string) => {
    signedIn = user;
    const response = await fetch(`${base}/runs/${id}`);
    return { status: response.status, body: await response.text() };
  };

  it('a member of the conversation the run was asked in reads it; anyone else of the workspace gets 403 and no content', async () => {
    const id = await run('C0TEAM');
    const member = await open(id, 'U0ALICE');
    expect(member.status).toBe(200);
    expect(member.body).toContain('rotate the signing key');
    const other = await open(id, 'U0BOB');
    expect(other.status).toBe(403);
    expect(other.body).toContain('not a member');
    expect(other.body).not.toContain('rotate the signing key');
  });

  it('reads every page of a large conversation, asks Slack once per conversation for five minutes, and a run without one is open to the workspace', async () => {
    const id = await run('C0ALL');
    const before = slack.callsTo('conversations.members').length;
    expect((await open(id, 'U0BOB')).status).toBe(200);
    expect(slack.callsTo('conversations.members').length - before).toBe(2);
    expect((await open(id, 'U0BOB')).status).toBe(200);
    expect((await open(id, 'U0ALICE')).status).toBe(403);
    expect(slack.callsTo('conversations.members').length - before).toBe(2);
    expect((await open(await run(undefined), 'U0BOB')).status).toBe(200);
  });

  it('when Slack cannot say, 503 and no content; once it answers again, the member reads the run', async () => {
    const id = await run('C0TEAM');
    clock += 10 * 60_000;
    slack.failNext('conversations.members', { status: 500 });
    const failed = await open(id, 'U0ALICE');
    expect(failed.status).toBe(503);
    expect(failed.body).not.toContain('rotate the signing key');
    expect((await open(id, 'U0ALICE')).status).toBe(200);
  });
});

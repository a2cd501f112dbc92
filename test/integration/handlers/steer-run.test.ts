import { WebClient } from '@slack/web-api';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelThreadRuns } from '../../../handlers/cancel-run.js';
import { createHandlerDeps, type HandlerDeps } from '../../../handlers/handler-deps.js';
import { steerRun } from '../../../handlers/steer-run.js';
import { handleThreadMessage } from '../../../handlers/thread-message.js';
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

  const sessionIn = async (threadTs: string, language: string, runs: { jobId: string; status: 'running' | 'done'; agentDone?: true }[]) => {
    const now = new Date().toISOString();
    await deps.sessions.update('C0DEV', threadTs, () => ({
      channel: 'C0DEV',
      threadTs,
      repo: { owner: 'acme', name: 'app' },
      requester: 'U0ALICE',
      language,
      runs: runs.map((r) => ({ ...r, instruction: 'x', requester: 'U0ALICE', at: now })),
      createdAt: now,
      updatedAt: now,
    }));
  };

  it('a message after the agent is done (its checks and publishing still going on) is told at once that the run will not read it', async () => {
    const threadTs = '1700000250.000100';
    await sessionIn(threadTs, 'en', [{ jobId: 'run-checking', status: 'running', agentDone: true }]);
    const running = { jobId: 'run-checking', instruction: 'x', requester: 'U0ALICE', status: 'running' as const, at: new Date().toISOString() };
    const outcome = await steerRun(running, { channel: 'C0DEV', threadTs, user: 'U0ALICE', text: 'and the changelog', messageTs: '1700000251.000100' }, deps);
    expect(outcome).toBe('too-late');
    expect(await deps.stores.steering.drain('run-checking')).toEqual([]);
    const told = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs, 10_000);
    expect(String(told.args.text)).toMatch(
      /^:envelope: This message reached the run after its last step, so it did not read it:\nAlice wrote:\n> and the changelog\n/,
    );
    expect(slack.calls.some((c) => c.args.thread_ts === threadTs && /Passed to the running agent/.test(String(c.args.text)))).toBe(false);
  });

  it("the steering receipt, a message from the run page and a message that came too late speak the thread's language", async () => {
    const german = '1700000300.000100';
    await sessionIn(german, 'de', [{ jobId: 'run-de', status: 'running' }]);
    const run = { jobId: 'run-de', instruction: 'x', requester: 'U0ALICE', status: 'running' as const, at: new Date().toISOString() };
    expect(await steerRun(run, { channel: 'C0DEV', threadTs: german, user: 'U0ALICE', text: 'auch die Doku', messageTs: '1700000301.000100' }, deps)).toBe(
      'steered',
    );
    const receipt = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === german, 10_000);
    expect(String(receipt.args.text)).toBe(
      ':incoming_envelope: An den laufenden Agenten weitergegeben: Er liest das vor seinem nächsten Modellaufruf, ohne neu anzufangen. Endet der Lauf vorher, erwähne mich hier, damit daraus eine Folgeaufgabe wird.',
    );

    const japanese = '1700000400.000100';
    await sessionIn(japanese, 'ja', [{ jobId: 'run-ja', status: 'running' }]);
    await steerRun({ ...run, jobId: 'run-ja' }, { channel: 'C0DEV', threadTs: japanese, user: 'U0ALICE', text: 'API は変更しないで' }, deps);
    const fromPage = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === japanese, 10_000);
    expect(String(fromPage.args.text)).toMatch(
      /^:incoming_envelope: <@U0ALICE> が実行ページから実行中のエージェントにメッセージを送りました:\n> API は変更しないで\n実行中のエージェントに渡しました。/,
    );

    const late = '1700000500.000100';
    await sessionIn(late, 'ja', [{ jobId: 'run-ja-late', status: 'done' }]);
    await steerRun(
      { ...run, jobId: 'run-ja-late' },
      { channel: 'C0DEV', threadTs: late, user: 'U0ALICE', text: 'docs も', messageTs: '1700000501.000100' },
      deps,
    );
    const told = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === late, 10_000);
    expect(String(told.args.text)).toBe(
      ':envelope: このメッセージは最後の手順の後に届いたため、実行には読み込まれませんでした:\nAlice さんのメッセージ:\n> docs も\nまだ必要なことを添えてここで私をメンションしてください。フォローアップとして対応します。',
    );
  });

  it('a reply while a run whose question timed out is finishing is a late answer, not steering', async () => {
    const threadTs = '1700000580.000100';
    await sessionIn(threadTs, 'de', [{ jobId: 'run-timed-out', status: 'running' }]);
    await deps.sessions.update('C0DEV', threadTs, (current) =>
      current
        ? {
            ...current,
            timedOutQuestion: {
              pauseId: 'pause-1',
              jobId: 'run-timed-out',
              requester: 'U0ALICE',
              question: 'Welche API-Version?',
              timedOutAt: new Date().toISOString(),
            },
          }
        : null,
    );
    const client = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    const outcome = await handleThreadMessage(
      {
        eventId: 'Ev-late-1',
        botUserId: 'U0BOT',
        event: { channel: 'C0DEV', user: 'U0ALICE', text: 'v2', ts: '1700000581.000100', thread_ts: threadTs },
        client,
      },
      deps,
    );
    expect(outcome).toBe('too_late');
    expect(await deps.stores.steering.drain('run-timed-out')).toEqual([]);
    const note = slack.ephemerals.find((e) => e.thread_ts === threadTs && e.user === 'U0ALICE');
    expect(note?.text).toMatch(/^Meine Frage \(„Welche API-Version\?“\) ist /);
    expect(slack.calls.some((c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs)).toBe(false);
  });

  it("names someone Slack does not name in the thread's language, to the agent and in the thread", async () => {
    const unnamed = { ...deps, names: { userName: async () => undefined, channelName: async () => undefined } };
    const late = '1700000550.000100';
    await sessionIn(late, 'de', [{ jobId: 'run-de-late', status: 'done' }]);
    const run = { jobId: 'run-de-late', instruction: 'x', requester: 'U0ALICE', status: 'running' as const, at: new Date().toISOString() };
    await steerRun(run, { channel: 'C0DEV', threadTs: late, user: 'U0ALICE', text: 'auch die Doku', messageTs: '1700000551.000100' }, unnamed);
    const told = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === late, 10_000);
    expect(String(told.args.text)).toContain('\nEine Person im Thread schrieb:\n> auch die Doku\n');
  });

  it("a cancel with nothing to cancel, or by someone who may not, is told in the thread's language", async () => {
    const client = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    const idle = '1700000600.000100';
    await sessionIn(idle, 'de', [{ jobId: 'run-idle', status: 'done' }]);
    expect(await cancelThreadRuns({ client, channel: 'C0DEV', threadTs: idle, user: 'U0ALICE' }, deps)).toBe('nothing_running');
    const nothing = await slack.waitFor((c) => c.method === 'chat.postEphemeral' && c.args.thread_ts === idle, 10_000);
    expect(nothing.args.text).toBe('In diesem Thread läuft gerade nichts.');
    const busy = '1700000700.000100';
    await sessionIn(busy, 'ja', [{ jobId: 'run-busy', status: 'running' }]);
    // Bob neither asked for the run nor approves.
    const access = deps.config.file.access;
    deps.config.file.access = { ...access, approvers: ['U0CAROL'] };
    try {
      expect(await cancelThreadRuns({ client, channel: 'C0DEV', threadTs: busy, user: 'U0BOB' }, deps)).toBe('not_allowed');
    } finally {
      deps.config.file.access = access;
    }
    const refused = await slack.waitFor((c) => c.method === 'chat.postEphemeral' && c.args.thread_ts === busy, 10_000);
    expect(refused.args.text).toBe('この実行をキャンセルできるのは、依頼した人か承認者だけです。');
  });
});

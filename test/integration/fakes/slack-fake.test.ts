import { App, LogLevel, isValidSlackRequest } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/free-port.js';
import { appMentionEnvelope, blockActionsPayload, deliverEvent, startSlackFake, urlVerification, type SlackFake } from '../../fakes/slack-fake.js';

const TOKEN = 'xoxb-test-token';
const SECRET = 'signing-secret';

describe('slack fake with the real WebClient', () => {
  let fake: SlackFake;
  let client: WebClient;

  beforeAll(async () => {
    fake = await startSlackFake();
    client = new WebClient(TOKEN, {
      slackApiUrl: fake.apiUrl,
      retryConfig: { retries: 2, factor: 1, minTimeout: 10, maxTimeout: 20 },
      logLevel: LogLevel.ERROR,
    });
  });
  afterAll(() => fake.stop());

  it('answers auth.test with the bot identity and records the token', async () => {
    const result = await client.auth.test();
    expect(result).toMatchObject({ ok: true, user_id: 'U0BOT', team_id: 'T0TEAM', bot_id: 'B0BOT' });
    expect(fake.callsTo('auth.test').at(-1)?.token).toBe(TOKEN);
  });

  it('answers a method it does not know as Slack does: ok false, unknown_method', async () => {
    await expect(client.apiCall('chat.postMesage', { channel: 'C1', text: 'typo' })).rejects.toMatchObject({ data: { ok: false, error: 'unknown_method' } });
    expect(fake.callsTo('chat.postMesage').at(-1)?.error).toBe('unknown_method');
  });

  it('posts, threads, updates and reads back messages', async () => {
    const parent = await client.chat.postMessage({
      channel: 'C1',
      text: 'working on it',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }],
    });
    const reply = await client.chat.postMessage({ channel: 'C1', text: 'step 1', thread_ts: parent.ts });
    expect(Number(reply.ts)).toBeGreaterThan(Number(parent.ts));
    expect(fake.callsTo('chat.postMessage')[0]!.args.blocks).toEqual([{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }]);

    await client.chat.update({ channel: 'C1', ts: reply.ts!, text: 'step 1 done' });
    const thread = await client.conversations.replies({ channel: 'C1', ts: parent.ts! });
    expect(thread.messages?.map((m) => m.text)).toEqual(['working on it', 'step 1 done']);
    expect(thread.messages?.[0]).toMatchObject({ reply_count: 1, thread_ts: parent.ts });

    const history = await client.conversations.history({ channel: 'C1' });
    expect(history.messages?.map((m) => m.text)).toEqual(['working on it']);

    await expect(client.chat.update({ channel: 'C1', ts: '1.000001', text: 'x' })).rejects.toMatchObject({
      data: { ok: false, error: 'message_not_found' },
    });
  });

  it('keeps reactions and refuses a duplicate', async () => {
    const seeded = fake.seedMessage('C2', { user: 'U1', text: '@wrench fix it' });
    await client.reactions.add({ channel: 'C2', timestamp: seeded.ts, name: 'eyes' });
    await expect(client.reactions.add({ channel: 'C2', timestamp: seeded.ts, name: 'eyes' })).rejects.toMatchObject({
      data: { error: 'already_reacted' },
    });
    expect(fake.messages('C2')[0]!.reactions).toEqual([{ name: 'eyes', users: ['U0BOT'], count: 1 }]);
    await client.reactions.remove({ channel: 'C2', timestamp: seeded.ts, name: 'eyes' });
    expect(fake.messages('C2')[0]!.reactions).toBeUndefined();
  });

  it('injects Slack errors and honours Retry-After on 429', async () => {
    fake.failNext('chat.postMessage', { error: 'channel_not_found' });
    await expect(client.chat.postMessage({ channel: 'CX', text: 'x' })).rejects.toMatchObject({
      data: { error: 'channel_not_found' },
    });

    fake.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    const started = Date.now();
    const posted = await client.chat.postMessage({ channel: 'C3', text: 'after the limit' });
    expect(posted.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const attempts = fake.callsTo('chat.postMessage').filter((c) => c.args.channel === 'C3');
    expect(attempts.map((c) => c.status)).toEqual([429, 200]);
  });

  it('refuses a message past its limits as Slack does: msg_too_long, invalid_blocks', async () => {
    await expect(client.chat.postMessage({ channel: 'C4', text: 'x'.repeat(40_001) })).rejects.toMatchObject({ data: { error: 'msg_too_long' } });
    const section = (text: string) => ({ type: 'section' as const, text: { type: 'mrkdwn' as const, text } });
    await expect(client.chat.postMessage({ channel: 'C4', text: 'x', blocks: [section('y'.repeat(3001))] })).rejects.toMatchObject({
      data: { error: 'invalid_blocks' },
    });
    const posted = await client.chat.postMessage({ channel: 'C4', text: 'x', blocks: Array.from({ length: 50 }, () => section('y')) });
    await expect(
      client.chat.update({ channel: 'C4', ts: posted.ts!, text: 'x', blocks: Array.from({ length: 51 }, () => section('y')) }),
    ).rejects.toMatchObject({
      data: { error: 'invalid_blocks' },
    });
    expect(fake.messages('C4')).toHaveLength(1);
  });

  it('round-trips filesUploadV2 and records the bytes', async () => {
    const parent = await client.chat.postMessage({ channel: 'C4', text: 'report below' });
    await client.filesUploadV2({
      channel_id: 'C4',
      thread_ts: parent.ts!,
      filename: 'diff.patch',
      title: 'The diff',
      content: '--- a\n+++ b\n',
      initial_comment: 'here is the diff',
    });
    expect(fake.uploads).toHaveLength(1);
    expect(fake.uploads[0]).toMatchObject({
      filename: 'diff.patch',
      title: 'The diff',
      text: '--- a\n+++ b\n',
      channel: 'C4',
      thread_ts: parent.ts,
      initial_comment: 'here is the diff',
    });
    expect(fake.messages('C4', parent.ts).at(-1)).toMatchObject({ text: 'here is the diff', upload: true });
  });

  it('opens and updates views, posts ephemerals and permalinks', async () => {
    const opened = await client.views.open({
      trigger_id: '1.2.3',
      view: { type: 'modal', callback_id: 'ask', title: { type: 'plain_text', text: 'Ask' }, blocks: [] },
    });
    const id = opened.view!.id!;
    await client.views.update({ view_id: id, view: { type: 'modal', callback_id: 'ask2', title: { type: 'plain_text', text: 'Ask' }, blocks: [] } });
    expect(fake.views.get(id)?.callback_id).toBe('ask2');
    const ephemeral = await client.chat.postEphemeral({ channel: 'C1', user: 'U1', text: 'only you' });
    expect(ephemeral.message_ts).toBeTruthy();
    expect(fake.ephemerals.at(-1)).toMatchObject({ user: 'U1', text: 'only you' });
    const link = await client.chat.getPermalink({ channel: 'C1', message_ts: '1700000000.000100' });
    expect(link.permalink).toContain('/archives/C1/p1700000000000100');
  });

  it('refuses calls without a token', async () => {
    const anonymous = new WebClient(undefined, { slackApiUrl: fake.apiUrl, logLevel: LogLevel.ERROR });
    await expect(anonymous.auth.test()).rejects.toMatchObject({ data: { error: 'not_authed' } });
  });
});

describe('slack event delivery', () => {
  it('signs events the way Bolt verifies them', async () => {
    const seen: { valid: boolean; retry?: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const valid = isValidSlackRequest({
          signingSecret: SECRET,
          body,
          headers: {
            'x-slack-signature': String(req.headers['x-slack-signature']),
            'x-slack-request-timestamp': Number(req.headers['x-slack-request-timestamp']),
          },
        });
        seen.push({ valid, retry: req.headers['x-slack-retry-num'] as string | undefined });
        res.end('ok');
      });
    });
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${port}/slack/events`;
    await deliverEvent(url, SECRET, urlVerification('abc'));
    await deliverEvent(url, SECRET, appMentionEnvelope({ channel: 'C1', user: 'U1', text: 'hi' }), { retryNum: 1, retryReason: 'http_timeout' });
    await deliverEvent(url, SECRET, urlVerification('abc'), { badSignature: true });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(seen).toEqual([{ valid: true }, { valid: true, retry: '1' }, { valid: false }]);
  });

  it('drives a real Bolt app: mention in, threaded reply out, button press acknowledged', async () => {
    const fake = await startSlackFake();
    const port = await freePort();
    const app = new App({
      token: TOKEN,
      signingSecret: SECRET,
      port,
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: fake.apiUrl },
    });
    app.event('app_mention', async ({ event, say, client }) => {
      await client.reactions.add({ channel: event.channel, timestamp: event.ts, name: 'eyes' });
      await say({ text: `on it: ${event.text}`, thread_ts: event.ts });
    });
    app.action('approve', async ({ ack, respond }) => {
      await ack();
      await respond({ text: 'approved', replace_original: false });
    });
    await app.start();
    try {
      const url = `http://127.0.0.1:${port}/slack/events`;
      const envelope = appMentionEnvelope({ channel: 'C9', user: 'U1', text: '<@U0BOT> fix the bug' });
      const delivered = await fake.deliverEvent(url, SECRET, envelope);
      expect(delivered.status).toBe(200);
      const reply = await fake.waitFor((c) => c.method === 'chat.postMessage');
      const event = envelope.event as { ts: string };
      expect(reply.args).toMatchObject({ channel: 'C9', thread_ts: event.ts, text: 'on it: <@U0BOT> fix the bug' });
      expect(fake.messages('C9', event.ts).map((m) => m.text)).toEqual(['<@U0BOT> fix the bug', 'on it: <@U0BOT> fix the bug']);
      expect(fake.messages('C9')[0]!.reactions).toEqual([{ name: 'eyes', users: ['U0BOT'], count: 1 }]);

      const press = await fake.deliverInteraction(
        url,
        SECRET,
        blockActionsPayload({ user: 'U1', channel: 'C9', message_ts: reply.args.thread_ts as string, action_id: 'approve', value: 'yes' }),
      );
      expect(press.status).toBe(200);
      const responded = await fake.waitFor((c) => c.method === 'response_url');
      expect(responded.args).toMatchObject({ text: 'approved' });

      const rejected = await fake.deliverEvent(url, SECRET, appMentionEnvelope({ channel: 'C9', user: 'U1', text: 'x' }), { badSignature: true });
      expect(rejected.status).toBe(401);
    } finally {
      await app.stop();
      await fake.stop();
    }
  });
});

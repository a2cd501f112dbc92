import { LogLevel } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_LIMITS, startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';

const TOKEN = 'xoxb-test-token';
const RECIPIENT = { recipient_user_id: 'U1', recipient_team_id: 'T0TEAM' };

describe('slack fake: streamed messages and the assistant status', () => {
  let fake: SlackFake;
  let client: WebClient;

  beforeAll(async () => {
    fake = await startSlackFake();
    client = new WebClient(TOKEN, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
  });
  afterAll(() => fake.stop());

  function thread(channel = 'C1'): string {
    return fake.seedMessage(channel, { user: 'U1', text: '@wrench fix it' }).ts;
  }

  it('streams text through ChatStreamer into one threaded message', async () => {
    const parent = thread();
    const streamer = client.chatStream({ channel: 'C1', thread_ts: parent, ...RECIPIENT, buffer_size: 5 });
    await streamer.append({ markdown_text: '**Fixed** the ' });
    await streamer.append({ markdown_text: 'parser.' });
    await streamer.stop();
    const ts = streamer.ts ?? '';
    expect(fake.stream('C1', ts)).toMatchObject({ state: 'stopped', contentMode: 'chunks', threadTs: parent });
    const [, reply] = fake.messages('C1', parent);
    expect(reply).toMatchObject({ ts, text: '**Fixed** the parser.', blocks: [{ type: 'markdown', text: '**Fixed** the parser.' }] });
    await expect(client.chat.appendStream({ channel: 'C1', ts, markdown_text: 'late' })).rejects.toMatchObject({
      data: { error: 'message_not_in_streaming_state' },
    });
  });

  it('gathers task updates in one plan block where the first task appeared, with the plan title', async () => {
    const parent = thread();
    const { ts } = await client.chat.startStream({
      channel: 'C1',
      thread_ts: parent,
      ...RECIPIENT,
      task_display_mode: 'plan',
      chunks: [
        { type: 'plan_update', title: 'Working on #12' },
        { type: 'task_update', id: 'read', title: 'Reading the thread', status: 'complete' },
        { type: 'task_update', id: 'work', title: 'Working', status: 'in_progress' },
      ],
    });
    await client.chat.appendStream({
      channel: 'C1',
      ts: ts ?? '',
      chunks: [
        { type: 'task_update', id: 'work', title: 'Working', status: 'error', output: 'tests failed' },
        { type: 'markdown_text', text: 'The run failed.' },
      ],
    });
    await client.chat.stopStream({ channel: 'C1', ts: ts ?? '' });
    const message = fake.messages('C1', parent).find((m) => m.ts === ts);
    expect(message?.blocks).toEqual([
      {
        type: 'plan',
        title: 'Working on #12',
        tasks: [
          { type: 'task_card', task_id: 'read', title: 'Reading the thread', status: 'complete' },
          {
            type: 'task_card',
            task_id: 'work',
            title: 'Working',
            status: 'error',
            output: { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'tests failed' }] }] },
          },
        ],
      },
      { type: 'markdown', text: 'The run failed.' },
    ]);
  });

  it('refuses what Slack refuses, with its error codes, and leaves the stream as it was', async () => {
    const parent = thread();
    const refused = (call: Promise<unknown>, error: string) => expect(call).rejects.toMatchObject({ data: { ok: false, error } });
    await refused(client.chat.startStream({ channel: 'C1', thread_ts: parent, markdown_text: 'x' }), 'missing_recipient_user_id');
    await refused(client.chat.startStream({ channel: 'C1', thread_ts: parent, recipient_user_id: 'U1', markdown_text: 'x' }), 'missing_recipient_team_id');
    await refused(
      client.chat.startStream({ channel: 'C1', thread_ts: parent, ...RECIPIENT, task_display_mode: 'grid', markdown_text: 'x' }),
      'invalid_arguments',
    );
    await refused(
      client.chat.startStream({ channel: 'C1', thread_ts: parent, ...RECIPIENT, markdown_text: 'x'.repeat(STREAM_LIMITS.markdownText + 1) }),
      'msg_too_long',
    );
    const { ts = '' } = await client.chat.startStream({ channel: 'C1', thread_ts: parent, ...RECIPIENT, markdown_text: 'started' });
    await refused(client.chat.appendStream({ channel: 'C1', ts } as never), 'markdown_text_or_chunks_required');
    await refused(client.chat.appendStream({ channel: 'C1', ts, chunks: [] }), 'markdown_text_or_chunks_required');
    await refused(
      client.chat.appendStream({ channel: 'C1', ts, markdown_text: 'a', chunks: [{ type: 'markdown_text', text: 'b' }] }),
      'cannot_provide_both_markdown_text_and_chunks',
    );
    await refused(client.chat.appendStream({ channel: 'C1', ts, chunks: [{ type: 'markdown_text', text: 'b' }] }), 'streaming_mode_mismatch');
    await refused(client.chat.appendStream({ channel: 'C1', ts: '1.000001', markdown_text: 'x' }), 'message_not_found');
    await refused(client.chat.appendStream({ channel: 'C1', ts: parent, markdown_text: 'x' }), 'message_not_owned_by_app');
    expect(fake.stream('C1', ts)).toMatchObject({ state: 'streaming', parts: [{ kind: 'text', text: 'started' }] });

    const chunked = await client.chat.startStream({ channel: 'C1', thread_ts: parent, ...RECIPIENT, chunks: [{ type: 'markdown_text', text: 'go' }] });
    const task = { type: 'task_update' as const, id: 't', title: 'Testing', status: 'in_progress' as const };
    const bad = [
      [{ ...task, status: 'done' }],
      [{ ...task, id: '' }],
      [{ ...task, details: 'd'.repeat(STREAM_LIMITS.taskDetails + 1) }],
      [{ ...task, output: 'o'.repeat(STREAM_LIMITS.taskOutput + 1) }],
      [{ ...task, sources: [{ type: 'url', url: 'https://run.example/1' }] }],
      [{ type: 'progress_bar' }],
    ];
    for (const chunks of bad) await refused(client.chat.appendStream({ channel: 'C1', ts: chunked.ts ?? '', chunks: chunks as never }), 'invalid_chunks');
    expect(fake.stream('C1', chunked.ts ?? '')?.parts).toEqual([{ kind: 'text', text: 'go' }]);
  });

  it('answers stopped_by_user once the person stopped the stream, message_not_in_streaming_state once it expired', async () => {
    const parent = thread();
    const first = await client.chat.startStream({ channel: 'C1', thread_ts: parent, ...RECIPIENT, markdown_text: 'a' });
    const second = await client.chat.startStream({ channel: 'C1', thread_ts: parent, ...RECIPIENT, markdown_text: 'b' });
    fake.endStream('C1', first.ts ?? '', 'stopped_by_user');
    fake.endStream('C1', second.ts ?? '', 'expired');
    await expect(client.chat.appendStream({ channel: 'C1', ts: first.ts ?? '', markdown_text: 'x' })).rejects.toMatchObject({
      data: { error: 'stopped_by_user' },
    });
    await expect(client.chat.stopStream({ channel: 'C1', ts: second.ts ?? '' })).rejects.toMatchObject({ data: { error: 'message_not_in_streaming_state' } });
    expect(fake.streamsIn('C1', parent).map((s) => s.state)).toEqual(['stopped_by_user', 'expired']);
  });

  it('shows an assistant status under a thread until it is cleared or the app posts there', async () => {
    const parent = thread();
    await client.assistant.threads.setStatus({ channel_id: 'C1', thread_ts: parent, status: 'is reading the thread…', loading_messages: ['Reading…'] });
    expect(fake.threadStatus('C1', parent)).toMatchObject({ status: 'is reading the thread…', loadingMessages: ['Reading…'] });
    await client.assistant.threads.setStatus({ channel_id: 'C1', thread_ts: parent, status: '' });
    expect(fake.threadStatus('C1', parent)).toBeUndefined();

    await client.assistant.threads.setStatus({ channel_id: 'C1', thread_ts: parent, status: 'is waiting for a worker…' });
    await client.chat.postMessage({ channel: 'C1', thread_ts: parent, text: 'done' });
    expect(fake.threadStatus('C1', parent)).toBeUndefined();

    await expect(client.assistant.threads.setStatus({ channel_id: 'C1', thread_ts: 'soon', status: 'x' })).rejects.toMatchObject({
      data: { error: 'invalid_thread_ts' },
    });
    const eleven = Array.from({ length: 11 }, (_, i) => `step ${i}`);
    await expect(client.assistant.threads.setStatus({ channel_id: 'C1', thread_ts: parent, status: 'x', loading_messages: eleven })).rejects.toMatchObject({
      data: { error: 'invalid_arguments' },
    });
  });
});

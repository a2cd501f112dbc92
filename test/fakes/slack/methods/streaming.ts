import { markdownText, parseChunks, type Chunk } from '../stream-chunks.js';
import { applyChunks, appendText, renderStream, streamKey, streamText, THREAD_STATUS_TIMEOUT_MS, type SlackStream } from '../streams.js';
import { SlackApiError, type SlackArgs } from '../types.js';
import { optionalArray, optionalString, requiredString, type MethodHandler, type SlackState } from './context.js';

const DISPLAY_MODES = ['timeline', 'plan', 'dense'] as const;

/** The content of one start/append/stop call: markdown_text or chunks, never both. */
type StreamContent = { mode: 'markdown_text'; text: string } | { mode: 'chunks'; chunks: Chunk[] } | undefined;

function streamContent(args: SlackArgs): StreamContent {
  const hasText = args.markdown_text !== undefined && args.markdown_text !== '';
  // An empty chunks array counts as none: ChatStreamer's stop() sends `chunks: []` when nothing is buffered.
  const hasChunks = args.chunks !== undefined && !(Array.isArray(args.chunks) && args.chunks.length === 0);
  if (hasText && hasChunks) throw new SlackApiError('cannot_provide_both_markdown_text_and_chunks');
  if (hasText) return { mode: 'markdown_text', text: markdownText(args.markdown_text) };
  if (hasChunks) return { mode: 'chunks', chunks: parseChunks(args.chunks) };
  return undefined;
}

function apply(stream: SlackStream, content: StreamContent): void {
  if (!content) return;
  if (stream.contentMode && stream.contentMode !== content.mode) throw new SlackApiError('streaming_mode_mismatch');
  stream.contentMode = content.mode;
  if (content.mode === 'markdown_text') appendText(stream, content.text);
  else applyChunks(stream, content.chunks);
}

/** Validates everything first, then applies it to a copy: a refused call leaves the stream as it was. */
function applied(stream: SlackStream, content: StreamContent): SlackStream {
  const next = structuredClone(stream);
  apply(next, content);
  return next;
}

function render(state: SlackState, stream: SlackStream): void {
  state.messages.update(stream.channel, stream.ts, { text: streamText(stream), blocks: renderStream(stream) });
}

const startStream: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  const threadTs = requiredString(args, 'thread_ts', 'invalid_arguments');
  const recipientUser = optionalString(args, 'recipient_user_id');
  const recipientTeam = optionalString(args, 'recipient_team_id');
  const isDirectMessage = channel.startsWith('D');
  if (!isDirectMessage && !recipientUser) throw new SlackApiError('missing_recipient_user_id');
  if (!isDirectMessage && !recipientTeam) throw new SlackApiError('missing_recipient_team_id');
  const displayMode = optionalString(args, 'task_display_mode') ?? 'timeline';
  if (!DISPLAY_MODES.includes(displayMode as SlackStream['displayMode'])) throw new SlackApiError('invalid_arguments');
  const draft: SlackStream = {
    channel,
    ts: '',
    threadTs,
    displayMode: displayMode as SlackStream['displayMode'],
    state: 'streaming',
    ...(recipientUser && recipientTeam ? { recipient: { user: recipientUser, team: recipientTeam } } : {}),
    parts: [],
    closingBlocks: [],
  };
  const stream = applied(draft, streamContent(args));
  const { botUserId, botId, appId, teamId } = state.identity;
  const message = state.messages.add(channel, { user: botUserId, bot_id: botId, app_id: appId, team: teamId, text: '', thread_ts: threadTs });
  stream.ts = message.ts;
  state.streams.set(streamKey(channel, message.ts), stream);
  state.threadStatuses.delete(streamKey(channel, threadTs));
  render(state, stream);
  return { channel, ts: message.ts };
};

function openStream(args: SlackArgs, state: SlackState): SlackStream {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  const ts = requiredString(args, 'ts', 'message_not_found');
  const message = state.messages.find(channel, ts);
  if (!message) throw new SlackApiError('message_not_found');
  const stream = state.streams.get(streamKey(channel, ts));
  if (!stream) throw new SlackApiError(message.bot_id === state.identity.botId ? 'message_not_in_streaming_state' : 'message_not_owned_by_app');
  if (stream.state === 'stopped_by_user') throw new SlackApiError('stopped_by_user');
  if (stream.state !== 'streaming') throw new SlackApiError('message_not_in_streaming_state');
  return stream;
}

const appendStream: MethodHandler = (args, state) => {
  const stream = openStream(args, state);
  const content = streamContent(args);
  if (!content) throw new SlackApiError('markdown_text_or_chunks_required');
  const next = applied(stream, content);
  state.streams.set(streamKey(stream.channel, stream.ts), next);
  render(state, next);
  return { channel: stream.channel, ts: stream.ts };
};

const stopStream: MethodHandler = (args, state) => {
  const stream = openStream(args, state);
  const closingBlocks = optionalArray(args, 'blocks') ?? [];
  if (closingBlocks.length > 50) throw new SlackApiError('msg_blocks_too_many');
  const next = applied(stream, streamContent(args));
  next.state = 'stopped';
  next.closingBlocks = closingBlocks;
  const sessionStatus = optionalString(args, 'session_status');
  if (sessionStatus) next.sessionStatus = sessionStatus;
  if (args.metadata !== undefined) next.metadata = args.metadata;
  state.streams.set(streamKey(stream.channel, stream.ts), next);
  render(state, next);
  const message = state.messages.find(stream.channel, stream.ts);
  return { channel: stream.channel, ts: stream.ts, message };
};

const setStatus: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel_id', 'channel_not_found');
  const threadTs = optionalString(args, 'thread_ts');
  if (!threadTs || !/^\d+\.\d+$/.test(threadTs)) throw new SlackApiError('invalid_thread_ts');
  if (typeof args.status !== 'string') throw new SlackApiError('invalid_arguments');
  if (/^slack ?bot$/i.test(optionalString(args, 'username') ?? '')) throw new SlackApiError('reserved_username');
  const loading = args.loading_messages;
  if (loading !== undefined && (!Array.isArray(loading) || loading.length > 10 || !loading.every((m) => typeof m === 'string'))) {
    throw new SlackApiError('invalid_arguments');
  }
  const key = streamKey(channel, threadTs);
  if (args.status === '') state.threadStatuses.delete(key);
  else state.threadStatuses.set(key, { status: args.status, ...(loading ? { loadingMessages: loading as string[] } : {}), setAt: Date.now() });
  return {};
};

/** The status shown under a thread now (Slack drops it after two minutes without a message). */
export function currentThreadStatus(state: SlackState, channel: string, threadTs: string) {
  const status = state.threadStatuses.get(streamKey(channel, threadTs));
  return status && Date.now() - status.setAt < THREAD_STATUS_TIMEOUT_MS ? status : undefined;
}

export const streamingMethods: Record<string, MethodHandler> = {
  'chat.startStream': startStream,
  'chat.appendStream': appendStream,
  'chat.stopStream': stopStream,
  'assistant.threads.setStatus': setStatus,
};

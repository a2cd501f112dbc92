import { nextSlackTs } from '../ts-clock.js';
import { SlackApiError, type SlackArgs, type SlackMessage } from '../types.js';
import { optionalArray, optionalString, requiredString, type MethodHandler, type SlackState } from './context.js';

function botAuthor(state: SlackState): Pick<SlackMessage, 'user' | 'bot_id' | 'app_id' | 'team'> {
  const { botUserId, botId, appId, teamId } = state.identity;
  return { user: botUserId, bot_id: botId, app_id: appId, team: teamId };
}

/**
 * Slack's limits on one message (chat.postMessage, chat.update, chat.postEphemeral): text past 40,000 characters is
 * `msg_too_long`; more than 50 blocks, or a section's text past 3,000 characters, `invalid_blocks`.
 */
export const MESSAGE_LIMITS = { text: 40_000, blocks: 50, sectionText: 3000 } as const;

function content(args: SlackArgs): Pick<SlackMessage, 'text' | 'blocks' | 'attachments' | 'metadata'> {
  const blocks = optionalArray(args, 'blocks');
  const attachments = optionalArray(args, 'attachments');
  const text = optionalString(args, 'text') ?? '';
  if (!text && !blocks && !attachments) throw new SlackApiError('no_text');
  if (text.length > MESSAGE_LIMITS.text) throw new SlackApiError('msg_too_long');
  if (blocks && (blocks.length > MESSAGE_LIMITS.blocks || blocks.some(sectionTooLong))) throw new SlackApiError('invalid_blocks');
  return {
    text,
    ...(blocks ? { blocks } : {}),
    ...(attachments ? { attachments } : {}),
    ...(args.metadata ? { metadata: args.metadata } : {}),
  };
}

function sectionTooLong(block: unknown): boolean {
  const section = block as { type?: unknown; text?: { text?: unknown } } | null;
  return section?.type === 'section' && typeof section.text?.text === 'string' && section.text.text.length > MESSAGE_LIMITS.sectionText;
}

function isTruthy(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 1;
}

const postMessage: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  const threadTs = optionalString(args, 'thread_ts');
  const broadcast = threadTs && isTruthy(args.reply_broadcast);
  const message = state.messages.add(channel, {
    ...botAuthor(state),
    ...content(args),
    ...(threadTs ? { thread_ts: threadTs } : {}),
    ...(broadcast ? { subtype: 'thread_broadcast' } : {}),
  });
  if (threadTs) state.threadStatuses.delete(`${channel}/${threadTs}`);
  const { channel: _omit, ...shown } = message;
  return { channel, ts: message.ts, message: shown };
};

const update: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  const ts = requiredString(args, 'ts', 'message_not_found');
  if (!state.messages.find(channel, ts)) throw new SlackApiError('message_not_found');
  const changes = content(args);
  const updated = state.messages.update(channel, ts, {
    ...changes,
    edited: { user: state.identity.botUserId, ts: nextSlackTs() },
  });
  return { channel, ts, text: updated?.text ?? '', message: updated };
};

const deleteMessage: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  const ts = requiredString(args, 'ts', 'message_not_found');
  if (!state.messages.remove(channel, ts)) throw new SlackApiError('message_not_found');
  return { channel, ts };
};

const postEphemeral: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  const user = requiredString(args, 'user', 'user_not_in_channel');
  const body = content(args);
  const messageTs = nextSlackTs();
  state.ephemerals.push({
    channel,
    user,
    text: body.text,
    ...(body.blocks ? { blocks: body.blocks } : {}),
    ...(optionalString(args, 'thread_ts') ? { thread_ts: optionalString(args, 'thread_ts') } : {}),
    message_ts: messageTs,
  });
  return { message_ts: messageTs };
};

const getPermalink: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  const ts = requiredString(args, 'message_ts', 'message_not_found');
  const message = state.messages.find(channel, ts);
  const base = `${state.baseUrl}/archives/${channel}/p${ts.replace('.', '')}`;
  const threadTs = message?.thread_ts && message.thread_ts !== ts ? message.thread_ts : undefined;
  const permalink = threadTs ? `${base}?thread_ts=${threadTs}&cid=${channel}` : base;
  return { channel, permalink };
};

export const chatMethods: Record<string, MethodHandler> = {
  'chat.postMessage': postMessage,
  'chat.update': update,
  'chat.delete': deleteMessage,
  'chat.postEphemeral': postEphemeral,
  'chat.getPermalink': getPermalink,
};

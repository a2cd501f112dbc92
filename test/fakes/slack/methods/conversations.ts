import { compareTs } from '../ts-clock.js';
import { SlackApiError, type SlackArgs, type SlackMessage } from '../types.js';
import { optionalString, requiredString, type MethodHandler } from './context.js';

function inWindow(args: SlackArgs): (message: SlackMessage) => boolean {
  const oldest = optionalString(args, 'oldest');
  const latest = optionalString(args, 'latest');
  const inclusive = args.inclusive === true || args.inclusive === 'true' || args.inclusive === '1';
  return (message) => {
    if (oldest && (inclusive ? compareTs(message.ts, oldest) < 0 : compareTs(message.ts, oldest) <= 0)) return false;
    if (latest && (inclusive ? compareTs(message.ts, latest) > 0 : compareTs(message.ts, latest) >= 0)) return false;
    return true;
  };
}

function page(list: SlackMessage[], args: SlackArgs, defaultLimit: number): Record<string, unknown> {
  const limit = Number(args.limit) > 0 ? Number(args.limit) : defaultLimit;
  const offset = Number(Buffer.from(optionalString(args, 'cursor') ?? '', 'base64').toString() || 0);
  const messages = list.slice(offset, offset + limit);
  const hasMore = offset + limit < list.length;
  const nextCursor = hasMore ? Buffer.from(String(offset + limit)).toString('base64') : '';
  return { messages, has_more: hasMore, response_metadata: { next_cursor: nextCursor } };
}

const replies: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  const ts = requiredString(args, 'ts', 'thread_not_found');
  const target = state.messages.find(channel, ts);
  // A reply's ts answers with its whole thread, parent first, as Slack does.
  if (target?.thread_ts && target.thread_ts !== ts) return page(state.messages.thread(channel, target.thread_ts), args, 1000);
  const thread = state.messages.thread(channel, ts);
  const [first, ...rest] = thread;
  if (!first) throw new SlackApiError('thread_not_found');
  const keep = inWindow(args);
  const list = first.ts === ts ? [first, ...rest.filter(keep)] : thread.filter(keep);
  return page(list, args, 1000);
};

const history: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  const list = state.messages.history(channel).filter(inWindow(args)).reverse();
  return { ...page(list, args, 100), pin_count: 0 };
};

const info: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  return { channel: state.directory.channel(channel) };
};

const join: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  return { channel: state.directory.channel(channel) };
};

/** Member ids, up to `limit` (Slack: default 100, at most 1000) per page, with a cursor for the next. */
const members: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  const all = state.directory.members(channel);
  const limit = Math.min(Number(args.limit) > 0 ? Number(args.limit) : 100, 1000);
  const offset = Number(Buffer.from(optionalString(args, 'cursor') ?? '', 'base64').toString() || 0);
  const next = offset + limit < all.length ? Buffer.from(String(offset + limit)).toString('base64') : '';
  return { members: all.slice(offset, offset + limit), response_metadata: { next_cursor: next } };
};

export const conversationMethods: Record<string, MethodHandler> = {
  'conversations.members': members,
  'conversations.replies': replies,
  'conversations.history': history,
  'conversations.info': info,
  'conversations.join': join,
};

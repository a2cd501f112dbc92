import { SlackApiError } from '../types.js';
import { requiredString, type MethodHandler } from './context.js';

const add: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  const ts = requiredString(args, 'timestamp', 'no_item_specified');
  const name = requiredString(args, 'name', 'invalid_name');
  const outcome = state.messages.addReaction(channel, ts, name, state.identity.botUserId);
  if (outcome !== 'ok') throw new SlackApiError(outcome);
  return {};
};

const remove: MethodHandler = (args, state) => {
  const channel = requiredString(args, 'channel', 'channel_not_found');
  const ts = requiredString(args, 'timestamp', 'no_item_specified');
  const name = requiredString(args, 'name', 'invalid_name');
  const outcome = state.messages.removeReaction(channel, ts, name, state.identity.botUserId);
  if (outcome !== 'ok') throw new SlackApiError(outcome);
  return {};
};

export const reactionMethods: Record<string, MethodHandler> = {
  'reactions.add': add,
  'reactions.remove': remove,
};

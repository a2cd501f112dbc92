import type { WebClient } from '@slack/web-api';
import { PERSON_MESSAGE_SUBTYPES } from '../src/slack/message-text.js';
import { handleAppMention, type MentionOutcome } from './app-mention.js';
import type { HandlerDeps } from './handler-deps.js';

export interface DirectMessageInput {
  eventId: string;
  teamId?: string;
  botUserId?: string;
  event: { channel: string; user?: string; text?: string | null; blocks?: unknown; ts: string; thread_ts?: string; bot_id?: string; subtype?: string };
  client: WebClient;
}

/**
 * A direct message to Wrench. Off by default (`access.directMessages`): the person is told where to
 * ask instead. When on, it is handled like a mention; the repository must be named in the message.
 */
export async function handleDirectMessage(input: DirectMessageInput, deps: HandlerDeps): Promise<MentionOutcome | 'direct_messages_off'> {
  const { event } = input;
  if ((event.subtype && !PERSON_MESSAGE_SUBTYPES.has(event.subtype)) || event.bot_id || !event.user || !event.text?.trim()) return 'ignored';
  if (!deps.config.file.access.directMessages) {
    if (!(await deps.stores.claimSlackEvent(input.eventId))) return 'duplicate';
    deps.logger.info({ user: event.user }, 'refused: direct messages are off');
    await deps.posterFor(input.client).reply(event.channel, event.thread_ts ?? event.ts, {
      text: 'I take work in channels linked to a repository, not in direct messages. Mention me there, for example `@wrench fix the failing test in src/cart.test.ts`.',
    });
    return 'direct_messages_off';
  }
  return handleAppMention(input, deps);
}

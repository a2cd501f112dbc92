import { randomBytes } from 'node:crypto';
import { upperId } from '../shared/ids.js';
import { richTextBlocksFor } from './rich-text.js';
import { nextSlackTs } from './ts-clock.js';

export const FAKE_TEAM_ID = 'T0TEAM';
export const FAKE_BOT_USER_ID = 'U0BOT';
export const FAKE_BOT_ID = 'B0BOT';
export const FAKE_APP_ID = 'A0APP';
export const FAKE_VERIFICATION_TOKEN = 'fake-verification-token';

export interface EnvelopeOptions {
  event_id?: string;
  event_time?: number;
  team_id?: string;
  api_app_id?: string;
  botUserId?: string;
}

/** The Events API `event_callback` envelope around one event. */
export function eventCallback(event: Record<string, unknown>, options: EnvelopeOptions = {}): Record<string, unknown> {
  const teamId = options.team_id ?? FAKE_TEAM_ID;
  return {
    token: FAKE_VERIFICATION_TOKEN,
    team_id: teamId,
    api_app_id: options.api_app_id ?? FAKE_APP_ID,
    event,
    type: 'event_callback',
    event_id: options.event_id ?? upperId('Ev', 10),
    event_time: options.event_time ?? Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: teamId,
        user_id: options.botUserId ?? FAKE_BOT_USER_ID,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${randomBytes(24).toString('base64url')}`,
  };
}

export interface MessageEventInput extends EnvelopeOptions {
  channel: string;
  user: string;
  text: string;
  ts?: string;
  thread_ts?: string;
  /** Files shared with the message (Slack file objects, e.g. from `fake.addFile`). */
  files?: Record<string, unknown>[];
}

export function appMentionEnvelope(input: MessageEventInput): Record<string, unknown> {
  const ts = input.ts ?? nextSlackTs();
  const event = {
    type: 'app_mention',
    client_msg_id: randomUuid(),
    text: input.text,
    user: input.user,
    ts,
    blocks: richTextBlocksFor(input.text),
    team: input.team_id ?? FAKE_TEAM_ID,
    ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
    ...(input.files ? { files: input.files, upload: false } : {}),
    channel: input.channel,
    event_ts: ts,
  };
  return eventCallback(event, input);
}

export interface MessageEnvelopeInput extends MessageEventInput {
  subtype?: string;
  bot_id?: string;
  channel_type?: 'channel' | 'group' | 'im' | 'mpim';
  parent_user_id?: string;
}

export function messageEnvelope(input: MessageEnvelopeInput): Record<string, unknown> {
  const ts = input.ts ?? nextSlackTs();
  const event = {
    type: 'message',
    ...(input.subtype ? { subtype: input.subtype } : { client_msg_id: randomUuid() }),
    text: input.text,
    user: input.user,
    ...(input.bot_id ? { bot_id: input.bot_id } : {}),
    ts,
    blocks: richTextBlocksFor(input.text),
    team: input.team_id ?? FAKE_TEAM_ID,
    ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
    ...(input.parent_user_id ? { parent_user_id: input.parent_user_id } : {}),
    channel: input.channel,
    event_ts: ts,
    channel_type: input.channel_type ?? (input.channel.startsWith('D') ? 'im' : 'channel'),
  };
  return eventCallback(event, input);
}

export interface ReactionEnvelopeInput extends EnvelopeOptions {
  user: string;
  reaction: string;
  channel: string;
  /** The ts of the message reacted to. */
  ts: string;
  item_user?: string;
  event_ts?: string;
}

export function reactionAddedEnvelope(input: ReactionEnvelopeInput): Record<string, unknown> {
  const event = {
    type: 'reaction_added',
    user: input.user,
    reaction: input.reaction,
    item_user: input.item_user ?? FAKE_BOT_USER_ID,
    item: { type: 'message', channel: input.channel, ts: input.ts },
    event_ts: input.event_ts ?? nextSlackTs(),
  };
  return eventCallback(event, input);
}

/** The body Slack sends once to check a Request URL. */
export function urlVerification(challenge = randomBytes(16).toString('hex')): Record<string, unknown> {
  return { token: FAKE_VERIFICATION_TOKEN, challenge, type: 'url_verification' };
}

function randomUuid(): string {
  return globalThis.crypto.randomUUID();
}

/** `app_home_opened` as Slack documents it; `view` is absent the first time a person opens the tab. */
export function appHomeOpenedEnvelope(input: EnvelopeOptions & { user: string; tab?: 'home' | 'messages'; channel?: string }): Record<string, unknown> {
  const event = {
    type: 'app_home_opened',
    user: input.user,
    channel: input.channel ?? `D${input.user.slice(1)}`,
    tab: input.tab ?? 'home',
    event_ts: nextSlackTs(),
  };
  return eventCallback(event, input);
}

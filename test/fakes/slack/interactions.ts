import { randomBytes } from 'node:crypto';
import { upperId } from '../shared/ids.js';
import { FAKE_APP_ID, FAKE_BOT_ID, FAKE_TEAM_ID, FAKE_VERIFICATION_TOKEN } from './envelopes.js';
import { nextSlackTs } from './ts-clock.js';

export interface BlockActionInput {
  user: string;
  channel: string;
  /** ts of the message holding the button. */
  message_ts: string;
  thread_ts?: string;
  action_id: string;
  value?: string;
  block_id?: string;
  text?: string;
  message?: Record<string, unknown>;
  response_url?: string;
  trigger_id?: string;
}

export function triggerId(): string {
  return `${Date.now()}.${Math.floor(Math.random() * 1e9)}.${randomBytes(16).toString('hex')}`;
}

/** A `block_actions` payload for a button press on a message. */
export function blockActionsPayload(input: BlockActionInput): Record<string, unknown> {
  return {
    type: 'block_actions',
    user: { id: input.user, username: `user-${input.user.toLowerCase()}`, name: `user-${input.user.toLowerCase()}`, team_id: FAKE_TEAM_ID },
    api_app_id: FAKE_APP_ID,
    token: FAKE_VERIFICATION_TOKEN,
    container: {
      type: 'message',
      message_ts: input.message_ts,
      channel_id: input.channel,
      is_ephemeral: false,
      ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
    },
    trigger_id: input.trigger_id ?? triggerId(),
    team: { id: FAKE_TEAM_ID, domain: 'wrench-test' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: input.channel, name: `channel-${input.channel.toLowerCase()}` },
    message: input.message ?? {
      type: 'message',
      user: 'U0BOT',
      bot_id: FAKE_BOT_ID,
      ts: input.message_ts,
      text: '',
      ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
    },
    state: { values: {} },
    response_url: input.response_url ?? 'https://hooks.slack.invalid/actions/T0TEAM/1/abc',
    actions: [
      {
        action_id: input.action_id,
        block_id: input.block_id ?? upperId('', 5).toLowerCase(),
        text: { type: 'plain_text', text: input.text ?? input.action_id, emoji: true },
        ...(input.value !== undefined ? { value: input.value } : {}),
        type: 'button',
        action_ts: nextSlackTs(),
      },
    ],
  };
}

export interface HomeActionInput {
  user: string;
  action_id: string;
  /** A button's value. */
  value?: string;
  /** A static_select's chosen option. */
  selected?: string;
  /** The published Home view's private_metadata, as Slack sends it back. */
  private_metadata?: string;
}

/** A `block_actions` payload for a button or select on the App Home tab: the container is the view, there is no channel or message. */
export function homeActionPayload(input: HomeActionInput): Record<string, unknown> {
  const viewId = `V${upperId('', 10)}`;
  const action =
    input.selected !== undefined
      ? { type: 'static_select', selected_option: { text: { type: 'plain_text', text: input.selected }, value: input.selected } }
      : { type: 'button', text: { type: 'plain_text', text: input.action_id, emoji: true }, ...(input.value !== undefined ? { value: input.value } : {}) };
  return {
    type: 'block_actions',
    user: { id: input.user, username: `user-${input.user.toLowerCase()}`, name: `user-${input.user.toLowerCase()}`, team_id: FAKE_TEAM_ID },
    api_app_id: FAKE_APP_ID,
    token: FAKE_VERIFICATION_TOKEN,
    container: { type: 'view', view_id: viewId },
    trigger_id: triggerId(),
    team: { id: FAKE_TEAM_ID, domain: 'wrench-test' },
    enterprise: null,
    is_enterprise_install: false,
    view: {
      id: viewId,
      team_id: FAKE_TEAM_ID,
      type: 'home',
      blocks: [],
      private_metadata: input.private_metadata ?? '',
      callback_id: '',
      state: { values: {} },
      hash: `${Date.now()}.abc`,
      app_id: FAKE_APP_ID,
      bot_id: FAKE_BOT_ID,
    },
    actions: [{ action_id: input.action_id, block_id: upperId('', 5).toLowerCase(), ...action, action_ts: nextSlackTs() }],
  };
}

export interface ViewSubmissionInput {
  user: string;
  callback_id: string;
  private_metadata?: string;
  /** block_id -> action_id -> value; a string value becomes a plain_text_input state. */
  values?: Record<string, Record<string, unknown>>;
  view_id?: string;
  external_id?: string;
}

/** A `view_submission` payload for a modal form. */
export function viewSubmissionPayload(input: ViewSubmissionInput): Record<string, unknown> {
  const id = input.view_id ?? upperId('V', 10);
  return {
    type: 'view_submission',
    team: { id: FAKE_TEAM_ID, domain: 'wrench-test' },
    user: { id: input.user, username: `user-${input.user.toLowerCase()}`, name: `user-${input.user.toLowerCase()}`, team_id: FAKE_TEAM_ID },
    api_app_id: FAKE_APP_ID,
    token: FAKE_VERIFICATION_TOKEN,
    trigger_id: triggerId(),
    view: {
      id,
      team_id: FAKE_TEAM_ID,
      type: 'modal',
      blocks: [],
      private_metadata: input.private_metadata ?? '',
      callback_id: input.callback_id,
      state: { values: stateValues(input.values ?? {}) },
      hash: `${Date.now()}.${upperId('', 8)}`,
      title: { type: 'plain_text', text: 'Form', emoji: true },
      clear_on_close: false,
      notify_on_close: false,
      close: null,
      submit: { type: 'plain_text', text: 'Submit', emoji: true },
      previous_view_id: null,
      root_view_id: id,
      app_id: FAKE_APP_ID,
      external_id: input.external_id ?? '',
      app_installed_team_id: FAKE_TEAM_ID,
      bot_id: FAKE_BOT_ID,
    },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}

function stateValues(values: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [blockId, actions] of Object.entries(values)) {
    out[blockId] = {};
    for (const [actionId, value] of Object.entries(actions)) {
      out[blockId][actionId] = typeof value === 'string' ? { type: 'plain_text_input', value } : value;
    }
  }
  return out;
}

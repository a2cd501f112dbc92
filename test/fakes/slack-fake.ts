import { listen } from './shared/http.js';
import { pollFor } from './shared/wait-for.js';
import { deliverEvent, deliverInteraction, type DeliveryOptions, type DeliveryResult } from './slack/deliver.js';
import { Directory, type SeedChannel, type SeedUser } from './slack/directory.js';
import { FAKE_APP_ID, FAKE_BOT_ID, FAKE_BOT_USER_ID, FAKE_TEAM_ID } from './slack/envelopes.js';
import { FailureQueue } from './slack/failures.js';
import { MessageStore, type NewMessage } from './slack/message-store.js';
import type { EphemeralMessage, SlackState } from './slack/methods/context.js';
import { newOpenIdState } from './slack/openid.js';
import { slackRequestHandler } from './slack/server.js';
import { hostFile } from './slack/methods/files.js';
import { currentThreadStatus } from './slack/methods/streaming.js';
import { streamKey, type SlackStream, type ThreadStatus } from './slack/streams.js';
import type { SlackCall, SlackFailure, SlackMessage, SlackUpload, SlackView } from './slack/types.js';

export * from './slack/envelopes.js';
export * from './slack/interactions.js';
export { deliverEvent, deliverInteraction, type DeliveryOptions, type DeliveryResult } from './slack/deliver.js';
export { slackSignature } from './slack/signing.js';
export { nextSlackTs } from './slack/ts-clock.js';
export type { SlackCall, SlackFailure, SlackMessage, SlackUpload, SlackView } from './slack/types.js';
export type { SeedChannel, SeedUser } from './slack/directory.js';
export type { EphemeralMessage } from './slack/methods/context.js';
export type { SlackStream, ThreadStatus } from './slack/streams.js';
export { STREAM_LIMITS } from './slack/stream-chunks.js';

export interface SlackFakeOptions {
  /** Accept only these tokens; by default any non-empty token is accepted. */
  tokens?: string[];
  /** How long each Web API method takes to answer (a round trip to slack.com); `setLatency` changes it. Default 0. */
  latencyMs?: number;
}

export interface SlackFake {
  /** Base URL of the fake (no trailing slash). */
  url: string;
  /** What to give clients as `slackApiUrl` / SLACK_API_URL: `${url}/api/`. */
  apiUrl: string;
  teamId: string;
  botUserId: string;
  botId: string;
  appId: string;
  /** Every Web API call in arrival order, including failed ones; also `upload` and `response_url` posts. */
  calls: SlackCall[];
  callsTo(method: string): SlackCall[];
  /** Resolves with the first recorded call (past or future) matching `predicate`. */
  waitFor(predicate: (call: SlackCall) => boolean, timeoutMs?: number): Promise<SlackCall>;
  /** Makes the next call to `method` fail: `{ status: 429, retryAfter }`, `{ error: 'channel_not_found' }` or `{ status: 500 }`. */
  failNext(method: string, failure: SlackFailure, times?: number): void;
  /**
   * From now on every Web API method (or those in `methods`) answers `ms` after it arrives; a call is recorded when it
   * arrives. `setLatency(0)` makes every method answer at once again.
   */
  setLatency(ms: number, methods?: string[]): void;
  /** Calls to `method` from now on are answered only once `until` settles (recorded when they arrive). */
  hold(method: string, until: Promise<unknown>): void;
  /** Slack is down: every call to `methods` (default: all) fails with `failure` until `recover()` or for `forMs`. */
  startOutage(failure: SlackFailure, options?: { methods?: string[]; forMs?: number }): void;
  /** Ends every outage started with `startOutage`. */
  recover(): void;
  /** Stored messages of a channel (top level and replies), or of one thread when `threadTs` is given. */
  messages(channel: string, threadTs?: string): SlackMessage[];
  seedMessage(channel: string, message: NewMessage): SlackMessage;
  addUser(user: SeedUser): void;
  addChannel(channel: SeedChannel): void;
  ephemerals: EphemeralMessage[];
  uploads: SlackUpload[];
  /**
   * A file someone shared, served at its `url_private` to callers with an accepted token: put the returned
   * Slack file object in an event's `files` (appMentionEnvelope({ files })).
   */
  addFile(file: { name: string; content: string | Buffer; mimetype?: string }): Record<string, unknown>;
  /** A streamed message (chat.startStream) as Slack keeps it: state, display mode, plan title, text runs and tasks. */
  stream(channel: string, ts: string): SlackStream | undefined;
  /** Every stream started in a thread, oldest first. */
  streamsIn(channel: string, threadTs: string): SlackStream[];
  /** Slack ends a stream by itself: the person pressed Stop, or it outlived its time; appends are then refused. */
  endStream(channel: string, ts: string, reason: 'stopped_by_user' | 'expired'): void;
  /** The assistant status shown under a thread now (assistant.threads.setStatus), if any. */
  threadStatus(channel: string, threadTs: string): ThreadStatus | undefined;
  views: Map<string, SlackView>;
  homeViews: Map<string, SlackView>;
  /** Sign in with Slack: the browser is signed in as this person (default team: the fake's); undefined: access_denied. */
  signInAs(user: string | undefined, team?: string): void;
  /** A response_url served by this fake; posts to it are recorded as method `response_url`. */
  responseUrl(): string;
  /** deliverEvent that first stores the event's message (app_mention / message) in the channel history. */
  deliverEvent(targetUrl: string, signingSecret: string, body: Record<string, unknown>, options?: DeliveryOptions): Promise<DeliveryResult>;
  deliverInteraction(targetUrl: string, signingSecret: string, payload: Record<string, unknown>, options?: DeliveryOptions): Promise<DeliveryResult>;
  reset(): void;
  stop(): Promise<void>;
}

export async function startSlackFake(options: SlackFakeOptions = {}): Promise<SlackFake> {
  const identity = { teamId: FAKE_TEAM_ID, teamName: 'Wrench Test', botUserId: FAKE_BOT_USER_ID, botId: FAKE_BOT_ID, appId: FAKE_APP_ID };
  const calls: SlackCall[] = [];
  const failures = new FailureQueue<SlackFailure>();
  const state: SlackState = {
    identity,
    baseUrl: '',
    messages: new MessageStore(),
    directory: new Directory(identity),
    views: new Map(),
    homeViews: new Map(),
    pendingFiles: new Map(),
    hostedFiles: new Map(),
    uploads: [],
    ephemerals: [],
    openid: newOpenIdState(),
    streams: new Map(),
    threadStatuses: new Map(),
  };
  let latencyMs = options.latencyMs ?? 0;
  const slowMethods = new Map<string, number>();
  const latency = (method: string) => slowMethods.get(method) ?? latencyMs;
  const holds = new Map<string, Promise<unknown>>();
  const server = await listen(
    slackRequestHandler({ state, calls, failures, tokens: options.tokens, latencyMs: latency, held: (method) => holds.get(method) }),
    'slack-fake',
  );
  state.baseUrl = server.url;
  let responseCounter = 0;

  const fake: SlackFake = {
    url: server.url,
    apiUrl: `${server.url}/api/`,
    ...identity,
    calls,
    callsTo: (method) => calls.filter((call) => call.method === method),
    waitFor: (predicate, timeoutMs = 5000) =>
      pollFor(
        () => calls.find(predicate),
        timeoutMs,
        () => `no Slack call matched; calls so far: ${calls.map((c) => c.method).join(', ') || '(none)'}`,
      ),
    failNext: (method, failure, times = 1) => failures.push(method, failure, times),
    hold: (method, until) => {
      holds.set(method, until);
      void until.finally(() => holds.get(method) === until && holds.delete(method)).catch(() => undefined);
    },
    setLatency: (ms, methods) => {
      if (methods) for (const method of methods) slowMethods.set(method, ms);
      else {
        latencyMs = ms;
        slowMethods.clear();
      }
    },
    startOutage: (failure, outageOptions) => failures.startOutage(failure, outageOptions),
    recover: () => failures.recover(),
    messages: (channel, threadTs) => (threadTs ? state.messages.thread(channel, threadTs) : state.messages.all(channel)),
    seedMessage: (channel, message) => state.messages.add(channel, message),
    addUser: (user) => state.directory.addUser(user),
    addChannel: (channel) => state.directory.addChannel(channel),
    ephemerals: state.ephemerals,
    uploads: state.uploads,
    addFile: (file) => hostFile(state, file),
    stream: (channel, ts) => structuredClone(state.streams.get(streamKey(channel, ts))),
    streamsIn: (channel, threadTs) =>
      [...state.streams.values()].filter((s) => s.channel === channel && s.threadTs === threadTs).map((s) => structuredClone(s)),
    endStream(channel, ts, reason) {
      const stream = state.streams.get(streamKey(channel, ts));
      if (stream) stream.state = reason;
    },
    threadStatus: (channel, threadTs) => currentThreadStatus(state, channel, threadTs),
    views: state.views,
    homeViews: state.homeViews,
    responseUrl: () => `${server.url}/response/${++responseCounter}`,
    signInAs: (user, team = identity.teamId) => {
      state.openid.signedIn = user ? { user, team } : undefined;
    },
    async deliverEvent(targetUrl, signingSecret, body, deliveryOptions) {
      storeEventMessage(state.messages, body);
      return deliverEvent(targetUrl, signingSecret, body, deliveryOptions);
    },
    deliverInteraction: (targetUrl, signingSecret, payload, deliveryOptions) => {
      const filled =
        payload.type === 'block_actions' && String(payload.response_url ?? '').includes('.invalid')
          ? { ...payload, response_url: fake.responseUrl() }
          : payload;
      return deliverInteraction(targetUrl, signingSecret, filled, deliveryOptions);
    },
    reset() {
      calls.length = 0;
      failures.clear();
    },
    stop: () => server.close(),
  };
  return fake;
}

function storeEventMessage(messages: MessageStore, body: Record<string, unknown>): void {
  const event = body.event as Record<string, unknown> | undefined;
  if (!event || (event.type !== 'app_mention' && event.type !== 'message')) return;
  if (event.subtype && event.subtype !== 'thread_broadcast') return;
  const channel = String(event.channel ?? '');
  const ts = String(event.ts ?? '');
  if (!channel || !ts || messages.find(channel, ts)) return;
  messages.add(channel, {
    ts,
    text: String(event.text ?? ''),
    ...(event.user ? { user: String(event.user) } : {}),
    ...(event.bot_id ? { bot_id: String(event.bot_id) } : {}),
    ...(event.thread_ts ? { thread_ts: String(event.thread_ts) } : {}),
    ...(event.blocks ? { blocks: event.blocks as unknown[] } : {}),
    ...(Array.isArray(event.files) ? { files: event.files as unknown[] } : {}),
  });
}

import type { OpenIdState } from '../types.js';
import type { Directory } from '../directory.js';
import type { MessageStore } from '../message-store.js';
import type { SlackStream, ThreadStatus } from '../streams.js';
import { SlackApiError, type SlackArgs, type SlackIdentity, type SlackUpload, type SlackView } from '../types.js';

export interface EphemeralMessage {
  channel: string;
  user: string;
  text: string;
  blocks?: unknown[];
  thread_ts?: string;
  message_ts: string;
}

export interface PendingFile {
  id: string;
  filename: string;
  length: number;
  alt_text?: string;
  snippet_type?: string;
  bytes?: Buffer;
}

/** A file the fake serves at its `url_private` (seeded by a test, or uploaded). */
export interface HostedFile {
  id: string;
  name: string;
  mimetype: string;
  bytes: Buffer;
}

export interface SlackState {
  identity: SlackIdentity;
  baseUrl: string;
  messages: MessageStore;
  directory: Directory;
  views: Map<string, SlackView>;
  homeViews: Map<string, SlackView>;
  pendingFiles: Map<string, PendingFile>;
  /** Files downloadable at `${baseUrl}/files-pri/${teamId}-${id}/${name}` with a bot token. */
  hostedFiles: Map<string, HostedFile>;
  uploads: SlackUpload[];
  ephemerals: EphemeralMessage[];
  openid: OpenIdState;
  /** Streamed messages by `channel/ts`. */
  streams: Map<string, SlackStream>;
  /** Assistant statuses by `channel/thread_ts`. */
  threadStatuses: Map<string, ThreadStatus>;
}

/** Answers one Web API method: the fields besides `ok: true`, or throws SlackApiError. */
export type MethodHandler = (args: SlackArgs, state: SlackState, token?: string) => Record<string, unknown>;

export function optionalString(args: SlackArgs, key: string): string | undefined {
  const value = args[key];
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

export function requiredString(args: SlackArgs, key: string, errorCode: string): string {
  const value = optionalString(args, key);
  if (value === undefined) throw new SlackApiError(errorCode);
  return value;
}

export function optionalArray(args: SlackArgs, key: string): unknown[] | undefined {
  const value = args[key];
  return Array.isArray(value) ? value : undefined;
}

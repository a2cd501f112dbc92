export type SlackArgs = Record<string, unknown>;

export interface SlackCall {
  method: string;
  args: SlackArgs;
  token: string | undefined;
  at: number;
  /** HTTP status the fake answered with (200 also for `{ ok: false }`). */
  status: number;
  /** The Slack error code when the answer was `{ ok: false }` or a 429 (`ratelimited`). */
  error?: string;
}

export interface SlackMessage {
  type: 'message';
  channel: string;
  ts: string;
  text: string;
  user?: string;
  bot_id?: string;
  app_id?: string;
  subtype?: string;
  thread_ts?: string;
  blocks?: unknown[];
  attachments?: unknown[];
  metadata?: unknown;
  files?: unknown[];
  edited?: { user: string; ts: string };
  reply_count?: number;
  reply_users?: string[];
  latest_reply?: string;
  [key: string]: unknown;
}

export type SlackFailure = { status: 429; retryAfter?: number } | { error: string; extra?: Record<string, unknown> } | { status: number; body?: string };

export interface SlackUpload {
  id: string;
  filename: string;
  length: number;
  title?: string;
  alt_text?: string;
  snippet_type?: string;
  bytes: Buffer;
  /** The uploaded bytes decoded as UTF-8. */
  text: string;
  channel?: string;
  thread_ts?: string;
  initial_comment?: string;
}

export interface SlackView {
  id: string;
  type: string;
  callback_id?: string;
  private_metadata?: string;
  external_id?: string;
  blocks: unknown[];
  [key: string]: unknown;
}

export interface SlackIdentity {
  teamId: string;
  teamName: string;
  botUserId: string;
  botId: string;
  appId: string;
}

export class SlackApiError extends Error {
  constructor(
    readonly code: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(code);
  }
}

/** Sign in with Slack: codes and tokens handed out, and who is signed in. */
export interface OpenIdState {
  signedIn?: { user: string; team: string };
  codes: Map<string, { user: string; team: string; clientId: string; redirectUri: string }>;
  tokens: Map<string, { user: string; team: string }>;
}

import { slackSignature } from './signing.js';

export interface DeliveryOptions {
  retryNum?: number;
  retryReason?: string;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
  badSignature?: boolean;
}

export interface DeliveryResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON when it is JSON. */
  json?: unknown;
}

/** POSTs an Events API body to `targetUrl`, signed as Slack signs it. */
export function deliverEvent(
  targetUrl: string,
  signingSecret: string,
  body: Record<string, unknown> | string,
  options: DeliveryOptions = {},
): Promise<DeliveryResult> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return signedPost(targetUrl, signingSecret, raw, 'application/json', options);
}

/** POSTs an interactivity payload (block_actions, view_submission, ...) form-encoded as `payload=`. */
export function deliverInteraction(
  targetUrl: string,
  signingSecret: string,
  payload: Record<string, unknown>,
  options: DeliveryOptions = {},
): Promise<DeliveryResult> {
  const raw = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  return signedPost(targetUrl, signingSecret, raw, 'application/x-www-form-urlencoded', options);
}

async function signedPost(targetUrl: string, signingSecret: string, raw: string, contentType: string, options: DeliveryOptions): Promise<DeliveryResult> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  let signature = slackSignature(signingSecret, timestamp, raw);
  if (options.badSignature) signature = slackSignature(`${signingSecret}-wrong`, timestamp, raw);
  const headers: Record<string, string> = {
    'content-type': contentType,
    'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': signature,
  };
  if (options.retryNum !== undefined) headers['x-slack-retry-num'] = String(options.retryNum);
  if (options.retryReason !== undefined) headers['x-slack-retry-reason'] = options.retryReason;
  const response = await fetch(targetUrl, { method: 'POST', headers, body: raw });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: Object.fromEntries(response.headers.entries()), body: text, json };
}

import { createHmac, randomBytes } from 'node:crypto';

export {
  incidentAnnotatedWebhook,
  incidentWebhook,
  incidentWebhookData,
  pageyPing,
  webhookEnvelope,
  type IncidentEventType,
  type WebhookEventOptions,
} from './pagerduty/webhook-payloads.js';

/** `v1=` + hex HMAC-SHA256 of the raw body with the subscription's secret. */
export function pagerDutySignature(rawBody: string, secret: string): string {
  return `v1=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

export interface SendWebhookOptions {
  /** One secret, or several: one signature each, comma-separated, as during secret rotation. */
  secrets: string | string[];
  badSignature?: boolean;
  /** Leave the X-PagerDuty-Signature header out. */
  unsigned?: boolean;
  webhookId?: string;
  subscriptionId?: string;
  headers?: Record<string, string>;
}

export interface WebhookDelivery {
  status: number;
  body: string;
  json?: unknown;
  /** The exact bytes sent. */
  rawBody: string;
  sentHeaders: Record<string, string>;
}

/** POSTs a V3 webhook payload the way PagerDuty does, signed. */
export async function sendPagerDutyWebhook(
  targetUrl: string,
  payload: Record<string, unknown> | string,
  options: SendWebhookOptions,
): Promise<WebhookDelivery> {
  const rawBody = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const secrets = Array.isArray(options.secrets) ? options.secrets : [options.secrets];
  const signature = secrets.map((secret) => pagerDutySignature(rawBody, options.badSignature ? `${secret}-wrong` : secret)).join(',');
  const sentHeaders: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'user-agent': 'PagerDuty-Webhook/V3.0',
    'x-webhook-id': options.webhookId ?? randomBytes(16).toString('hex'),
    'x-webhook-subscription': options.subscriptionId ?? `P${randomBytes(3).toString('hex').toUpperCase()}`,
    ...(options.unsigned ? {} : { 'x-pagerduty-signature': signature }),
    ...options.headers,
  };
  const response = await fetch(targetUrl, { method: 'POST', headers: sentHeaders, body: rawBody });
  const body = await response.text();
  let json: unknown;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, body, json, rawBody, sentHeaders };
}

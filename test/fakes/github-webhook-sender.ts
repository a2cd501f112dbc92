import { createHmac, randomUUID } from 'node:crypto';

export interface GitHubDeliveryOptions {
  secret: string;
  /** Defaults to a new GUID; pass the same one again to act as a redelivery. */
  deliveryId?: string;
  badSignature?: boolean;
  unsigned?: boolean;
}

export interface GitHubDelivery {
  status: number;
  body: string;
  deliveryId: string;
}

/** `sha256=` + hex HMAC-SHA256 of the raw body with the webhook secret (X-Hub-Signature-256). */
export function gitHubSignature(rawBody: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** POSTs a webhook the way GitHub delivers it: JSON body, event and delivery headers, signed. */
export async function deliverGitHubWebhook(targetUrl: string, event: string, payload: unknown, options: GitHubDeliveryOptions): Promise<GitHubDelivery> {
  const rawBody = JSON.stringify(payload);
  const deliveryId = options.deliveryId ?? randomUUID();
  const installation = (payload as { installation?: { id?: number } }).installation;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/5a4d9c1',
    'x-github-event': event,
    'x-github-delivery': deliveryId,
    'x-github-hook-id': '482315007',
    ...(installation?.id ? { 'x-github-hook-installation-target-type': 'integration', 'x-github-hook-installation-target-id': '4242' } : {}),
    ...(options.unsigned ? {} : { 'x-hub-signature-256': gitHubSignature(rawBody, options.badSignature ? `${options.secret}-wrong` : options.secret) }),
  };
  const response = await fetch(targetUrl, { method: 'POST', headers, body: rawBody });
  return { status: response.status, body: await response.text(), deliveryId };
}

import { createHmac } from 'node:crypto';

/** Slack request signing v0: `v0=` + hex HMAC-SHA256 of `v0:${timestamp}:${rawBody}`. */
export function slackSignature(signingSecret: string, timestamp: number | string, rawBody: string): string {
  const digest = createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex');
  return `v0=${digest}`;
}

import { createHmac, timingSafeEqual } from 'node:crypto';

/** The signature scheme PagerDuty V3 webhooks use; other versions in the header are ignored. */
const VERSION = 'v1=';

/**
 * Checks `X-PagerDuty-Signature` (comma-separated `v1=<hex>` values, one per signing secret during a
 * rotation) against an HMAC-SHA256 of the raw body with each configured secret. True when any
 * signature matches any secret. Comparisons are constant-time over equal-length digests.
 */
export function verifyPagerDutySignature(rawBody: Buffer | string, header: string | string[] | undefined, secrets: readonly string[]): boolean {
  if (!header || secrets.length === 0) return false;
  const provided = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(VERSION))
    .map((part) => part.slice(VERSION.length).toLowerCase())
    .filter((hex) => /^[0-9a-f]{64}$/.test(hex))
    .map((hex) => Buffer.from(hex, 'hex'));
  if (provided.length === 0) return false;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  let matched = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(body).digest();
    // Every pair is compared (no early exit), so the time taken does not depend on which one matched.
    for (const signature of provided) {
      if (signature.length === expected.length && timingSafeEqual(signature, expected)) matched = true;
    }
  }
  return matched;
}

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyPagerDutySignature } from '../../../src/pagerduty/verify-signature.js';

const body = JSON.stringify({ event: { id: '01ABC', event_type: 'incident.triggered', data: { title: 'Checkout 500s — ünïcode' } } });
const sign = (raw: string, secret: string) => `v1=${createHmac('sha256', secret).update(raw).digest('hex')}`;

describe('verifyPagerDutySignature', () => {
  it('accepts the signature of the configured secret, over the raw bytes', () => {
    expect(verifyPagerDutySignature(Buffer.from(body), sign(body, 'secret-one'), ['secret-one'])).toBe(true);
    expect(verifyPagerDutySignature(body, sign(body, 'secret-one'), ['secret-one'])).toBe(true);
  });

  it("accepts any of several signatures (rotation on PagerDuty's side) and any of several secrets (rotation on ours)", () => {
    const header = `${sign(body, 'old-secret')},${sign(body, 'new-secret')}`;
    expect(verifyPagerDutySignature(body, header, ['new-secret'])).toBe(true);
    expect(verifyPagerDutySignature(body, header, ['old-secret'])).toBe(true);
    expect(verifyPagerDutySignature(body, sign(body, 'new-secret'), ['old-secret', 'new-secret'])).toBe(true);
    expect(verifyPagerDutySignature(body, `v1=${'0'.repeat(64)}, ${sign(body, 'new-secret')}`, ['new-secret'])).toBe(true);
  });

  it('refuses a wrong secret, a changed body, a missing header and malformed values', () => {
    expect(verifyPagerDutySignature(body, sign(body, 'other'), ['secret-one'])).toBe(false);
    expect(verifyPagerDutySignature(`${body} `, sign(body, 'secret-one'), ['secret-one'])).toBe(false);
    expect(verifyPagerDutySignature(body, undefined, ['secret-one'])).toBe(false);
    expect(verifyPagerDutySignature(body, '', ['secret-one'])).toBe(false);
    expect(verifyPagerDutySignature(body, sign(body, 'secret-one').replace('v1=', 'v2='), ['secret-one'])).toBe(false);
    expect(verifyPagerDutySignature(body, sign(body, 'secret-one').slice(0, 40), ['secret-one'])).toBe(false);
    expect(verifyPagerDutySignature(body, 'v1=not-hex', ['secret-one'])).toBe(false);
  });

  it('refuses everything when no secret is configured', () => {
    expect(verifyPagerDutySignature(body, sign(body, ''), [])).toBe(false);
  });
});

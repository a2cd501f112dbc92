import { describe, expect, it } from 'vitest';
import { envSchema } from '../../../src/config/env-options.js';
import { RunLinks } from '../../../src/run-log/run-links.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const links = new RunLinks('a-secret-of-sixteen-plus', 'https://wrench.example.com/', 3600_000);
const query = (url: string) => new URL(url).searchParams;

describe('signed run-page links', () => {
  it('open their own run until they expire', () => {
    const url = links.urlFor('wrench-Ev123', NOW)!;
    expect(url).toMatch(/^https:\/\/wrench\.example\.com\/runs\/wrench-Ev123\?expires=\d+&sig=[A-Za-z0-9_-]{43}$/);
    const q = query(url);
    expect(links.verify('wrench-Ev123', q.get('expires'), q.get('sig'), NOW)).toBe('ok');
    expect(links.verify('wrench-Ev123', q.get('expires'), q.get('sig'), NOW + 3600_001)).toBe('expired');
  });

  it('refuse another run, a changed expiry, a changed signature, another secret, and missing or malformed parts', () => {
    const q = query(links.urlFor('wrench-Ev123', NOW)!);
    const [expires, sig] = [q.get('expires')!, q.get('sig')!];
    expect(links.verify('wrench-Ev124', expires, sig, NOW)).toBe('invalid');
    expect(links.verify('wrench-Ev123', String(Number(expires) + 1), sig, NOW)).toBe('invalid');
    expect(links.verify('wrench-Ev123', expires, `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`, NOW)).toBe('invalid');
    expect(new RunLinks('another-secret-of-sixteen', undefined, 3600_000).verify('wrench-Ev123', expires, sig, NOW)).toBe('invalid');
    for (const [e, s] of [
      [null, sig],
      [expires, null],
      ['soon', sig],
      [expires, 'short'],
      ['-1', sig],
    ] as const) {
      expect(links.verify('wrench-Ev123', e, s, NOW)).toBe('invalid');
    }
  });

  it('come from WRENCH_RUN_LINK_SECRET or a key derived from the signing secret; no WRENCH_PUBLIC_URL, no links', () => {
    const env = (vars: Record<string, string>) => envSchema.parse(vars);
    const derived = RunLinks.fromEnv(env({ SLACK_SIGNING_SECRET: 'signing-secret-123', WRENCH_PUBLIC_URL: 'https://w.example.com' }))!;
    const explicit = RunLinks.fromEnv(
      env({ SLACK_SIGNING_SECRET: 'signing-secret-123', WRENCH_RUN_LINK_SECRET: 'explicit-secret-0123456789', WRENCH_PUBLIC_URL: 'https://w.example.com' }),
    )!;
    const url = derived.urlFor('r1', NOW)!;
    expect(url).not.toContain('signing-secret-123');
    const q = query(url);
    expect(derived.verify('r1', q.get('expires'), q.get('sig'), NOW)).toBe('ok');
    expect(explicit.verify('r1', q.get('expires'), q.get('sig'), NOW)).toBe('invalid');
    // The link lives as long as the record: WRENCH_RUN_RETENTION_DAYS (30 by default).
    expect(Number(q.get('expires')) * 1000 - NOW).toBe(30 * 24 * 3600_000);
    expect(RunLinks.fromEnv(env({ SLACK_SIGNING_SECRET: 'signing-secret-123' }))!.urlFor('r1')).toBeUndefined();
    expect(RunLinks.fromEnv(env({}))).toBeUndefined();
    expect(() => env({ WRENCH_RUN_LINK_SECRET: 'short' })).toThrow(/at least 16/);
  });
});

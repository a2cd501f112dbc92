import { describe, expect, it } from 'vitest';
import { createRedactor, secretValuesOf } from '../../../src/security/redact.js';
import { wellFormedText } from '../../../src/security/well-formed-text.js';

describe('redact', () => {
  const redact = createRedactor(['my-configured-secret-value']);

  it.each([
    ['xoxb-1234567890-abcdefghij'],
    ['xapp-1-A0123-456-abcdef'],
    ['ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz'],
    ['gho_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['ghs_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['sk-ant-api03-abcdefghijklmnopqrstuvwxyz'],
    ['AKIAIOSFODNN7EXAMPLE'],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  ])('masks %s', (token) => {
    const out = redact(`before ${token} after`);
    expect(out).not.toContain(token);
    expect(out).toMatch(/^before .*\[redacted\].* after$/);
  });

  it('masks configured secrets exactly, wherever they appear', () => {
    expect(redact('x=my-configured-secret-value;')).toBe('x=[redacted];');
  });

  it('masks private key blocks', () => {
    const key = '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----';
    expect(redact(`key:\n${key}\nend`)).toBe('key:\n[redacted]\nend');
  });

  it('masks long random values assigned to secret-sounding names, not ordinary words', () => {
    expect(redact('API_KEY=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5')).toBe('API_KEY=[redacted]');
    expect(redact('password: "S3cr3t-P4ssw0rd-2024!x"')).toContain('[redacted]');
    expect(redact('token_count = 12345678901234567890')).toBe('token_count = 12345678901234567890');
    expect(redact('the keyboard is fine')).toBe('the keyboard is fine');
  });

  it('masks credentials in URLs', () => {
    expect(redact('https://x-access-token:abc123@github.com/a/b.git')).toBe('https://[redacted]@github.com/a/b.git');
  });

  it('redacts deep structures such as Block Kit blocks', () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: 'token xoxb-1234567890-abcdefghij' } }];
    expect(JSON.stringify(redact.deep(blocks))).not.toContain('xoxb-1234567890');
  });

  it('collects secret values from the environment', () => {
    expect(secretValuesOf({ SLACK_BOT_TOKEN: 'a', PORT: 3000, PAGERDUTY_WEBHOOK_SECRETS: ['s1', 's2'], GITHUB_API_URL: 'u' }).sort()).toEqual([
      'a',
      's1',
      's2',
    ]);
  });
});

describe('well-formed text', () => {
  it('drops NUL, C0 controls, DEL and terminal escapes; keeps tab, newline and carriage return; mends lone surrogates', () => {
    expect(wellFormedText('a\u0000b\u0001c\u0008d\u000be\u000cf\u001fg\u007fh')).toBe('abcdefgh');
    expect(wellFormedText('keep\ttab\nline\r\nend')).toBe('keep\ttab\nline\r\nend');
    expect(wellFormedText('\u001b[1;31mred\u001b[0m \u001b]8;;https://x.example\u0007link\u001b]8;;\u0007')).toBe('red link');
    expect(wellFormedText('half \ud83d and \ude00 whole 😀')).toBe('half \ufffd and \ufffd whole 😀');
    expect(wellFormedText('plain ünïcödé, 日本語 👩‍👩‍👧')).toBe('plain ünïcödé, 日本語 👩‍👩‍👧');
  });

  it('the redactor, which every outbound text passes, returns it well-formed', () => {
    const redact = createRedactor(['my-configured-secret-value']);
    expect(redact('summary\u0000 with my-configured-secret-value\ud800')).toBe('summary with [redacted]\ufffd');
    expect(redact.deep({ blocks: [{ text: 'a\u0000b' }] })).toEqual({ blocks: [{ text: 'ab' }] });
  });
});

import { describe, expect, it } from 'vitest';
import { secretKindEn } from '../../../src/security/secret-kind.js';
import { findSecrets } from '../../../src/security/secret-scan.js';
import { addedLines } from '../../../src/workspace/outgoing-commits.js';

const lines = (...texts: string[]) => texts.map((text, i) => ({ line: i + 1, text }));
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEAx7Zq3a9Vb8+Lr2mP5kQ0nT1wY6uE4sD7fG2hJ3kL9pO0iU8y\n'.repeat(3)}-----END RSA PRIVATE KEY-----`;

describe('findSecrets', () => {
  it("names Wrench's own secrets by their setting, also one line of a multi-line key, and never returns a value", async () => {
    const secrets = [
      { name: 'SLACK_SIGNING_SECRET', value: 'plain-looking-signing-secret-123' },
      { name: 'GITHUB_APP_PRIVATE_KEY', value: PEM },
    ];
    const hits = await findSecrets(
      lines('ok', 'signing=plain-looking-signing-secret-123', 'MIIEowIBAAKCAQEAx7Zq3a9Vb8+Lr2mP5kQ0nT1wY6uE4sD7fG2hJ3kL9pO0iU8y'),
      secrets,
    );
    expect(hits).toEqual([
      { line: 2, kind: { own: 'SLACK_SIGNING_SECRET' } },
      { line: 3, kind: { own: 'GITHUB_APP_PRIVATE_KEY' } },
    ]);
  });

  it('finds credential shapes (GitHub, Slack, Anthropic, AWS, private key blocks, passwords in URLs) and leaves ordinary text alone', async () => {
    const found = await findSecrets(
      lines(
        `token: ghp_${'A1b2C3d4E5'.repeat(3)}123456`,
        'SLACK=xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx',
        `key sk-ant-api03-${'a'.repeat(93)}AA`,
        'AWS_ACCESS_KEY_ID=AKIAZ7QWERTYUIOPASDF',
        'DATABASE=https://admin:s3cr3tpassw0rd@db.example.com',
        'const answer = 42; // a normal line',
      ),
      [],
    );
    expect(found.map((hit) => [hit.line, secretKindEn(hit.kind)])).toEqual([
      [1, 'what looks like a GitHub token'],
      [2, 'what looks like a Slack token or webhook URL'],
      [3, 'what looks like an Anthropic API key'],
      [4, 'what looks like an AWS credential'],
      [5, 'what looks like a password in a URL'],
    ]);
    const key = await findSecrets(lines(...`${PEM.replace(/\n(MII[^\n]*)/g, '\n$1$1')}`.split('\n')), []);
    expect(key.map((hit) => secretKindEn(hit.kind))).toContain('what looks like a private key');
    expect(JSON.stringify(found)).not.toMatch(/ghp_|xoxb-|sk-ant|AKIA|s3cr3t/);
  });
});

describe('addedLines', () => {
  it('numbers added lines as in the new file, per file, skipping removed and context lines and deleted files', () => {
    const patch = [
      'diff --git a/config/dev.env b/config/dev.env',
      '--- a/config/dev.env',
      '+++ b/config/dev.env',
      '@@ -1,3 +1,4 @@',
      ' # settings',
      '-OLD=1',
      '+NEW=1',
      ' KEEP=1',
      '+TOKEN=x',
      'diff --git a/gone.txt b/gone.txt',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      'diff --git a/new file.txt b/new file.txt',
      '--- /dev/null',
      '+++ b/new file.txt',
      '@@ -0,0 +1,2 @@',
      '+first',
      '+++ not a header, an added line starting with ++',
    ].join('\n');
    const files = addedLines(patch);
    expect(files.get('config/dev.env')).toEqual([
      { line: 2, text: 'NEW=1' },
      { line: 4, text: 'TOKEN=x' },
    ]);
    expect(files.has('gone.txt')).toBe(false);
    expect(files.get('new file.txt')?.[0]).toEqual({ line: 1, text: 'first' });
  });
});

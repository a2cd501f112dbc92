import { describe, expect, it } from 'vitest';
import { credentialEnv } from '../../../src/workspace/credential-env.js';
import { maskCredentials } from '../../../src/workspace/mask-credentials.js';

describe('credentialEnv', () => {
  it('puts a Basic header scoped to the repository URL in GIT_CONFIG_* variables', () => {
    const { env, secrets } = credentialEnv('https://github.com/acme/web.git', 'FAKE_TOKEN_123');
    const encoded = Buffer.from('x-access-token:FAKE_TOKEN_123').toString('base64');
    expect(env).toEqual({
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.https://github.com/acme/web.git.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${encoded}`,
    });
    expect(secrets).toEqual(['FAKE_TOKEN_123', encoded]);
  });

  it('gives nothing to file:// remotes or without a credential', () => {
    expect(credentialEnv('file:///tmp/r/acme/web.git', 'FAKE_TOKEN_123').env).toEqual({});
    expect(credentialEnv('https://github.com/acme/web.git', undefined).env).toEqual({});
  });
});

describe('maskCredentials', () => {
  it('masks userinfo, authorization values, GitHub tokens and given secrets', () => {
    const text = [
      "fatal: unable to access 'https://x-access-token:abc123@github.com/acme/web.git/'",
      'header Authorization: Basic eC1hY2Nlc3M6dG9rZW4=',
      'token ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'custom SECRETVALUE here',
    ].join('\n');
    const masked = maskCredentials(text, ['SECRETVALUE']);
    expect(masked).not.toMatch(/abc123|eC1hY2Nlc3M6dG9rZW4=|ghp_abc|SECRETVALUE/);
    expect(masked).toContain('https://***@github.com/acme/web.git/');
  });
});

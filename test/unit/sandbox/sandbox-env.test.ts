import { describe, expect, it } from 'vitest';
import { buildSandboxEnv } from '../../../src/sandbox/sandbox-env.js';

const base = {
  PATH: '/usr/bin:/bin',
  LANG: 'en_US.UTF-8',
  TZ: 'Europe/Paris',
  SLACK_BOT_TOKEN: 'xoxb-1',
  ANTHROPIC_API_KEY: 'sk-ant-1',
  GITHUB_TOKEN: 'ghp_1',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  NPM_TOKEN: 'npm-secret',
  SOMETHING: 'else',
};

describe('buildSandboxEnv', () => {
  it('takes only allowlisted variables from the host', () => {
    const env = buildSandboxEnv({}, { home: '/tmp/home', base });
    expect(env).toMatchObject({ PATH: '/usr/bin:/bin', HOME: '/tmp/home', LANG: 'en_US.UTF-8', TZ: 'Europe/Paris' });
    expect(Object.keys(env)).not.toContain('SOMETHING');
    expect(Object.keys(env)).not.toContain('AWS_SECRET_ACCESS_KEY');
    expect(Object.keys(env)).not.toContain('NPM_TOKEN');
    expect(Object.values(env)).not.toContain('xoxb-1');
  });

  it("passes the host's certificate paths (a TLS-intercepting proxy's CA), nothing else of the kind", () => {
    const env = buildSandboxEnv({}, { home: '/h', base: { ...base, NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca.crt', SSL_CERT_FILE: 'relative.crt' } });
    expect(env.NODE_EXTRA_CA_CERTS).toBe('/etc/ssl/certs/ca.crt');
    expect(env.SSL_CERT_FILE).toBeUndefined();
  });

  it('sets non-interactive defaults', () => {
    const env = buildSandboxEnv({}, { home: '/h', base: {} });
    expect(env).toMatchObject({
      CI: 'true',
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      GIT_TERMINAL_PROMPT: '0',
      DEBIAN_FRONTEND: 'noninteractive',
      npm_config_yes: 'true',
      PIP_NO_INPUT: '1',
      LANG: 'C.UTF-8',
      TZ: 'UTC',
    });
    expect(env.PATH).toContain('/usr/bin');
    // Colour is the program's own choice, as in CI: these change what some test suites expect.
    expect(env).not.toHaveProperty('TERM');
    expect(env).not.toHaveProperty('NO_COLOR');
    expect(env).not.toHaveProperty('FORCE_COLOR');
  });

  it('adds extra variables but never credentials of the services, whatever the case', () => {
    const env = buildSandboxEnv(
      {
        NODE_ENV: 'test',
        CI: 'false',
        SLACK_X: '1',
        slack_y: '1',
        ANTHROPIC_BASE_URL: 'u',
        GITHUB_API_URL: 'u',
        PAGERDUTY_X: '1',
        REDIS_URL: 'r',
        GH_TOKEN: 't',
      },
      { home: '/h', base: {} },
    );
    expect(env.NODE_ENV).toBe('test');
    expect(env.CI).toBe('false');
    for (const name of ['SLACK_X', 'slack_y', 'ANTHROPIC_BASE_URL', 'GITHUB_API_URL', 'PAGERDUTY_X', 'REDIS_URL', 'GH_TOKEN'])
      expect(env).not.toHaveProperty(name);
  });

  it('drops any value that is, or contains, a configured secret', () => {
    const secret = 'super-secret-token-value';
    const env = buildSandboxEnv(
      { INNOCENT_NAME: secret, URL_WITH: `https://x:${secret}@host`, FINE: 'ok' },
      { home: '/h', base: { PATH: '/bin', LANG: secret }, secrets: [secret, ''] },
    );
    expect(env).not.toHaveProperty('INNOCENT_NAME');
    expect(env).not.toHaveProperty('URL_WITH');
    expect(env).not.toHaveProperty('LANG');
    expect(env.FINE).toBe('ok');
    expect(JSON.stringify(env)).not.toContain(secret);
  });

  it('drops names a shell cannot carry', () => {
    const env = buildSandboxEnv({ 'BAD-NAME': '1', '1ST': '1', 'A B': '1', GOOD_1: '1' }, { home: '/h', base: {} });
    expect(Object.keys(env)).toContain('GOOD_1');
    for (const name of ['BAD-NAME', '1ST', 'A B']) expect(env).not.toHaveProperty(name);
  });
});

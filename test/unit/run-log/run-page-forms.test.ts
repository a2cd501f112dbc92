import { describe, expect, it } from 'vitest';
import { renderControls } from '../../../src/run-log/render-run-controls.js';
import { SlackSignIn } from '../../../src/run-log/slack-sign-in.js';

const signIn = (secret = 'sign-in-secret') =>
  new SlackSignIn({
    clientId: 'c',
    clientSecret: 's',
    publicUrl: 'https://wrench.example.com',
    authorizeUrl: 'https://slack.example/openid/connect/authorize',
    slackApiUrl: 'https://slack.example/api/',
    secret,
    workspaceTeam: async () => 'T0',
  });

/** A session cookie as the callback sets it, sealed with the same key. */
async function cookieFor(si: SlackSignIn, user: string): Promise<string> {
  const seal = (si as unknown as { seal(v: object): string }).seal.bind(si);
  return `other=1; wrench_run_session=${seal({ u: user, t: 'T0', exp: Date.now() + 60_000 })}`;
}

describe('the run page’s forms', () => {
  it('a form token belongs to one session and one run', async () => {
    const si = signIn();
    const alice = await cookieFor(si, 'U0ALICE');
    const bob = await cookieFor(si, 'U0BOB');
    const token = si.formToken(alice, 'run-1')!;
    expect(si.checkFormToken(alice, 'run-1', token)).toBe(true);
    expect(si.checkFormToken(alice, 'run-2', token)).toBe(false);
    expect(si.checkFormToken(bob, 'run-1', token)).toBe(false);
    expect(si.checkFormToken(undefined, 'run-1', token)).toBe(false);
    expect(si.checkFormToken(alice, 'run-1', null)).toBe(false);
    expect(signIn('another-key').checkFormToken(alice, 'run-1', token)).toBe(false);
    expect(si.formToken('wrench_run_session=forged.mac', 'run-1')).toBeUndefined();
  });

  it('counts a form only from Wrench’s own origin', () => {
    const si = signIn();
    expect(si.isOwnOrigin({ origin: 'https://wrench.example.com' })).toBe(true);
    expect(si.isOwnOrigin({ origin: 'https://evil.example' })).toBe(false);
    expect(si.isOwnOrigin({ origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' })).toBe(false);
    expect(si.isOwnOrigin({ origin: 'null', 'sec-fetch-site': 'same-origin' })).toBe(true);
    expect(si.isOwnOrigin({ origin: 'null', 'sec-fetch-site': 'cross-site' })).toBe(false);
    expect(si.isOwnOrigin({})).toBe(false);
  });

  it('renders the forms with the token escaped, and nothing to act on when there is nothing', () => {
    const html = renderControls({ stopPath: '/runs/r1/stop', steerPath: '/runs/r1/steer', token: '"><script>' }, undefined);
    expect(html).toContain('<form method="post" action="/runs/r1/stop" class="stop">');
    expect(html).toContain('name="token" value="&quot;&gt;&lt;script&gt;"');
    expect(html).not.toContain('<script>');
    expect(renderControls(undefined, undefined)).toBe('');
    expect(renderControls(undefined, 'stop')).toContain('You asked to stop this run');
  });
});

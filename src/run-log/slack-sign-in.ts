import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import type { EnvOptions } from '../config/env-options.js';
import { WrenchError } from '../errors.js';
import { runLinkSecret } from './run-links.js';

const COOKIE = 'wrench_run_session';
const SESSION_MS = 12 * 3600 * 1000;
const STATE_MS = 10 * 60 * 1000;
export const SIGN_IN_CALLBACK_PATH = '/auth/slack/callback';

export interface SignedInPerson {
  user: string;
  team: string;
}

/**
 * Sign in with Slack (OpenID Connect) for run pages: a person without a signed link is sent to Slack's
 * authorize page, comes back with a code, and gets a session cookie when they belong to Wrench's workspace.
 * On when SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and WRENCH_PUBLIC_URL are set.
 */
export class SlackSignIn {
  constructor(
    private readonly options: {
      clientId: string;
      clientSecret: string;
      publicUrl: string;
      /** https://slack.com/openid/connect/authorize (beside SLACK_API_URL). */
      authorizeUrl: string;
      slackApiUrl: string;
      secret: string;
      /** The workspace people must belong to: the bot's own team (auth.test). */
      workspaceTeam: () => Promise<string>;
      now?: () => number;
    },
  ) {}

  static fromEnv(env: EnvOptions, workspaceTeam: () => Promise<string>): SlackSignIn | undefined {
    const secret = runLinkSecret(env);
    if (!env.SLACK_CLIENT_ID || !env.SLACK_CLIENT_SECRET || !env.WRENCH_PUBLIC_URL || !secret) return undefined;
    return new SlackSignIn({
      clientId: env.SLACK_CLIENT_ID,
      clientSecret: env.SLACK_CLIENT_SECRET,
      publicUrl: env.WRENCH_PUBLIC_URL.replace(/\/+$/, ''),
      authorizeUrl: new URL('../openid/connect/authorize', env.SLACK_API_URL).toString(),
      slackApiUrl: env.SLACK_API_URL,
      secret: createHmac('sha256', secret).update('wrench slack sign-in').digest('hex'),
      workspaceTeam,
    });
  }

  private get now(): number {
    return (this.options.now ?? Date.now)();
  }

  private get redirectUri(): string {
    return `${this.options.publicUrl}${SIGN_IN_CALLBACK_PATH}`;
  }

  /** Where to send a person who wants `returnPath` (a run page). */
  async authorizeRedirect(returnPath: string): Promise<string> {
    const url = new URL(this.options.authorizeUrl);
    const state = this.seal({ r: returnPath, exp: this.now + STATE_MS, n: randomBytes(8).toString('hex') });
    const team = await this.options.workspaceTeam().catch(() => '');
    url.search = new URLSearchParams({
      response_type: 'code',
      scope: 'openid profile',
      client_id: this.options.clientId,
      redirect_uri: this.redirectUri,
      state,
      nonce: randomBytes(12).toString('base64url'),
      ...(team ? { team } : {}),
    }).toString();
    return url.toString();
  }

  /** The callback: exchanges the code, checks the workspace; returns the cookie to set and where to go. */
  async complete(query: URLSearchParams): Promise<{ cookie: string; returnPath: string; person: SignedInPerson }> {
    const state = this.open<{ r: string; exp: number }>(query.get('state'));
    if (!state || state.exp < this.now || !state.r.startsWith('/runs/'))
      throw new WrenchError('sign_in_failed', 'The sign-in link is invalid or too old. Open the run page again.');
    if (query.get('error')) throw new WrenchError('sign_in_failed', `Slack did not sign you in (${query.get('error')}).`);
    const code = query.get('code');
    if (!code) throw new WrenchError('sign_in_failed', 'Slack sent no authorization code. Open the run page again.');
    const exchange = await new WebClient(undefined, { slackApiUrl: this.options.slackApiUrl }).openid.connect.token({
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
      code,
      redirect_uri: this.redirectUri,
    });
    if (!exchange.access_token) throw new WrenchError('sign_in_failed', 'Slack gave no access token.');
    const info = await new WebClient(exchange.access_token, { slackApiUrl: this.options.slackApiUrl }).openid.connect.userInfo();
    const claims: Record<string, unknown> = { ...info };
    const person = { user: String(claims['https://slack.com/user_id'] ?? info.sub ?? ''), team: String(claims['https://slack.com/team_id'] ?? '') };
    if (!person.user || person.team !== (await this.options.workspaceTeam())) {
      throw new WrenchError(
        'sign_in_wrong_workspace',
        'You are not signed in to the Slack workspace Wrench works in. Sign in to that workspace and try again.',
      );
    }
    const session = this.seal({ u: person.user, t: person.team, exp: this.now + SESSION_MS });
    const secure = this.options.publicUrl.startsWith('https:') ? '; Secure' : '';
    return { cookie: `${COOKIE}=${session}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_MS / 1000}${secure}`, returnPath: state.r, person };
  }

  /** The signed-in person of a request, from its cookie. */
  session(cookieHeader: string | undefined): SignedInPerson | undefined {
    const session = this.open<{ u: string; t: string; exp: number }>(this.sessionCookie(cookieHeader) ?? null);
    return session && session.exp > this.now ? { user: session.u, team: session.t } : undefined;
  }

  /** A token for the forms that act as the signed-in person on one run (stop, steer): bound to their session and the run. */
  formToken(cookieHeader: string | undefined, runId: string): string | undefined {
    const raw = this.sessionCookie(cookieHeader);
    return raw && this.session(cookieHeader) ? this.mac(`form:${runId}:${raw}`) : undefined;
  }

  checkFormToken(cookieHeader: string | undefined, runId: string, token: string | null): boolean {
    const expected = this.formToken(cookieHeader, runId);
    if (!expected || !token) return false;
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected));
  }

  /**
   * Whether a form was posted from Wrench's own page: its Origin is Wrench's public address, or (the pages send no
   * referrer, so browsers send `Origin: null`) the browser's own `Sec-Fetch-Site` says same-origin.
   */
  isOwnOrigin(headers: { origin?: string; 'sec-fetch-site'?: string | string[] }): boolean {
    if (headers.origin && headers.origin !== 'null') return headers.origin === new URL(this.options.publicUrl).origin;
    return headers['sec-fetch-site'] === 'same-origin';
  }

  private sessionCookie(cookieHeader: string | undefined): string | undefined {
    return cookieHeader
      ?.split(/;\s*/)
      .find((c) => c.startsWith(`${COOKIE}=`))
      ?.slice(COOKIE.length + 1);
  }

  private seal(value: object): string {
    const body = Buffer.from(JSON.stringify(value)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  private open<T>(sealed: string | null): T | undefined {
    const [body, mac] = sealed?.split('.') ?? [];
    if (!body || !mac) return undefined;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.options.secret).update(body).digest('base64url');
  }
}

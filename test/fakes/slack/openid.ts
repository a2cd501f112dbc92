import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendText } from '../shared/http.js';
import { requiredString, type MethodHandler, type SlackState } from './methods/context.js';
import { SlackApiError, type OpenIdState } from './types.js';

/** Sign in with Slack: who the browser is signed in as, issued codes and user tokens. */

export const newOpenIdState = (): OpenIdState => ({ codes: new Map(), tokens: new Map() });

/** GET /openid/connect/authorize: as if the person approved at once, back to redirect_uri with a code and the state. */
export function openIdAuthorize(state: SlackState, query: URLSearchParams, res: ServerResponse): void {
  const redirectUri = query.get('redirect_uri');
  const clientId = query.get('client_id');
  if (!redirectUri || !clientId || query.get('response_type') !== 'code' || !query.get('scope')?.split(' ').includes('openid')) {
    sendText(res, 400, 'invalid authorize request');
    return;
  }
  const back = new URL(redirectUri);
  const person = state.openid.signedIn;
  if (!person) back.searchParams.set('error', 'access_denied');
  else {
    const code = randomBytes(8).toString('hex');
    state.openid.codes.set(code, { ...person, clientId, redirectUri });
    back.searchParams.set('code', code);
  }
  back.searchParams.set('state', query.get('state') ?? '');
  res.writeHead(302, { location: back.toString() });
  res.end();
}

const token: MethodHandler = (args, state) => {
  const code = requiredString(args, 'code', 'invalid_code');
  const issued = state.openid.codes.get(code);
  if (!issued) throw new SlackApiError('invalid_code');
  if (args.client_id !== issued.clientId || !args.client_secret) throw new SlackApiError('invalid_client_id');
  if (args.redirect_uri !== undefined && args.redirect_uri !== issued.redirectUri) throw new SlackApiError('bad_redirect_uri');
  state.openid.codes.delete(code);
  const accessToken = `xoxp-${randomBytes(12).toString('hex')}`;
  state.openid.tokens.set(accessToken, { user: issued.user, team: issued.team });
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    id_token: `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: issued.user })).toString('base64url')}.sig`,
  };
};

const userInfo: MethodHandler = (_args, state, accessToken) => {
  const person = accessToken ? state.openid.tokens.get(accessToken) : undefined;
  if (!person) throw new SlackApiError('invalid_auth');
  return {
    sub: person.user,
    'https://slack.com/user_id': person.user,
    'https://slack.com/team_id': person.team,
    email: `${person.user.toLowerCase()}@example.com`,
    email_verified: true,
    date_email_verified: 1_700_000_000,
    name: person.user,
    picture: null,
    given_name: person.user,
    family_name: '',
    locale: 'en-US',
    'https://slack.com/team_name': 'Wrench Test',
    'https://slack.com/team_domain': 'wrench-test',
  };
};

/** openid.connect.token authenticates with client_id/client_secret, not a token. */
export const TOKENLESS_METHODS = new Set(['openid.connect.token']);

export const openIdMethods: Record<string, MethodHandler> = {
  'openid.connect.token': token,
  'openid.connect.userInfo': userInfo,
};

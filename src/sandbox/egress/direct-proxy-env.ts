import { proxyVariableNames } from './sandbox-forwarder.js';
import type { UpstreamProxy } from './upstream-proxy.js';

/** What the forwarder in a bwrap sandbox leaves direct too: the command's own loopback. */
const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

/**
 * Mode `none`: a command with network reaches out from the host itself, with no egress proxy in between, so it is
 * pointed at the operator's proxy directly: the variables the bwrap forwarder sets (npm, yarn, pip, cargo, curl, git,
 * Node's fetch), the proxy's URL with its credentials (nothing is isolated in mode `none`; Wrench masks them in what it
 * writes), `NO_PROXY` with loopback and the proxy's `noProxy`, and for git the CA of an https:// proxy.
 */
export function directProxyEnv(upstream: UpstreamProxy): Record<string, string> {
  const url = `${upstream.tls ? 'https' : 'http'}://${userInfo(upstream.authorization)}${upstream.display}`;
  // `*` (everything direct) is understood by curl only on its own.
  const noProxy = upstream.noProxy.includes('*') ? '*' : [...new Set([...LOOPBACK, ...upstream.noProxy])].join(',');
  return {
    ...Object.fromEntries(proxyVariableNames().map((name) => [name, url])),
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    NODE_USE_ENV_PROXY: '1',
    // The CA of an https:// proxy's own certificate (`sandbox.setupCaFile`): the other tools take it from the CA variables.
    ...(upstream.caFile ? { GIT_PROXY_SSL_CAINFO: upstream.caFile } : {}),
  };
}

/** `user:password@` from `Basic base64(user:password)`, each part percent-encoded; empty without credentials. */
function userInfo(authorization: string | undefined): string {
  if (!authorization) return '';
  const decoded = Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const [user, password] = colon < 0 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  return `${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ''}@`;
}

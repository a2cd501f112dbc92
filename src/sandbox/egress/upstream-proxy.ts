import { readFile } from 'node:fs/promises';
import { BlockList, connect, isIP, type Socket } from 'node:net';
import { type ConnectionOptions, connect as connectTls, getCACertificates } from 'node:tls';

/**
 * The operator's HTTP proxy the egress proxy sends allowed destinations through, in a network where only that proxy
 * reaches the internet (`sandbox.egress.upstreamProxy`, else Wrench's own `HTTPS_PROXY` / `HTTP_PROXY`).
 */
export interface UpstreamProxy {
  host: string;
  port: number;
  /** `https://`: spoken to over TLS (its certificate checked), the `CONNECT` or request sent inside. */
  tls: boolean;
  /** `sandbox.setupCaFile`: a CA an https:// upstream's certificate may be signed by, besides the public ones. */
  caFile?: string;
  /** `Basic …` from the URL's user and password: sent to the upstream only, never to the sandbox or a log. */
  authorization?: string;
  /** `host:port`, without the credentials: what logs and refusals name. */
  display: string;
  /** Where it was set (`sandbox.egress.upstreamProxy`, `HTTPS_PROXY`, `HTTP_PROXY`): named in refusals. */
  setting: string;
  /** `NO_PROXY` entries: destinations that go directly instead (`*`, `host`, `.domain`, `host:port`, an IP or a CIDR). */
  noProxy: readonly string[];
  /**
   * `sandbox.egress.upstreamResolvesNames`: an allowed name Wrench's host cannot resolve is asked of the upstream
   * unchecked (where only the proxy resolves public names). A name that does resolve is checked all the same.
   */
  resolvesNames: boolean;
}

export class UpstreamProxyError extends Error {
  override name = 'UpstreamProxyError';
}

/**
 * `http://proxy.corp:3128`, `http://user:pass@proxy.corp:3128`, `proxy.corp:3128` (http assumed, as curl does) or
 * `https://proxy.corp:3129` (TLS to the proxy itself, as curl and undici speak it). Any other scheme is refused, the
 * value named without its password.
 */
export function parseUpstreamProxyUrl(text: string): Pick<UpstreamProxy, 'host' | 'port' | 'tls' | 'authorization' | 'display'> & { password?: string } {
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`);
  } catch {
    throw new UpstreamProxyError('is not a proxy URL (for example http://proxy.corp:3128 or http://user:password@proxy.corp:3128)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UpstreamProxyError(`must be an http:// or https:// proxy URL, not ${withoutPassword(url)} (${url.protocol}// proxies are not supported)`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw new UpstreamProxyError('must be only scheme, credentials, host and port (for example http://proxy.corp:3128), with no path');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const tls = url.protocol === 'https:';
  const port = url.port ? Number(url.port) : tls ? 443 : 80;
  const user = safeDecode(url.username);
  const password = safeDecode(url.password);
  const authorization = user || password ? `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` : undefined;
  return {
    host,
    port,
    tls,
    display: `${isIP(host) === 6 ? `[${host}]` : host}:${port}`,
    ...(authorization ? { authorization } : {}),
    ...(password ? { password } : {}),
  };
}

/** `socks5://wrench:***@proxy.corp:1080`: the URL as written, its password replaced. */
function withoutPassword(url: URL): string {
  const user = url.username ? `${url.username}${url.password ? ':***' : ''}@` : url.password ? ':***@' : '';
  return `${url.protocol}//${user}${url.host}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface UpstreamProxySettings {
  /** `sandbox.egress.upstreamProxy`: a URL, or `''` to connect directly whatever the environment says. */
  upstreamProxy?: string;
  /** `sandbox.egress.noProxy`. */
  noProxy?: readonly string[];
  /** `sandbox.egress.upstreamResolvesNames`. */
  upstreamResolvesNames?: boolean;
  /** `sandbox.setupCaFile`: also trusted for an https:// upstream's own certificate. */
  caFile?: string;
}

/** Wrench's own proxy variables, as validated at start-up (`config.env`). */
export interface ProxyEnv {
  HTTPS_PROXY?: string;
  HTTP_PROXY?: string;
  NO_PROXY?: string;
}

/**
 * The upstream proxy of the egress proxy: `sandbox.egress.upstreamProxy` when set (empty: none), else Wrench's own
 * `HTTPS_PROXY`, else `HTTP_PROXY`, so that the setup step goes out the way Wrench itself is set up to. Destinations
 * `noProxy` names (default: `NO_PROXY`) go directly.
 */
export function upstreamProxyFor(settings: UpstreamProxySettings, env: ProxyEnv): UpstreamProxy | undefined {
  const [setting, value] =
    settings.upstreamProxy !== undefined
      ? ['sandbox.egress.upstreamProxy', settings.upstreamProxy]
      : env.HTTPS_PROXY
        ? ['HTTPS_PROXY', env.HTTPS_PROXY]
        : ['HTTP_PROXY', env.HTTP_PROXY];
  if (!value?.trim()) return undefined;
  const { password: _password, ...parsed } = parseUpstreamProxyUrl(value);
  const noProxy = settings.noProxy ?? (env.NO_PROXY ?? '').split(/[\s,]+/);
  return {
    ...parsed,
    setting,
    noProxy: noProxy.map((entry) => entry.trim().toLowerCase()).filter(Boolean),
    resolvesNames: settings.upstreamResolvesNames ?? false,
    ...(parsed.tls && settings.caFile ? { caFile: settings.caFile } : {}),
  };
}

/**
 * The upstream proxy's credentials as secrets (its password and its `Basic` token), from `sandbox.egress.upstreamProxy`,
 * `HTTPS_PROXY` and `HTTP_PROXY`: masked wherever Wrench writes, kept out of sandboxes and pushes like its tokens.
 */
export function upstreamProxyCredentials(config: { file: { sandbox: { egress: UpstreamProxySettings } }; env: ProxyEnv }): { name: string; value: string }[] {
  const sources: [string, string | undefined][] = [
    ['sandbox.egress.upstreamProxy', config.file.sandbox.egress.upstreamProxy],
    ['HTTPS_PROXY', config.env.HTTPS_PROXY],
    ['HTTP_PROXY', config.env.HTTP_PROXY],
  ];
  return sources.flatMap(([name, value]) => {
    if (!value?.trim()) return [];
    try {
      const { password, authorization } = parseUpstreamProxyUrl(value);
      // Percent-encoded too, as it stands in the proxy URL mode `none` gives its commands (direct-proxy-env.ts).
      const encoded = password ? encodeURIComponent(password) : undefined;
      return [
        ...(password ? [{ name: `${name} password`, value: password }] : []),
        ...(encoded && encoded !== password ? [{ name: `${name} password`, value: encoded }] : []),
        ...(authorization ? [{ name: `${name} credentials`, value: authorization.slice('Basic '.length) }] : []),
      ];
    } catch {
      return [];
    }
  });
}

/** Whether `NO_PROXY` sends this destination directly: matched on the name as asked for (as curl does), not its address. */
export function bypassesUpstream(noProxy: readonly string[], host: string, port: number): boolean {
  return noProxy.some((entry) => noProxyMatches(entry, host, port));
}

function noProxyMatches(entry: string, host: string, port: number): boolean {
  if (entry === '*') return true;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const withPort = bracketed ? undefined : /^([^:]+):(\d+)$/.exec(entry);
  const name = bracketed?.[1] ?? withPort?.[1] ?? entry;
  const portText = bracketed?.[2] ?? withPort?.[2];
  if (portText !== undefined && Number(portText) !== port) return false;
  if (name.includes('/')) return inCidr(name, host);
  if (isIP(name)) return isIP(host) === isIP(name) && name === host;
  const domain = name.replace(/^\*?\./, '');
  return host === domain || host.endsWith(`.${domain}`);
}

function inCidr(cidr: string, host: string): boolean {
  const [network = '', prefixText = ''] = cidr.split('/');
  const family = isIP(network);
  if (!family || isIP(host) !== family) return false;
  const list = new BlockList();
  try {
    list.addSubnet(network, Number(prefixText), family === 6 ? 'ipv6' : 'ipv4');
  } catch {
    return false;
  }
  return list.check(host, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * How a CONNECT through the upstream ended: a tunnel (its status line, the bytes that came after the answer), its
 * refusal, or no connection.
 */
export type UpstreamTunnel = { socket: Socket; rest: Buffer; status: string } | { refused: string } | { unreachable: string };

const MAX_HEAD_BYTES = 16 * 1024;

/**
 * Opens a tunnel to `host:port` through the upstream: `CONNECT host:port` with the upstream's credentials. The name,
 * not the address Wrench checked, is what the upstream is asked for: proxies decide by name, and many refuse
 * addresses. `refused` is the upstream's status line ("407 Proxy Authentication Required").
 */
export async function tunnelThroughUpstream(upstream: UpstreamProxy, host: string, port: number, timeoutMs: number): Promise<UpstreamTunnel> {
  const authority = `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
  let opened: { socket: Socket; ready: 'connect' | 'secureConnect' };
  try {
    opened = await connectToUpstream(upstream, timeoutMs);
  } catch (error) {
    return { unreachable: (error as Error).message };
  }
  const { socket, ready } = opened;
  return new Promise((resolve) => {
    let head = Buffer.alloc(0);
    let settled = false;
    const settle = (result: UpstreamTunnel) => {
      if (settled) return;
      settled = true;
      socket.off('data', onData);
      socket.setTimeout(0);
      if (!('socket' in result)) socket.destroy();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) settle({ refused: 'an answer that is not HTTP' });
        return;
      }
      const status = statusOf(head.subarray(0, end).toString('latin1'));
      if (status && status.code >= 200 && status.code < 300) settle({ socket, rest: head.subarray(end + 4), status: status.line });
      else settle({ refused: status ? status.line : 'an answer that is not HTTP' });
    };
    socket.on('data', onData);
    socket.once(ready, () => {
      const credentials = upstream.authorization ? `Proxy-Authorization: ${upstream.authorization}\r\n` : '';
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${credentials}\r\n`);
    });
    socket.once('timeout', () => settle({ unreachable: 'timed out' }));
    socket.once('error', (error: NodeJS.ErrnoException) => settle({ unreachable: whyUnreachable(upstream, error) }));
    socket.once('close', () => settle({ unreachable: 'closed the connection without answering' }));
  });
}

/**
 * A connection to the upstream, and the event after which a request may be written: plain TCP, or TLS to an https://
 * one, its certificate checked for its name against the public CAs (with `NODE_EXTRA_CA_CERTS`) and `caFile`.
 * Throws, saying so, when `caFile` cannot be read.
 */
export async function connectToUpstream(upstream: UpstreamProxy, timeoutMs: number): Promise<{ socket: Socket; ready: 'connect' | 'secureConnect' }> {
  if (!upstream.tls) return { socket: connect({ host: upstream.host, port: upstream.port, timeout: timeoutMs }), ready: 'connect' };
  const options: ConnectionOptions = { host: upstream.host, port: upstream.port, timeout: timeoutMs, ALPNProtocols: ['http/1.1'] };
  if (upstream.caFile) options.ca = await trustedWith(upstream.caFile);
  return { socket: connectTls(options), ready: 'secureConnect' };
}

/** The public CAs and the file's, read once per process and file (every connection of a setup step comes here). */
const trusted = new Map<string, Promise<string[]>>();
function trustedWith(caFile: string): Promise<string[]> {
  let read = trusted.get(caFile);
  if (!read) {
    read = readFile(caFile, 'utf8').then(
      (ca) => [...getCACertificates('default'), ca],
      (error: NodeJS.ErrnoException) => {
        trusted.delete(caFile); // unreadable now, perhaps not on the next connection
        throw new UpstreamProxyError(`its CA file ${caFile} (sandbox.setupCaFile) cannot be read (${error.code ?? 'unreadable'})`);
      },
    );
    trusted.set(caFile, read);
  }
  return read;
}

/** Why the upstream could not be reached: the network's code, or its TLS certificate refused and why. */
export function whyUnreachable(upstream: UpstreamProxy, error: NodeJS.ErrnoException): string {
  const code = error.code ?? error.message;
  if (!upstream.tls || !isCertificateError(code)) return code;
  const trusted = upstream.caFile
    ? `Wrench trusts the public CAs and ${upstream.caFile} (sandbox.setupCaFile)`
    : 'Wrench trusts the public CAs; a company CA goes in sandbox.setupCaFile';
  // Node's own advice after the reason (`; if the root CA is installed locally, …`) is about Node, not Wrench.
  return `its TLS certificate was refused, ${error.message.split(';')[0]} (${code}): ${trusted}`;
}

function isCertificateError(code: string): boolean {
  return /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS_CERT_ALTNAME_INVALID/.test(code);
}

/** `407 Proxy Authentication Required` from `HTTP/1.1 407 Proxy Authentication Required`, kept short and printable. */
function statusOf(head: string): { code: number; line: string } | undefined {
  const match = /^HTTP\/1\.[01] (\d{3})(?: ([^\r\n]*))?/.exec(head);
  if (!match) return undefined;
  return { code: Number(match[1]), line: upstreamStatusLine(Number(match[1]), match[2]) };
}

/** The upstream's status as a refusal names it: the code and its reason phrase, printable and at most 80 characters. */
export function upstreamStatusLine(code: number, reason: string | undefined): string {
  const phrase = (reason ?? '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, 80);
  return phrase ? `${code} ${phrase}` : String(code);
}

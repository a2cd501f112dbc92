import { lookup as dnsLookup } from 'node:dns/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { connect, isIP } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { isNonPublicAddress, METADATA_ADDRESS } from './blocked-addresses.js';
import { type EgressPolicy, matchDestination, normaliseHost } from './egress-policy.js';
import { bypassesUpstream, connectToUpstream, tunnelThroughUpstream, type UpstreamProxy, upstreamStatusLine, whyUnreachable } from './upstream-proxy.js';

export interface EgressRefusal {
  host: string;
  port: number;
  /**
   * `not-allowed`: the host is not in the allow list; `non-public-address`: it resolved to loopback, private, link-local
   * or metadata; `upstream-refused`: the operator's upstream proxy answered with an error status (`upstreamAnswer`);
   * `upstream-unreachable`: the upstream proxy could not be reached (`upstreamAnswer`: why).
   */
  reason: 'not-allowed' | 'non-public-address' | 'upstream-refused' | 'upstream-unreachable';
  /** The resolved address that was refused (non-public-address). */
  address?: string;
  /** The upstream proxy, `host:port` without credentials, and where it was set (`HTTPS_PROXY`): upstream reasons only. */
  upstream?: string;
  upstreamSetting?: string;
  /** The upstream's status line (`407 Proxy Authentication Required`) or why it could not be reached (`ECONNREFUSED`). */
  upstreamAnswer?: string;
  /** Attempts refused (the same host, port and reason are recorded once). */
  attempts: number;
}

export interface EgressProxy {
  /** The Unix socket the proxy listens on; its directory is bound into the sandbox. */
  readonly socketPath: string;
  /** Refused destinations so far, in the order first refused. */
  readonly refusals: readonly EgressRefusal[];
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  policy: EgressPolicy;
  /** Called once per refused host, port and reason. */
  onRefused?: (refusal: EgressRefusal) => void;
  /** Name resolution, the host's resolver by default. */
  lookup?: (host: string) => Promise<string[]>;
  limits?: EgressLimits;
  /** Called once, the first time a connection is closed because `maxConnections` were open. */
  onCapped?: (maxConnections: number) => void;
  /** The operator's proxy allowed destinations go through (unless its `noProxy` names them); none: directly. */
  upstream?: UpstreamProxy;
}

/**
 * What one sandboxed command may hold of Wrench's own process through its proxy, so that one setup step cannot take the
 * descriptors the process serving Slack needs: connections at once (each holds two descriptors, the command's end and
 * the destination's; one more is closed at once), and how long one may stay with no traffic either way.
 */
export interface EgressLimits {
  maxConnections: number;
  idleMs: number;
}

export const DEFAULT_EGRESS_LIMITS: EgressLimits = { maxConnections: 128, idleMs: 120_000 };

const CONNECT_TIMEOUT_MS = 30_000;

/** One line saying why a destination was refused, for the log, the run page and the thread. */
export function describeRefusal(
  refusal: Pick<EgressRefusal, 'host' | 'port' | 'reason' | 'address' | 'upstream' | 'upstreamSetting' | 'upstreamAnswer'>,
): string {
  const target = `${refusal.host}:${refusal.port}`;
  if (refusal.reason === 'not-allowed') return `${target}: not in the egress allow list (sandbox.egress.allow)`;
  const upstream = `the upstream proxy ${refusal.upstream} (${refusal.upstreamSetting})`;
  if (refusal.reason === 'upstream-refused') return `${target}: ${upstream} answered ${refusal.upstreamAnswer}`;
  if (refusal.reason === 'upstream-unreachable') return `${target}: ${upstream} could not be reached (${refusal.upstreamAnswer})`;
  const kind = refusal.address === METADATA_ADDRESS ? 'the cloud metadata address' : 'not a public address (loopback, private or link-local)';
  return `${target}: resolves to ${refusal.address}, ${kind}`;
}

/**
 * An HTTP proxy on a Unix socket (CONNECT tunnels and plain-HTTP absolute-form requests) that lets a sandboxed step
 * reach only what its policy allows. Names are resolved here, on the host, and the connection goes to the very
 * address that was checked, so a name that resolves (or rebinds) to 127.0.0.1 gets nowhere. With an operator's
 * upstream proxy (`options.upstream`), an allowed and checked destination is asked of that proxy by name instead.
 */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wrench-egress-'));
  const socketPath = path.join(dir, 'proxy.sock');
  const refusals: EgressRefusal[] = [];
  const open = new Set<Duplex>();
  const resolve = options.lookup ?? defaultLookup;
  const limits = { ...DEFAULT_EGRESS_LIMITS, ...options.limits };

  const track = (socket: Duplex) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const refuse = (refusal: Omit<EgressRefusal, 'attempts'>): string => {
    const known = refusals.find((r) => r.host === refusal.host && r.port === refusal.port && r.reason === refusal.reason);
    if (known) known.attempts++;
    else {
      const added = { ...refusal, attempts: 1 };
      refusals.push(added);
      options.onRefused?.(added);
    }
    return `Wrench egress proxy refused ${describeRefusal(refusal)}\n`;
  };

  const upstream = options.upstream;
  /** The upstream to go through for this destination, or none: directly to the checked address. */
  const upstreamFor = (host: string, port: number) => (upstream && !bypassesUpstream(upstream.noProxy, host, port) ? upstream : undefined);
  /** The address to connect to, or the reason not to. */
  const admit = async (rawHost: string, port: number): Promise<Verdict> => {
    const host = normaliseHost(rawHost);
    const match = matchDestination(options.policy, host, port);
    if (match === 'not-allowed') return { refused: refuse({ host, port, reason: 'not-allowed' }) };
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await resolve(host);
    } catch {
      // Where only the operator's proxy resolves public names, and the operator said so: the name goes to it unchecked.
      if (upstreamFor(host, port)?.resolvesNames) return { host, address: undefined };
      return { failed: `Wrench egress proxy could not resolve ${host}\n` };
    }
    const blocked = match === 'public-only' ? addresses.find(isNonPublicAddress) : undefined;
    if (blocked) return { refused: refuse({ host, port, reason: 'non-public-address', address: blocked }) };
    const [address] = addresses;
    if (address === undefined) return { failed: `Wrench egress proxy could not resolve ${host}\n` };
    return { address, host };
  };
  const refuseUpstream = (host: string, port: number, via: UpstreamProxy, outcome: { refused: string } | { unreachable: string }) =>
    refuse({
      host,
      port,
      reason: 'refused' in outcome ? 'upstream-refused' : 'upstream-unreachable',
      upstream: via.display,
      upstreamSetting: via.setting,
      upstreamAnswer: 'refused' in outcome ? outcome.refused : outcome.unreachable,
    });

  const server = createServer(
    (req, res) =>
      void forwardPlainHttp(req, res, admit, (host, port) => {
        const via = upstreamFor(host, port);
        return via && { via, onRefused: (outcome) => refuseUpstream(host, port, via, outcome) };
      }),
  );
  // Beyond the cap, Node closes a new connection as soon as it is accepted: it holds no descriptor.
  server.maxConnections = limits.maxConnections;
  let capped = false;
  server.on('drop', () => {
    if (!capped) options.onCapped?.(limits.maxConnections);
    capped = true;
  });
  server.on('connection', (socket: Duplex & { setTimeout(ms: number): void }) => {
    track(socket);
    // Traffic either way through a tunnel or a request passes this socket, so its idleness is the connection's.
    socket.setTimeout(limits.idleMs);
    socket.on('timeout', () => socket.destroy());
  });
  server.on('connect', async (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const target = parseAuthority(req.url ?? '');
    if (!target) return void client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nCONNECT needs host:port\n');
    const verdict = await admit(target.host, target.port);
    if ('refused' in verdict) return void client.end(statusLine(403, 'Forbidden', verdict.refused));
    if ('failed' in verdict) return void client.end(statusLine(502, 'Bad Gateway', verdict.failed));
    const via = upstreamFor(verdict.host, target.port);
    if (via) {
      const tunnel = await tunnelThroughUpstream(via, verdict.host, target.port, CONNECT_TIMEOUT_MS);
      if (!('socket' in tunnel)) return void client.end(statusLine(502, 'Bad Gateway', refuseUpstream(verdict.host, target.port, via, tunnel)));
      track(tunnel.socket);
      return void join(client, tunnel.socket, head, tunnel.rest);
    }
    if (verdict.address === undefined) return void client.end(statusLine(502, 'Bad Gateway', `Wrench egress proxy could not resolve ${verdict.host}\n`));
    const destination = connect({ host: verdict.address, port: target.port, timeout: CONNECT_TIMEOUT_MS });
    track(destination);
    destination.once('timeout', () => destination.destroy());
    destination.once('error', () => client.end(statusLine(502, 'Bad Gateway', `Wrench egress proxy could not connect to ${target.host}:${target.port}\n`)));
    destination.once('connect', () => {
      destination.setTimeout(0);
      join(client, destination, head);
    });
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolveListen());
  });
  return {
    socketPath,
    refusals,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Allowed (`address` undefined: unresolved, for the upstream to resolve), refused, or failed. */
type Verdict = { address: string | undefined; host: string } | { refused: string } | { failed: string };

/**
 * Answers the CONNECT and pipes the two ends together, each closing the other: `head` is what the client sent after its
 * CONNECT, `early` what the destination sent after the upstream's answer.
 */
function join(client: Duplex, destination: Duplex, head: Buffer, early: Buffer = Buffer.alloc(0)): void {
  if (client.destroyed) return void destination.destroy();
  client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  if (early.length > 0) client.write(early);
  if (head.length > 0) destination.write(head);
  destination.pipe(client);
  client.pipe(destination);
  client.on('close', () => destination.destroy());
  destination.on('close', () => client.destroy());
}

async function defaultLookup(host: string): Promise<string[]> {
  return (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

function statusLine(code: number, text: string, body: string): string {
  return `HTTP/1.1 ${code} ${text}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const [, host, portText] = /^(\[[0-9a-fA-F:.]+\]|[^:/\s]+):(\d{1,5})$/.exec(authority) ?? [];
  if (host === undefined) return undefined;
  const port = Number(portText);
  return port > 0 && port < 65536 ? { host, port } : undefined;
}

const HOP_BY_HOP = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade']);

/** Where a plain-HTTP request goes after its check: through the upstream proxy (told of its refusals), or directly. */
type PlainHttpRoute = (
  host: string,
  port: number,
) => { via: UpstreamProxy; onRefused: (outcome: { refused: string } | { unreachable: string }) => string } | undefined;

/**
 * `GET http://host/path` through the proxy: checked like a tunnel, then sent on to the checked address, or to the
 * upstream proxy in absolute form with its credentials (its 407 is a refusal: the client never sees its challenge).
 */
async function forwardPlainHttp(
  req: IncomingMessage,
  res: ServerResponse,
  admit: (host: string, port: number) => Promise<Verdict>,
  route: PlainHttpRoute,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    return void res.writeHead(400, { 'content-type': 'text/plain' }).end('Wrench egress proxy: only absolute http:// URLs and CONNECT\n');
  }
  if (url.protocol !== 'http:') return void res.writeHead(400, { 'content-type': 'text/plain' }).end('Wrench egress proxy: use CONNECT for https\n');
  const port = url.port ? Number(url.port) : 80;
  const verdict = await admit(url.hostname, port);
  if ('refused' in verdict) return void res.writeHead(403, { 'content-type': 'text/plain' }).end(verdict.refused);
  if ('failed' in verdict) return void res.writeHead(502, { 'content-type': 'text/plain' }).end(verdict.failed);
  const headers: Record<string, string | string[] | undefined> = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
  const through = route(verdict.host, port);
  if (!through && verdict.address === undefined)
    return void res.writeHead(502, { 'content-type': 'text/plain' }).end(`Wrench egress proxy could not resolve ${verdict.host}\n`);
  const path = `${url.pathname}${url.search}`;
  const authority = `${isIP(verdict.host) === 6 ? `[${verdict.host}]` : verdict.host}${port === 80 ? '' : `:${port}`}`;
  const badGateway = (text: string) => res.writeHead(502, { 'content-type': 'text/plain' }).end(text);
  let upstreamSocket: Duplex | undefined;
  if (through) {
    // The upstream is asked for the checked name only: a sandbox's own Host header could name another destination.
    headers.host = authority;
    if (through.via.authorization) headers['proxy-authorization'] = through.via.authorization;
    try {
      upstreamSocket = (await connectToUpstream(through.via, CONNECT_TIMEOUT_MS)).socket;
    } catch (error) {
      return void badGateway(through.onRefused({ unreachable: (error as Error).message }));
    }
  }
  const outgoing = httpRequest({
    host: through ? through.via.host : verdict.address,
    port: through ? through.via.port : port,
    method: req.method,
    path: through ? `http://${authority}${path}` : path,
    headers,
    setHost: false,
    timeout: CONNECT_TIMEOUT_MS,
    // To the upstream: its own connection, TLS to an https:// one.
    ...(upstreamSocket ? { createConnection: () => upstreamSocket } : {}),
  });
  outgoing.on('response', (response) => {
    if (through && response.statusCode === 407) {
      response.resume();
      return void badGateway(through.onRefused({ refused: upstreamStatusLine(407, response.statusMessage) }));
    }
    res.writeHead(response.statusCode ?? 502, response.headers);
    response.pipe(res);
  });
  outgoing.on('timeout', () => outgoing.destroy(Object.assign(new Error('timed out'), { code: 'timed out' })));
  outgoing.on('error', (error: NodeJS.ErrnoException) => {
    if (res.headersSent) return void res.destroy();
    if (through) return void badGateway(through.onRefused({ unreachable: whyUnreachable(through.via, error) }));
    badGateway(`Wrench egress proxy could not reach ${url.host}\n`);
  });
  req.pipe(outgoing);
}

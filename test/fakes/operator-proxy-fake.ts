import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { type AddressInfo, connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** One request the proxy received: a `CONNECT host:port` or an absolute-form `GET http://…`, and whether it was let through. */
export interface OperatorProxySeen {
  method: string;
  /** `host:port` of a CONNECT, the absolute URL of any other request. */
  target: string;
  /** The Proxy-Authorization header as it arrived (absent: none). */
  proxyAuthorization?: string;
  /** The status the proxy answered (200 for an established tunnel). */
  status: number;
}

export interface OperatorProxyFake {
  /** `http://user:password@127.0.0.1:port` (`https://` with `tls`), as an operator writes it. */
  url: string;
  port: number;
  seen: OperatorProxySeen[];
  /** Every connection the proxy made onward (tunnels and requests), `host:port`. */
  onward: string[];
  stop(): Promise<void>;
}

/**
 * A company's HTTP proxy on 127.0.0.1: it speaks CONNECT and absolute-form requests, as squid does, and lets only
 * requests with `Proxy-Authorization: Basic base64(user:password)` through (407 with a Basic challenge otherwise).
 * Onward connections leave from `localAddress` (default 127.0.0.3), so a destination can tell what came through it;
 * `hosts` are names only it resolves, as a company proxy resolves public names its clients cannot.
 */
export async function startOperatorProxyFake(options: {
  user: string;
  password: string;
  localAddress?: string;
  /** Names only this proxy resolves (the company's DNS), to the address it connects to. */
  hosts?: Record<string, string>;
  /** Its certificate and key (PEM): spoken to over TLS, as an `https://` proxy is. */
  tls?: { cert: string; key: string };
}): Promise<OperatorProxyFake> {
  const addressOf = (host: string) => options.hosts?.[host] ?? host;
  const expected = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}`;
  const localAddress = options.localAddress ?? '127.0.0.3';
  const seen: OperatorProxySeen[] = [];
  const onward: string[] = [];
  const open = new Set<Duplex>();
  const track = (socket: Duplex) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const challenge = 'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const record: OperatorProxySeen = { method: req.method ?? '', target: req.url ?? '', proxyAuthorization: req.headers['proxy-authorization'], status: 0 };
    seen.push(record);
    if (record.proxyAuthorization !== expected) {
      record.status = 407;
      return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"' }).end();
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      record.status = 400;
      return void res.writeHead(400).end('absolute-form only');
    }
    const { 'proxy-authorization': _credentials, 'proxy-connection': _connection, ...headers } = req.headers;
    const port = Number(url.port || 80);
    onward.push(`${url.hostname}:${port}`);
    const outgoing = httpRequest({ host: addressOf(url.hostname), port, localAddress, method: req.method, path: `${url.pathname}${url.search}`, headers });
    outgoing.on('response', (response) => {
      record.status = response.statusCode ?? 0;
      res.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(res);
    });
    outgoing.on('error', () => {
      record.status = 502;
      if (!res.headersSent) res.writeHead(502).end();
    });
    req.pipe(outgoing);
  };
  const server = options.tls ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, handle) : createServer(handle);
  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const record: OperatorProxySeen = { method: 'CONNECT', target: req.url ?? '', proxyAuthorization: req.headers['proxy-authorization'], status: 0 };
    seen.push(record);
    if (record.proxyAuthorization !== expected) {
      record.status = 407;
      return void client.end(challenge);
    }
    const colon = record.target.lastIndexOf(':');
    const host = record.target.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
    const port = Number(record.target.slice(colon + 1));
    onward.push(`${host}:${port}`);
    const destination = connect({ host: addressOf(host), port, localAddress });
    track(destination);
    destination.once('error', () => {
      record.status = 502;
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    destination.once('connect', () => {
      record.status = 200;
      client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      if (head.length > 0) destination.write(head);
      destination.pipe(client);
      client.pipe(destination);
      client.on('close', () => destination.destroy());
      destination.on('close', () => client.destroy());
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://${encodeURIComponent(options.user)}:${encodeURIComponent(options.password)}@127.0.0.1:${port}`,
    port,
    seen,
    onward,
    async stop() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

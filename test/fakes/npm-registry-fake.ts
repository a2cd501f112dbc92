import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface NpmRegistryFake {
  /** `npm_config_registry` for the real npm client. */
  url: string;
  /** Every request's path, in order. */
  requests: string[];
  /** The address each request came from, in the same order (a proxy's address when it came through one). */
  clients: string[];
  stop(): Promise<void>;
}

/**
 * The npm registry's read API for package documents (`GET /<name>`, `GET /@scope%2fname`), as `npm view` reads it:
 * the versions listed per package, `dist-tags.latest` the newest, 404 `{"error":"Not found"}` for any other package.
 */
export async function startNpmRegistryFake(
  packages: Record<string, string[]>,
  /** How long each request waits for its answer (a registry under load): a number, or by the request's index from 0. */
  options: { delayMs?: number | ((index: number) => number) /** The loopback address to listen on (default 127.0.0.1). */; host?: string } = {},
): Promise<NpmRegistryFake> {
  const delayOf = (index: number) => (typeof options.delayMs === 'function' ? options.delayMs(index) : (options.delayMs ?? 0));
  const requests: string[] = [];
  const clients: string[] = [];
  const pending = new Set<ServerResponse>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '/';
    const delayMs = delayOf(requests.length);
    requests.push(url);
    clients.push(request.socket.remoteAddress ?? '');
    pending.add(response);
    response.on('close', () => pending.delete(response));
    const answer = () => {
      if (response.destroyed) return;
      const name = decodeURIComponent(url.split('?')[0]?.slice(1) ?? '');
      const versions = request.method === 'GET' ? packages[name] : undefined;
      if (!versions) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
        return;
      }
      const base = `http://${request.headers.host}`;
      const document = {
        _id: name,
        name,
        'dist-tags': { latest: versions.at(-1) },
        versions: Object.fromEntries(
          versions.map((version) => [
            version,
            { name, version, dist: { tarball: `${base}/${name}/-/${name.split('/').at(-1)}-${version}.tgz`, shasum: '0'.repeat(40) } },
          ]),
        ),
        time: Object.fromEntries(versions.map((version) => [version, '2026-01-01T00:00:00.000Z'])),
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
    };
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/`,
    requests,
    clients,
    stop: async () => {
      for (const response of pending) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

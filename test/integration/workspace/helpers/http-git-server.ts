import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HttpGitServer {
  /** GIT_BASE_URL for the repositories under the project root. */
  url: string;
  /** Every request seen, with whether its Authorization header was the expected one. */
  requests: { method: string; path: string; authorized: boolean }[];
  close(): Promise<void>;
}

/**
 * Smart-HTTP git over `git http-backend`, answering 401 to any request without the expected Authorization header
 * (or one the check refuses, e.g. an expired installation token; it gets the request path too).
 */
export async function startHttpGitServer(
  projectRoot: string,
  expectedAuthorization: string | ((header: string | undefined, path: string) => boolean),
): Promise<HttpGitServer> {
  const requests: HttpGitServer['requests'] = [];
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const authorized =
      typeof expectedAuthorization === 'function'
        ? expectedAuthorization(req.headers.authorization, url.pathname)
        : req.headers.authorization === expectedAuthorization;
    requests.push({ method: req.method ?? 'GET', path: url.pathname, authorized });
    if (!authorized) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
      res.end();
      return;
    }
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: 'x-access-token',
        REMOTE_ADDR: '127.0.0.1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        CONTENT_LENGTH: String(body.length),
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      },
    });
    // git may exit before reading all of the body (a refused push): that is its answer, not a crash of the server.
    child.stdin.on('error', () => undefined);
    child.stdin.end(body);
    const out: Buffer[] = [];
    for await (const chunk of child.stdout) out.push(chunk as Buffer);
    const raw = Buffer.concat(out);
    const split = raw.indexOf('\r\n\r\n');
    const headerText = raw.subarray(0, split).toString('latin1');
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of headerText.split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else if (name) headers[name] = value;
    }
    res.writeHead(status, headers);
    res.end(raw.subarray(split + 4));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

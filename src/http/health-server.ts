import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Worker processes have no Slack receiver; they still answer GET /healthz on PORT for orchestrators. */
export async function startHealthServer(port: number, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/healthz') return handler(req, res);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'not_found', message: 'This is a Wrench worker: only GET /healthz is served here.' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return server;
}

import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Worker processes have no Slack receiver; they still answer GET /healthz (and GET /metrics) on PORT. */
export async function startHealthServer(port: number, routes: Record<string, Handler>): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const route = req.method === 'GET' ? routes[req.url?.split('?')[0] ?? ''] : undefined;
    if (route) return route(req, res);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'not_found', message: `This is a Wrench worker: only GET ${Object.keys(routes).join(', ')} are served here.` }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return server;
}

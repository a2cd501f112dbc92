import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { runPageHandlers } from '../../../handlers/run-page.js';

/** The run-page handlers on 127.0.0.1, routed as the service routes them: `/runs/:id` and `/runs/:id/events`. */
export async function serveRunPages(handlers: ReturnType<typeof runPageHandlers>): Promise<{ base: string; close(): void }> {
  const web = http.createServer((req, res) => {
    const match = /^\/runs\/([^/?]+)(\/events)?/.exec(req.url ?? '');
    Object.assign(req, { params: { id: match?.[1] ?? '' } });
    if (match?.[2]) handlers.events(req, res);
    else handlers.page(req, res);
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(web.address() as AddressInfo).port}`, close: () => web.close() };
}

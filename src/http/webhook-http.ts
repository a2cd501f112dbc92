import type { IncomingMessage, ServerResponse } from 'node:http';

/** A webhook's JSON answer; nothing when an answer was already sent. */
export function replyJson(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** One value of a request header, at most 200 characters (longer is treated as absent). */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first && first.length <= 200 ? first : undefined;
}

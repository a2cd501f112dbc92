import type { IncomingMessage } from 'node:http';
import { WrenchError } from '../errors.js';

/** Reads a request body up to a limit; past it, a 413-coded error rather than unbounded memory. */
export async function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limitBytes) {
    req.resume();
    throw new WrenchError('body_too_large', `The request body is larger than ${limitBytes} bytes.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) {
      req.resume();
      throw new WrenchError('body_too_large', `The request body is larger than ${limitBytes} bytes.`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

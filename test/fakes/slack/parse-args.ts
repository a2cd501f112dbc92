import type { IncomingMessage } from 'node:http';
import type { SlackArgs } from './types.js';

/** Arguments the Web API takes as JSON text inside form bodies. */
const JSON_VALUED = new Set(['blocks', 'attachments', 'view', 'files', 'metadata', 'unfurls', 'user_auth_blocks', 'chunks', 'loading_messages']);

export interface ParsedRequest {
  args: SlackArgs;
  token: string | undefined;
  /** Binary parts of a multipart body, by field name. */
  binaries: Record<string, Buffer>;
}

/** Reads Web API arguments from a query string plus a form, JSON or multipart body. */
export async function parseSlackRequest(req: IncomingMessage, raw: Buffer, query: URLSearchParams): Promise<ParsedRequest> {
  const args: SlackArgs = Object.fromEntries(query);
  const binaries: Record<string, Buffer> = {};
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/json') && raw.length > 0) {
    Object.assign(args, JSON.parse(raw.toString('utf8')) as SlackArgs);
  } else if (type.includes('multipart/form-data')) {
    const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    for (const [key, value] of form.entries()) {
      if (typeof value === 'string') args[key] = value;
      else binaries[key] = Buffer.from(await value.arrayBuffer());
    }
  } else if (raw.length > 0) {
    Object.assign(args, Object.fromEntries(new URLSearchParams(raw.toString('utf8'))));
  }
  for (const key of Object.keys(args)) args[key] = decodeJsonValue(key, args[key]);
  const bearer = /^Bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
  const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
  delete args.token;
  return { args, token, binaries };
}

function decodeJsonValue(key: string, value: unknown): unknown {
  if (!JSON_VALUED.has(key) || typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

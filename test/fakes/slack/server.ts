import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson, sendText } from '../shared/http.js';
import type { SlackFailureQueue } from './failures.js';
import type { MethodHandler, SlackState } from './methods/context.js';
import { chatMethods } from './methods/chat.js';
import { conversationMethods } from './methods/conversations.js';
import { fileMethods } from './methods/files.js';
import { identityMethods } from './methods/identity.js';
import { reactionMethods } from './methods/reactions.js';
import { streamingMethods } from './methods/streaming.js';
import { viewMethods } from './methods/views.js';
import { openIdAuthorize, openIdMethods, TOKENLESS_METHODS } from './openid.js';
import { parseSlackRequest } from './parse-args.js';
import { SlackApiError, type SlackCall, type SlackFailure } from './types.js';

const METHODS: Record<string, MethodHandler> = {
  ...chatMethods,
  ...conversationMethods,
  ...fileMethods,
  ...identityMethods,
  ...reactionMethods,
  ...streamingMethods,
  ...viewMethods,
  ...openIdMethods,
};

export interface SlackServerDeps {
  state: SlackState;
  calls: SlackCall[];
  failures: SlackFailureQueue;
  /** When set, only these tokens are accepted (others get `invalid_auth`). */
  tokens?: string[];
  /** How long each Web API method takes to answer, as a round trip to slack.com does (0: at once). */
  latencyMs?: (method: string) => number;
  /** A method held: its calls are answered once the promise settles. */
  held?: (method: string) => Promise<unknown> | undefined;
}

export function slackRequestHandler(deps: SlackServerDeps) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    const apiMethod = /^\/api\/([\w.]+)$/.exec(url.pathname)?.[1];
    const upload = /^\/upload\/v1\/(\w+)$/.exec(url.pathname)?.[1];
    if (apiMethod) return answerMethod(deps, apiMethod, req, res, raw, url.searchParams);
    if (url.pathname === '/openid/connect/authorize' && req.method === 'GET') return openIdAuthorize(deps.state, url.searchParams, res);
    if (upload) return acceptUpload(deps, upload, req, res, raw);
    const download = /^\/files-pri\/[A-Z0-9]+-(\w+)\/[^/]+$/.exec(url.pathname)?.[1];
    if (download && req.method === 'GET') return serveFile(deps, download, req, res);
    if (url.pathname.startsWith('/response/') && req.method === 'POST') {
      const args = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
      deps.calls.push({ method: 'response_url', args: { ...args, url: url.pathname }, token: undefined, at: Date.now(), status: 200 });
      return sendJson(res, 200, { ok: true });
    }
    sendJson(res, 404, { ok: false, error: 'unknown_method' });
  };
}

async function answerMethod(
  deps: SlackServerDeps,
  method: string,
  req: IncomingMessage,
  res: ServerResponse,
  raw: Buffer,
  query: URLSearchParams,
): Promise<void> {
  const { args, token } = await parseSlackRequest(req, raw, query);
  const call: SlackCall = { method, args, token, at: Date.now(), status: 200 };
  deps.calls.push(call);
  const latency = deps.latencyMs?.(method) ?? 0;
  if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
  await deps.held?.(method)?.catch(() => undefined);
  const failure = deps.failures.take(method);
  if (failure) return sendFailure(res, call, failure);
  const authError = TOKENLESS_METHODS.has(method)
    ? undefined
    : !token
      ? 'not_authed'
      : deps.tokens && !deps.tokens.includes(token) && !deps.state.openid.tokens.has(token)
        ? 'invalid_auth'
        : undefined;
  if (authError) {
    call.error = authError;
    return sendJson(res, 200, { ok: false, error: authError });
  }
  const handler = METHODS[method];
  if (!handler) {
    // As Slack answers a misspelt or unsupported method: a test calling one fails instead of passing silently.
    call.error = 'unknown_method';
    return sendJson(res, 200, { ok: false, error: 'unknown_method' });
  }
  try {
    sendJson(res, 200, { ok: true, ...handler(args, deps.state, token) });
  } catch (error) {
    if (!(error instanceof SlackApiError)) throw error;
    call.error = error.code;
    sendJson(res, 200, { ok: false, error: error.code, ...error.extra });
  }
}

function sendFailure(res: ServerResponse, call: SlackCall, failure: SlackFailure): void {
  if ('error' in failure) {
    call.error = failure.error;
    return sendJson(res, 200, { ok: false, error: failure.error, ...failure.extra });
  }
  call.status = failure.status;
  if (failure.status === 429) {
    call.error = 'ratelimited';
    const retryAfter = 'retryAfter' in failure ? (failure.retryAfter ?? 1) : 1;
    return sendJson(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(retryAfter) });
  }
  sendText(res, failure.status, 'body' in failure && failure.body ? failure.body : 'fake failure');
}

/** url_private downloads need `Authorization: Bearer <token>`; without it Slack answers with its login page. */
function serveFile(deps: SlackServerDeps, id: string, req: IncomingMessage, res: ServerResponse): void {
  const token = /^Bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
  const file = deps.state.hostedFiles.get(id);
  const allowed = !!token && (!deps.tokens || deps.tokens.includes(token));
  deps.calls.push({ method: 'file_download', args: { file_id: id }, token, at: Date.now(), status: allowed && file ? 200 : allowed ? 404 : 302 });
  if (!allowed) {
    res.writeHead(302, { location: `${deps.state.baseUrl}/?redir=login`, 'content-type': 'text/html' });
    res.end('<html>Sign in to Slack</html>');
    return;
  }
  if (!file) return sendText(res, 404, 'file not found');
  res.writeHead(200, { 'content-type': file.mimetype, 'content-length': String(file.bytes.length) });
  res.end(file.bytes);
}

async function acceptUpload(deps: SlackServerDeps, id: string, req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
  const pending = deps.state.pendingFiles.get(id);
  if (!pending) return sendText(res, 404, 'upload url expired or unknown');
  const { args, binaries } = await parseSlackRequest(req, raw, new URLSearchParams());
  const firstBinary = Object.values(binaries)[0];
  const isForm = String(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
  const formText = typeof args.body === 'string' ? args.body : typeof args.file === 'string' ? args.file : undefined;
  pending.bytes = firstBinary ?? (isForm && formText !== undefined ? Buffer.from(formText) : raw);
  deps.calls.push({
    method: 'upload',
    args: { file_id: id, filename: pending.filename, length: pending.bytes.length },
    token: undefined,
    at: Date.now(),
    status: 200,
  });
  sendText(res, 200, `OK - ${pending.bytes.length}`);
}

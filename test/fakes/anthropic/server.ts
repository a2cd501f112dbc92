import type { IncomingMessage, ServerResponse } from 'node:http';
import { flatHeaders, readBody, sendJson } from '../shared/http.js';
import { messageId } from './builders.js';
import { errorBody, requestId } from './error-body.js';
import type { PromptCache } from './prompt-cache.js';
import { estimateTokens } from './prompt-segments.js';
import { requestProblem } from './request-checks.js';
import type { RateLimits } from './rate-limits.js';
import type { ScriptPlayer } from './script-player.js';
import { startEventStream, writeEvent, writeMessageBody, writeMessageStart, type StreamedMessage } from './sse.js';
import { isScriptError, type AssistantReply, type RecordedRequest, type ScriptError } from './types.js';

const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

export interface AnthropicServerDeps {
  player: ScriptPlayer;
  cache: PromptCache;
  requests: RecordedRequest[];
  countTokenRequests: RecordedRequest[];
  apiKey?: string;
  validate: boolean;
  /** Enforce the API's rate limits and send their headers (none by default). */
  rateLimits?: RateLimits;
}

export function anthropicRequestHandler(deps: AnthropicServerDeps) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const raw = await readBody(req);
    if (req.method !== 'POST' || (path !== '/v1/messages' && path !== '/v1/messages/count_tokens')) {
      return sendError(res, 404, `anthropic-fake: no route for ${req.method} ${path}`);
    }
    // The API's request size limit (32 MB on the standard endpoints) is checked before the body is read as JSON.
    if (raw.length > MAX_REQUEST_BYTES) return sendError(res, 413, 'Request exceeds the maximum allowed number of bytes.');
    let body: Record<string, any>;
    try {
      body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, any>;
    } catch {
      return sendError(res, 400, 'There was an error parsing the body of your request as JSON');
    }
    const headers = flatHeaders(req);
    const apiKey = headers['x-api-key'] ?? /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
    const recorded: RecordedRequest = { path, headers, body, apiKey, stream: body.stream === true, at: Date.now() };
    if (path.endsWith('/count_tokens')) deps.countTokenRequests.push(recorded);
    else deps.requests.push(recorded);

    if (!apiKey) return sendError(res, 401, 'x-api-key header is required');
    if (deps.apiKey && apiKey !== deps.apiKey) return sendError(res, 401, 'invalid x-api-key');
    const problem = deps.validate ? requestProblem(path.endsWith('/count_tokens') ? { max_tokens: 0, ...body } : body) : undefined;
    if (problem) return sendError(res, 400, problem);
    if (path.endsWith('/count_tokens')) return sendJson(res, 200, { input_tokens: estimateTokens(body) });

    const model = String(body.model);
    const billed = deps.cache.bill(body);
    if (deps.rateLimits) {
      const admitted = deps.rateLimits.admit(model, {
        inputTokens: billed.input_tokens + billed.cache_creation_input_tokens,
        maxTokens: Number(body.max_tokens) || 0,
      });
      if (!admitted.ok) {
        const what = admitted.dimension === 'requests' ? 'Number of requests' : `Number of ${admitted.dimension.replace('-', ' ')}`;
        return sendJson(res, 429, errorBody(429, `This request would exceed your organization's rate limit. ${what} has exceeded your per-minute rate limit`), {
          'request-id': requestId(),
          'retry-after': String(Math.ceil(admitted.retryAfterMs / 1000)),
          ...deps.rateLimits.headers(model),
        });
      }
    }
    const reply = await deps.player.next(recorded);
    if (!reply) return sendExhausted(res, deps, recorded);
    if (isScriptError(reply)) return sendScriptedError(res, reply, recorded.stream, deps.rateLimits?.headers(model));
    await sendReply(res, deps, recorded, reply, billed);
  };
}

async function sendReply(
  res: ServerResponse,
  deps: AnthropicServerDeps,
  request: RecordedRequest,
  reply: AssistantReply,
  billed: ReturnType<PromptCache['bill']>,
): Promise<void> {
  const message: StreamedMessage = {
    id: reply.id ?? messageId(),
    model: reply.model ?? String(request.body.model),
    content: reply.content,
    stop_reason: reply.stop_reason ?? (reply.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: reply.stop_sequence ?? null,
    usage: { ...billed, output_tokens: estimateTokens(reply.content), service_tier: 'standard', ...reply.usage },
  };
  if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  // The output estimated from max_tokens is adjusted when the answer is done.
  const model = String(request.body.model);
  deps.rateLimits?.adjustOutput(model, Number(request.body.max_tokens) || 0, message.usage.output_tokens);
  const limits = deps.rateLimits?.headers(model) ?? {};
  if (!request.stream) {
    return sendJson(res, 200, { type: 'message', role: 'assistant', ...message }, { 'request-id': requestId(), ...limits });
  }
  startEventStream(res, requestId(), limits);
  writeMessageStart(res, message);
  writeMessageBody(res, message);
  res.end();
}

function sendScriptedError(res: ServerResponse, error: ScriptError, stream: boolean, limits: Record<string, string> = {}): void {
  const body = error.body ?? errorBody(error.status);
  if (error.duringStream && stream) {
    startEventStream(res, requestId());
    const payload = typeof body === 'object' && body ? (body as Record<string, unknown>) : { error: { type: 'api_error', message: String(body) } };
    writeEvent(res, 'error', { error: payload.error });
    res.end();
    return;
  }
  sendJson(res, error.status, body, { 'request-id': requestId(), ...limits, ...error.headers });
}

function sendExhausted(res: ServerResponse, deps: AnthropicServerDeps, request: RecordedRequest): void {
  const lastUser = [...(request.body.messages ?? [])].reverse().find((m: any) => m?.role === 'user');
  const preview = JSON.stringify(lastUser?.content ?? '').slice(0, 200);
  const message =
    `anthropic-fake: the script ran out: request #${deps.requests.length} has no scripted response ` +
    `(${deps.player.total} item(s) were scripted). Last user content: ${preview}. Add replies with fake.push(...).`;
  sendJson(res, 500, errorBody(500, message), { 'x-should-retry': 'false' });
}

function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, errorBody(status, message), { 'x-should-retry': 'false' });
}

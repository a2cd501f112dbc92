import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { Middleware } from '@anthropic-ai/sdk';
import type { Result } from 'ioredis';
import type { Metrics } from '../metrics/metrics.js';
import type { RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    reserveModelBudget(window: string, state: string, line: string, seen: string, ...args: (string | number)[]): Result<[number, string], Context>;
    leaveModelBudgetLine(line: string, seen: string, id: string): Result<number, Context>;
    countSpentElsewhere(window: string, state: string, ...args: (string | number)[]): Result<number[], Context>;
    settleModelBudget(window: string, reserved: string, settled: string): Result<number, Context>;
    pauseModelBudget(state: string, ms: number, ttlMs: number): Result<number, Context>;
  }
}

/** The Redis server's clock in milliseconds, as `now`: every worker's window is timed by the same clock. */
const REDIS_NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** The limit in force for a dimension: the lower of the configured one and the one learnt from the API (KEYS[2]). */
const LIMIT_OF = `
local function limit(configured, field)
  local c = tonumber(configured)
  local l = tonumber(redis.call('HGET', KEYS[2], field) or '0')
  if c > 0 and l > 0 then return math.min(c, l) end
  if c > 0 then return c end
  return l
end
`;

/**
 * One sliding window per model, shared by every process through Redis: a sorted set of the calls made in the last
 * `window` ms, each member `id|requests|inputTokens|outputTokens` (1 request; more for spending seen elsewhere), scored by the Redis server's clock (one clock for a fleet
 * on many hosts). A call is admitted when the requests, input and output tokens of the window, plus what the calls
 * waiting ahead of it need, plus its own stay within every limit (the configured one, or the one learnt from the
 * API's headers, whichever is lower); otherwise it joins the waiting line (KEYS[3], scored by arrival; KEYS[4] when
 * each waiter last asked, so a waiter that stopped asking leaves the line) and the answer is how long until enough
 * of the window's calls leave it. First come, first served: a large call is not starved by small ones that would
 * fit sooner. A pause (a 429's retry-after) holds everyone.
 */
const RESERVE = `
${REDIS_NOW}local window = tonumber(ARGV[1])
local stale = tonumber(ARGV[8])
${LIMIT_OF}local limits = {limit(ARGV[5], 'requests'), limit(ARGV[6], 'input'), limit(ARGV[7], 'output')}
local need = {1, tonumber(ARGV[3]), tonumber(ARGV[4])}
for d = 1, 3 do if limits[d] > 0 and need[d] > limits[d] then need[d] = limits[d] end end
local member = ARGV[2] .. '|1|' .. need[2] .. '|' .. need[3]
-- The waiting line: this call joins it (keeping its first place); waiters that stopped asking leave it.
redis.call('ZADD', KEYS[3], 'NX', now, ARGV[2])
redis.call('HSET', KEYS[4], ARGV[2], now .. '|' .. need[2] .. '|' .. need[3])
local seen = redis.call('HGETALL', KEYS[4])
local needs = {}
for i = 1, #seen, 2 do
  local at, input, output = string.match(seen[i + 1], '^(%d+)|(%d+)|(%d+)$')
  if tonumber(at) < now - stale then
    redis.call('ZREM', KEYS[3], seen[i])
    redis.call('HDEL', KEYS[4], seen[i])
  else
    needs[seen[i]] = {tonumber(input), tonumber(output)}
  end
end
redis.call('PEXPIRE', KEYS[3], stale + window)
redis.call('PEXPIRE', KEYS[4], stale + window)
local paused = tonumber(redis.call('HGET', KEYS[2], 'pausedUntil') or '0')
if paused > now then return {paused - now, 'paused'} end
local used = {0, 0, 0}
local ahead = redis.call('ZRANGE', KEYS[3], 0, -1)
for _, waiter in ipairs(ahead) do
  if waiter == ARGV[2] then break end
  local n = needs[waiter]
  if n then
    used[1] = used[1] + 1
    used[2] = used[2] + n[1]
    used[3] = used[3] + n[2]
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local calls = {}
for i = 1, #entries, 2 do
  local requests, input, output = string.match(entries[i], '|(%d+)|(%d+)|(%d+)$')
  local call = {tonumber(entries[i + 1]), tonumber(requests), tonumber(input), tonumber(output)}
  calls[#calls + 1] = call
  for d = 1, 3 do used[d] = used[d] + call[d + 1] end
end
local names = {'requests', 'input tokens', 'output tokens'}
local wait, spent = 0, ''
for d = 1, 3 do
  if limits[d] > 0 and used[d] + need[d] > limits[d] then
    local over = used[d] + need[d] - limits[d]
    local freed = 0
    -- Without enough calls in the window to free, the waiters ahead go first: ask again soon.
    local w = math.max(1, math.min(250, math.floor(window / 20)))
    for _, call in ipairs(calls) do
      freed = freed + call[d + 1]
      if freed >= over then
        w = math.max(1, call[1] + window - now)
        break
      end
    end
    if w > wait then wait, spent = w, names[d] end
  end
end
if wait > 0 then return {wait, spent} end
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[2])
redis.call('ZADD', KEYS[1], now, member)
redis.call('PEXPIRE', KEYS[1], window + 1000)
return {0, member}
`;

/**
 * What the API says is left (ARGV[5..7]: requests, input, output; -1 unknown) against what the window says is left:
 * when the API has less, someone else spends the same limit (another program on the API key), and the difference
 * joins the window as one entry of spending seen elsewhere, counted for a window. Token counts are rounded by the API
 * to the nearest thousand, so only a difference past ARGV[8] tokens counts.
 */
const OUTSIDE = `
${REDIS_NOW}local window = tonumber(ARGV[1])
${LIMIT_OF}local limits = {limit(ARGV[2], 'requests'), limit(ARGV[3], 'input'), limit(ARGV[4], 'output')}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local entries = redis.call('ZRANGE', KEYS[1], 0, -1)
local used = {0, 0, 0}
for _, entry in ipairs(entries) do
  local requests, input, output = string.match(entry, '|(%d+)|(%d+)|(%d+)$')
  used[1] = used[1] + tonumber(requests)
  used[2] = used[2] + tonumber(input)
  used[3] = used[3] + tonumber(output)
end
local extra = {0, 0, 0}
local any = false
for d = 1, 3 do
  local api = tonumber(ARGV[4 + d])
  local tolerance = d == 1 and 0 or tonumber(ARGV[8])
  if limits[d] > 0 and api >= 0 then
    local ours = limits[d] - used[d]
    if api + tolerance < ours then
      extra[d] = ours - api
      any = true
    end
  end
end
if any then
  redis.call('ZADD', KEYS[1], now, 'elsewhere:' .. now .. ':' .. ARGV[9] .. '|' .. extra[1] .. '|' .. extra[2] .. '|' .. extra[3])
  redis.call('PEXPIRE', KEYS[1], window + 1000)
end
return extra
`;

/** Takes a call that gives up waiting out of the line. */
const LEAVE = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
`;

/** Replaces a call's estimate by what it used, keeping its place in the window. */
const SETTLE = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[1], score, ARGV[2])
return 1
`;

/** Holds every caller until the Redis clock passes now + ARGV[1] (never shortens a longer pause). */
const PAUSE = `
${REDIS_NOW}local until_ = now + tonumber(ARGV[1])
local paused = tonumber(redis.call('HGET', KEYS[1], 'pausedUntil') or '0')
if until_ > paused then redis.call('HSET', KEYS[1], 'pausedUntil', until_) end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return until_
`;

export interface ModelBudgetLimits {
  /** Per window (a minute); 0: none configured (a limit learnt from the API's headers still applies). */
  requestsPerMinute: number;
  inputTokensPerMinute: number;
  outputTokensPerMinute: number;
  /** How long one model call may wait for the budget before it fails with ModelBudgetSpent. */
  maxWaitSeconds: number;
}

export interface ModelBudgetOptions {
  /** The window the limits count in; 60 s, as the API's limits. Shorter in tests. */
  windowMs?: number;
  /**
   * How much longer than the window a call is counted (default a twentieth of it, at most 1 s): the API counts a call
   * when it arrives, a little after its reservation, and a call reserved late may arrive sooner than one before it.
   */
  marginMs?: number;
  metrics?: Metrics;
  /** How long learnt limits are kept without a new answer saying them again (default a day). */
  learntTtlMs?: number;
}

/** What one model call may say about its budget (set with `withModelCall`). */
export interface ModelCallScope {
  /** Wait at most this long (ms) for the budget; below the budget's own maximum. */
  maxWaitMs?: number;
  /** An estimate of the input tokens the API will count (uncached input and cache writes); else from the body. */
  inputTokens?: number;
  /** Each wait before an attempt of this call, in ms, and what was spent (`requests`, `input tokens`, `output tokens`, `paused`). */
  onWait?: (ms: number, spent: string) => void;
}

/**
 * A model call would wait longer for the shared budget than it may. (Its name must not say "timeout": the SDK takes
 * an error whose text matches /timed? ?out/ for a connection timeout and retries it.)
 */
export class ModelBudgetSpent extends Error {
  constructor(
    readonly model: string,
    readonly waitedMs: number,
    readonly spent: string,
  ) {
    super(`The fleet's model budget for ${model} (${spent}) stayed spent: the call would have waited more than ${Math.round(waitedMs / 1000)} s.`);
    this.name = 'ModelBudgetSpent';
  }
}

const scope = new AsyncLocalStorage<ModelCallScope>();

/** A waiter asks again at least this often, and leaves the line when it has not asked for STALE_WAITER_MS. */
const POLL_MS = 5_000;
const STALE_WAITER_MS = 15_000;

/** Runs `call` (a Messages API call) with `options` for the budget middleware of its client. */
export function withModelCall<T>(options: ModelCallScope, call: () => Promise<T>): Promise<T> {
  return scope.run(options, call);
}

/** The rate limits one Anthropic answer states (`anthropic-ratelimit-*-limit`), and a 429's `retry-after` in ms. */
export function rateLimitHeaders(
  headers: Headers,
  status: number,
): {
  requests?: number;
  input?: number;
  output?: number;
  retryAfterMs?: number;
  /** What `anthropic-ratelimit-*-remaining` says is left. */
  remaining: { requests?: number; input?: number; output?: number };
} {
  const number = (name: string, zero = false) => {
    const text = headers.get(name);
    const value = Number(text ?? Number.NaN);
    return text !== null && text.trim() !== '' && Number.isFinite(value) && (value > 0 || (zero && value === 0)) ? value : undefined;
  };
  let retryAfterMs: number | undefined;
  if (status === 429) {
    const seconds = Number(headers.get('retry-after') ?? Number.NaN);
    const date = Date.parse(headers.get('retry-after') ?? '');
    if (Number.isFinite(seconds) && seconds > 0) retryAfterMs = seconds * 1000;
    else if (Number.isFinite(date)) retryAfterMs = Math.max(0, date - Date.now());
  }
  return {
    requests: number('anthropic-ratelimit-requests-limit'),
    input: number('anthropic-ratelimit-input-tokens-limit'),
    output: number('anthropic-ratelimit-output-tokens-limit'),
    retryAfterMs,
    remaining: {
      requests: number('anthropic-ratelimit-requests-remaining', true),
      input: number('anthropic-ratelimit-input-tokens-remaining', true),
      output: number('anthropic-ratelimit-output-tokens-remaining', true),
    },
  };
}

/**
 * The fleet's model rate budget: before each Messages API attempt a process reserves one request, an estimate of the
 * input tokens and `max_tokens` of output (the API estimates output the same way) in the model's shared window, and
 * waits while the window has no room; after the answer the estimate is replaced by the usage. Limits come from
 * config and from the API's `anthropic-ratelimit-*-limit` headers (the lower wins); a 429's `retry-after` pauses every
 * process's calls to that model, not only the caller's.
 */
export class ModelBudget {
  /** The window plus the margin. */
  private readonly windowMs: number;
  private readonly learntTtlMs: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly limits: ModelBudgetLimits,
    private readonly options: ModelBudgetOptions = {},
  ) {
    const windowMs = options.windowMs ?? 60_000;
    this.windowMs = windowMs + (options.marginMs ?? Math.min(1000, windowMs / 20));
    this.learntTtlMs = options.learntTtlMs ?? 86_400_000;
    redis.defineCommand('reserveModelBudget', { numberOfKeys: 4, lua: RESERVE });
    redis.defineCommand('leaveModelBudgetLine', { numberOfKeys: 2, lua: LEAVE });
    redis.defineCommand('countSpentElsewhere', { numberOfKeys: 2, lua: OUTSIDE });
    redis.defineCommand('settleModelBudget', { numberOfKeys: 1, lua: SETTLE });
    redis.defineCommand('pauseModelBudget', { numberOfKeys: 1, lua: PAUSE });
  }

  private keys(model: string) {
    return redisKeys(this.prefix).modelBudget(model);
  }

  /**
   * Waits until the model's window has room for this call and takes it; returns the member to settle. Throws
   * ModelBudgetSpent when the wait would pass `maxWaitMs`, and the signal's reason when it aborts the wait.
   */
  async reserve(
    model: string,
    need: { inputTokens: number; outputTokens: number },
    call: { signal?: AbortSignal | null; maxWaitMs?: number; onWait?: ModelCallScope['onWait'] } = {},
  ): Promise<{ member: string; waitedMs: number }> {
    const keys = this.keys(model);
    const id = `${Date.now()}:${randomBytes(6).toString('hex')}`;
    const maxWaitMs = Math.min(call.maxWaitMs ?? Number.POSITIVE_INFINITY, this.limits.maxWaitSeconds * 1000);
    const started = Date.now();
    let spent = '';
    let waiting = false;
    try {
      for (;;) {
        call.signal?.throwIfAborted();
        const [wait, answer] = await this.redis.reserveModelBudget(
          keys.window,
          keys.state,
          keys.line,
          keys.waiting,
          this.windowMs,
          id,
          Math.max(0, Math.ceil(need.inputTokens)),
          Math.max(0, Math.ceil(need.outputTokens)),
          this.limits.requestsPerMinute,
          this.limits.inputTokensPerMinute,
          this.limits.outputTokensPerMinute,
          STALE_WAITER_MS,
        );
        const waitedMs = Date.now() - started;
        if (Number(wait) === 0) {
          this.options.metrics?.modelBudgetWait.observe({ model }, waitedMs / 1000);
          if (waitedMs > 0 && spent) call.onWait?.(waitedMs, spent);
          return { member: answer, waitedMs };
        }
        spent = answer;
        if (!waiting) {
          waiting = true;
          this.options.metrics?.modelBudgetWaiting.inc({ model });
        }
        if (waitedMs + Number(wait) > maxWaitMs) {
          this.options.metrics?.modelBudgetWait.observe({ model }, waitedMs / 1000);
          throw new ModelBudgetSpent(model, waitedMs + Number(wait), spent);
        }
        // Asks again at least every few seconds to keep its place in the line, with a little jitter so the waiters of
        // a fleet do not all ask in the same millisecond.
        await sleep(Math.min(Number(wait), POLL_MS) + Math.floor(Math.random() * 20), call.signal ?? undefined);
      }
    } catch (error) {
      // Cancelled, given up or failed while waiting: out of the line at once, so it holds nobody.
      await this.leave(model, id);
      throw error;
    } finally {
      if (waiting) this.options.metrics?.modelBudgetWaiting.dec({ model });
    }
  }

  private async leave(model: string, id: string): Promise<void> {
    const keys = this.keys(model);
    await this.redis.leaveModelBudgetLine(keys.line, keys.waiting, id).catch(() => undefined);
  }

  /** Replaces a reservation's estimate by the tokens the API counted (the request stays counted). */
  async settle(model: string, member: string, used: { inputTokens: number; outputTokens: number }): Promise<void> {
    const id = member.split('|')[0];
    await this.redis.settleModelBudget(
      this.keys(model).window,
      member,
      `${id}|1|${Math.max(0, Math.round(used.inputTokens))}|${Math.max(0, Math.round(used.outputTokens))}`,
    );
  }

  /**
   * Keeps the limits an answer states, pauses everyone's calls to the model for a 429's retry-after, and counts what
   * the API says is spent beyond what the window knows of (another program on the same key) for a window.
   */
  async learn(model: string, headers: Headers, status: number): Promise<void> {
    const stated = rateLimitHeaders(headers, status);
    const state = this.keys(model).state;
    const fields: Record<string, number> = {};
    if (stated.requests) fields.requests = stated.requests;
    if (stated.input) fields.input = stated.input;
    if (stated.output) fields.output = stated.output;
    if (Object.keys(fields).length > 0) {
      await this.redis.hset(state, fields);
      await this.redis.pexpire(state, this.learntTtlMs);
    }
    if (stated.retryAfterMs !== undefined && stated.retryAfterMs > 0) await this.pause(model, stated.retryAfterMs);
    const { remaining } = stated;
    if (status < 300 && (remaining.requests !== undefined || remaining.input !== undefined || remaining.output !== undefined)) {
      await this.redis.countSpentElsewhere(
        this.keys(model).window,
        state,
        this.windowMs,
        this.limits.requestsPerMinute,
        this.limits.inputTokensPerMinute,
        this.limits.outputTokensPerMinute,
        remaining.requests ?? -1,
        remaining.input ?? -1,
        remaining.output ?? -1,
        500,
        randomBytes(4).toString('hex'),
      );
    }
  }

  /** Holds every process's calls to `model` for `ms`. */
  async pause(model: string, ms: number): Promise<void> {
    await this.redis.pauseModelBudget(this.keys(model).state, Math.ceil(ms), Math.max(this.learntTtlMs, Math.ceil(ms) + 1000));
  }

  /** The limits learnt from the API's headers for `model` (absent: none learnt yet). */
  async learnt(model: string): Promise<{ requests?: number; input?: number; output?: number; pausedUntil?: number }> {
    const fields = await this.redis.hgetall(this.keys(model).state);
    const value = (name: string) => (fields[name] === undefined ? undefined : Number(fields[name]));
    return { requests: value('requests'), input: value('input'), output: value('output'), pausedUntil: value('pausedUntil') };
  }

  /**
   * The client middleware: every attempt of a Messages API call (the SDK's retries included) reserves its share of
   * the budget first and settles it from the answer's usage; every answer's headers are learnt from.
   */
  middleware(): Middleware {
    return async (request, next, ctx) => {
      const body = ctx.options?.body as { model?: unknown; max_tokens?: unknown; stream?: unknown } | undefined;
      const path = ctx.options?.path ?? '';
      if (!path.startsWith('/v1/messages') || path.startsWith('/v1/messages/') || typeof body?.model !== 'string') return next(request);
      const model = body.model;
      const call = scope.getStore() ?? {};
      const inputTokens = call.inputTokens ?? estimateInputTokens(body);
      const outputTokens = typeof body.max_tokens === 'number' ? body.max_tokens : 4096;
      let member: string;
      try {
        ({ member } = await this.reserve(model, { inputTokens, outputTokens }, { signal: request.signal, maxWaitMs: call.maxWaitMs, onWait: call.onWait }));
      } catch (error) {
        if (error instanceof ModelBudgetSpent || request.signal?.aborted) throw error;
        // Redis cannot be asked: the call goes on without the budget rather than failing (the API still has its say).
        ctx.logger.warn('model budget: Redis could not be asked; calling the model without the budget', error);
        return next(request);
      }
      let response: Response;
      try {
        response = await next(request);
      } catch (error) {
        // Never reached the API, or no answer: the request stays counted, its tokens are given back.
        await this.settle(model, member, { inputTokens: 0, outputTokens: 0 }).catch(() => undefined);
        throw error;
      }
      await this.learn(model, response.headers, response.status).catch((error) => ctx.logger.warn('model budget: could not learn the rate limits', error));
      let used = { inputTokens: 0, outputTokens: 0 };
      if (response.ok && body.stream !== true) {
        const message = (await ctx.parse(response).catch(() => undefined)) as { usage?: Record<string, number> } | undefined;
        const usage = message?.usage;
        if (usage) used = { inputTokens: (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0), outputTokens: usage.output_tokens ?? 0 };
        else used = { inputTokens, outputTokens };
      } else if (response.ok) used = { inputTokens, outputTokens };
      await this.settle(model, member, used).catch(() => undefined);
      return response;
    };
  }
}

/** About four characters a token, over the request's JSON (its system, tools and messages). */
export function estimateInputTokens(body: unknown): number {
  return Math.ceil(JSON.stringify(body ?? '').length / 4);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

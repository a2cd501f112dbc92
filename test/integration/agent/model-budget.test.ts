import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runAgent, type AgentEvent } from '../../../src/agent/agent-loop.js';
import { taskReportSchema } from '../../../src/agent/finish-tool.js';
import { ModelBudget, ModelBudgetSpent, withModelCall, type ModelBudgetLimits } from '../../../src/agent/model-budget.js';
import { readWithModel } from '../../../src/instruction/model-reader.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createMetrics } from '../../../src/metrics/metrics.js';
import { errorResponse, startAnthropicFake, textResponse, type AnthropicFake, type RecordedRequest } from '../../fakes/anthropic-fake.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { uniqueName } from '../../helpers/unique-name.js';

const MODEL = 'claude-sonnet-5-5';
const logger = createLogger({ level: 'silent' });
const NO_LIMITS: ModelBudgetLimits = { requestsPerMinute: 0, inputTokensPerMinute: 0, outputTokensPerMinute: 0, maxWaitSeconds: 120 };

/** Most requests the fake received in any window of `windowMs` (by arrival time). */
function busiestWindow(requests: RecordedRequest[], windowMs: number): number {
  const times = requests.map((r) => r.at).sort((a, b) => a - b);
  let most = 0;
  for (let i = 0; i < times.length; i++) most = Math.max(most, times.filter((t) => t >= times[i]! && t < times[i]! + windowMs).length);
  return most;
}

/**
 * The fleet's shared model budget against a real Redis and the Messages API fake enforcing the API's rate limits:
 * each "worker" has its own Redis connection, ModelBudget and SDK client (no retries, so a 429 would fail the call).
 */
describe('the fleet model budget (Redis)', () => {
  let server: RedisServer;
  let fake: AnthropicFake;
  const connections: Redis[] = [];

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterEach(async () => {
    await fake?.stop();
  });
  afterAll(async () => {
    for (const connection of connections) connection.disconnect();
    await server?.stop();
  });

  function worker(prefix: string, limits: ModelBudgetLimits, windowMs: number, metrics = createMetrics()) {
    const redis = new Redis(server.url);
    connections.push(redis);
    // A margin above the default twentieth of a short window: on a loaded machine a call can reach the fake 100 ms after its reservation.
    const budget = new ModelBudget(redis, prefix, limits, { windowMs, marginMs: Math.min(200, windowMs / 5), metrics });
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.url, maxRetries: 0, middleware: [budget.middleware()] });
    return { budget, client, metrics };
  }

  const ask = (client: Anthropic, options: { signal?: AbortSignal; max_tokens?: number } = {}) =>
    client.messages.create({ model: MODEL, max_tokens: options.max_tokens ?? 100, messages: [{ role: 'user', content: 'hi' }] }, { signal: options.signal });

  it('three workers sharing 4 requests a window make at most 4 calls a window, and none is refused', async () => {
    const windowMs = 1000;
    fake = await startAnthropicFake(
      Array.from({ length: 12 }, () => textResponse('ok')),
      { rateLimits: { requests: 4, windowMs } },
    );
    const prefix = uniqueName('budget');
    const limits = { ...NO_LIMITS, requestsPerMinute: 4 };
    const workers = [worker(prefix, limits, windowMs), worker(prefix, limits, windowMs), worker(prefix, limits, windowMs)];
    const started = Date.now();
    // The calls waiting for the budget now, as each process's /metrics says them (the autoscaler reads it).
    const waitingNow = async () =>
      (await Promise.all(workers.map(async (w) => (await w.metrics.modelBudgetWaiting.get()).values.reduce((sum, v) => sum + v.value, 0)))).reduce(
        (a, b) => a + b,
        0,
      );
    let mostWaiting = 0;
    const sampler = setInterval(() => void waitingNow().then((n) => (mostWaiting = Math.max(mostWaiting, n))), 20);
    const answers = await Promise.allSettled(workers.flatMap((w) => Array.from({ length: 4 }, () => ask(w.client))));
    clearInterval(sampler);
    // 12 calls for 4 a window: 8 waited at first; every wait is over once all are answered.
    expect(mostWaiting).toBeGreaterThanOrEqual(4);
    expect(mostWaiting).toBeLessThanOrEqual(8);
    expect(await waitingNow()).toBe(0);
    expect(answers.filter((a) => a.status === 'rejected')).toEqual([]);
    expect(fake.rateLimited()).toBe(0);
    expect(fake.requests).toHaveLength(12);
    // 12 calls at 4 a window: the last 4 cannot start before two windows have passed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * windowMs - 50);
    // A few ms of slack between the fake's clock and Redis's.
    expect(busiestWindow(fake.requests, windowMs - 20)).toBeLessThanOrEqual(4);
    const waits = await Promise.all(workers.map((w) => w.metrics.registry.getSingleMetricAsString('wrench_model_budget_wait_seconds')));
    const counted = waits.map((text) => Number(/wrench_model_budget_wait_seconds_count\{model="claude-sonnet-5-5"\} (\d+)/.exec(text)?.[1]));
    expect(counted).toEqual([4, 4, 4]);
    const sums = waits.map((text) => Number(/wrench_model_budget_wait_seconds_sum\{model="claude-sonnet-5-5"\} ([\d.]+)/.exec(text)?.[1]));
    expect(sums.reduce((a, b) => a + b, 0)).toBeGreaterThan(1);
    const check = spawnSync('promtool', ['check', 'metrics'], { input: await workers[0]!.metrics.registry.metrics(), encoding: 'utf8' });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('three worker processes sharing 4 requests a window: at most 4 calls a window, none refused', async () => {
    const windowMs = 1000;
    fake = await startAnthropicFake(
      Array.from({ length: 12 }, () => textResponse('ok')),
      { rateLimits: { requests: 4, windowMs } },
    );
    const script = fileURLToPath(new URL('./helpers/model-budget-worker.ts', import.meta.url));
    const args = JSON.stringify({
      redisUrl: server.url,
      prefix: uniqueName('budget'),
      fakeUrl: fake.url,
      calls: 4,
      windowMs,
      marginMs: 200,
      limits: { ...NO_LIMITS, requestsPerMinute: 4 },
    });
    const run = promisify(execFile);
    const outputs = await Promise.all([0, 1, 2].map(() => run(process.execPath, ['--import', 'tsx', script, args], { env: process.env })));
    const results = outputs.map(({ stdout }) => JSON.parse(stdout) as { answered: number; refused: string[] });
    expect(results).toEqual([0, 1, 2].map(() => ({ answered: 4, refused: [] })));
    expect(fake.rateLimited()).toBe(0);
    expect(new Set(fake.requests.map((r) => r.body.messages[0].content)).size).toBe(3);
    expect(busiestWindow(fake.requests, windowMs - 20)).toBeLessThanOrEqual(4);
  });

  it('without the budget the same fleet is refused by the API (what the budget prevents)', async () => {
    const windowMs = 1000;
    fake = await startAnthropicFake(
      Array.from({ length: 12 }, () => textResponse('ok')),
      { rateLimits: { requests: 4, windowMs } },
    );
    const clients = [0, 1, 2].map(() => new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.url, maxRetries: 0 }));
    const answers = await Promise.allSettled(clients.flatMap((client) => Array.from({ length: 4 }, () => ask(client))));
    expect(answers.filter((a) => a.status === 'rejected').length).toBeGreaterThan(0);
    expect(fake.rateLimited()).toBeGreaterThan(0);
  });

  it("learns the limits from the answers' headers and keeps the fleet under them", async () => {
    const windowMs = 1000;
    fake = await startAnthropicFake(
      Array.from({ length: 9 }, () => textResponse('ok')),
      { rateLimits: { requests: 3, inputTokens: 50_000, outputTokens: 8_000, windowMs } },
    );
    const prefix = uniqueName('budget');
    const a = worker(prefix, NO_LIMITS, windowMs);
    const b = worker(prefix, NO_LIMITS, windowMs);
    await ask(a.client);
    expect(await b.budget.learnt(MODEL)).toMatchObject({ requests: 3, input: 50_000, output: 8_000 });
    const answers = await Promise.allSettled([...Array.from({ length: 4 }, () => ask(a.client)), ...Array.from({ length: 4 }, () => ask(b.client))]);
    expect(answers.filter((x) => x.status === 'rejected')).toEqual([]);
    expect(fake.rateLimited()).toBe(0);
    expect(busiestWindow(fake.requests, windowMs - 20)).toBeLessThanOrEqual(3);
  });

  it('counts what the headers say another program spent on the same limits, so the fleet is not refused for it', async () => {
    const windowMs = 1000;
    fake = await startAnthropicFake(
      Array.from({ length: 7 }, () => textResponse('ok')),
      { rateLimits: { requests: 4, windowMs } },
    );
    // Another program on the same API key, outside the budget, spends 3 of the 4 requests.
    const outside = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.url, maxRetries: 0 });
    await Promise.all([ask(outside), ask(outside), ask(outside)]);
    const a = worker(uniqueName('budget'), NO_LIMITS, windowMs);
    await ask(a.client);
    // The answer said 0 requests remaining where the window knew of 1 of 4: the 3 spent elsewhere count for a window.
    const started = Date.now();
    const answers = await Promise.allSettled([ask(a.client), ask(a.client), ask(a.client)]);
    expect(answers.filter((x) => x.status === 'rejected')).toEqual([]);
    expect(fake.rateLimited()).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(windowMs / 2);
  });

  it('counts output as max_tokens until the answer, then as used: an output limit spaces large requests', async () => {
    const windowMs = 1000;
    fake = await startAnthropicFake(
      Array.from({ length: 4 }, () => ({ ...textResponse('ok'), delayMs: 200 })),
      { rateLimits: { outputTokens: 1000, windowMs } },
    );
    const prefix = uniqueName('budget');
    const a = worker(prefix, { ...NO_LIMITS, outputTokensPerMinute: 1000 }, windowMs);
    const b = worker(prefix, { ...NO_LIMITS, outputTokensPerMinute: 1000 }, windowMs);
    // Two calls of max_tokens 600 cannot both be in flight: the second waits for the first's window to pass.
    const [first, second] = await Promise.all([ask(a.client, { max_tokens: 600 }), ask(b.client, { max_tokens: 600 })]);
    expect(first.content[0]).toMatchObject({ text: 'ok' });
    expect(second.content[0]).toMatchObject({ text: 'ok' });
    expect(fake.rateLimited()).toBe(0);
    // Settled to the few tokens used: two small calls now fit at once.
    const before = Date.now();
    await Promise.all([ask(a.client, { max_tokens: 100 }), ask(b.client, { max_tokens: 100 })]);
    expect(Date.now() - before).toBeLessThan(windowMs / 2);
    expect(fake.rateLimited()).toBe(0);
  });

  it('first come, first served: a large call is not starved by small ones that keep fitting before it', async () => {
    fake = await startAnthropicFake([]);
    const prefix = uniqueName('budget');
    const limits = { ...NO_LIMITS, outputTokensPerMinute: 1000 };
    const hog = worker(prefix, limits, 600);
    const big = worker(prefix, limits, 600);
    // Another worker keeps the window busy with small calls (300 output tokens) one after another.
    let hogging = true;
    const hogCalls: number[] = [];
    const hogLoop = (async () => {
      while (hogging) {
        await hog.budget.reserve(MODEL, { inputTokens: 0, outputTokens: 300 });
        hogCalls.push(Date.now());
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const asked = Date.now();
    const admitted = await big.budget.reserve(MODEL, { inputTokens: 0, outputTokens: 1000 }, { maxWaitMs: 5000 }).finally(() => {
      hogging = false;
    });
    await hogLoop;
    // Admitted once the window drained of the calls made or waiting before it asked (about two windows of 720 ms
    // with the margin); without the line it waits while the other's calls keep fitting, until it gives up after 5 s.
    expect(admitted.waitedMs).toBeLessThan(3000);
    expect(Date.now() - asked).toBeLessThan(3000);
    expect(hogCalls.length).toBeGreaterThan(2);
  });

  it("a 429's retry-after holds every worker, not only the one refused", async () => {
    fake = await startAnthropicFake([errorResponse(429, { 'retry-after': '1' }), textResponse('after the pause')]);
    const prefix = uniqueName('budget');
    const a = worker(prefix, NO_LIMITS, 60_000);
    const b = worker(prefix, NO_LIMITS, 60_000);
    await expect(ask(a.client)).rejects.toBeInstanceOf(Anthropic.RateLimitError);
    const waits: Array<[number, string]> = [];
    const answer = await withModelCall({ onWait: (ms, spent) => waits.push([ms, spent]) }, () => ask(b.client));
    expect(answer.content[0]).toMatchObject({ text: 'after the pause' });
    const [refused, next] = fake.requests;
    expect(next!.at - refused!.at).toBeGreaterThanOrEqual(900);
    expect(waits).toHaveLength(1);
    expect(waits[0]![1]).toBe('paused');
    expect(waits[0]![0]).toBeGreaterThanOrEqual(800);
  });

  it('cancelling the run interrupts a wait for the budget', async () => {
    fake = await startAnthropicFake([textResponse('first'), textResponse('never asked')]);
    const prefix = uniqueName('budget');
    const a = worker(prefix, { ...NO_LIMITS, requestsPerMinute: 1 }, 30_000);
    await ask(a.client);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    await expect(ask(a.client, { signal: controller.signal })).rejects.toBeInstanceOf(Anthropic.APIUserAbortError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(fake.requests).toHaveLength(1);
  });

  it('a cancelled waiter leaves the line: the next call is not held behind it', async () => {
    fake = await startAnthropicFake([]);
    const prefix = uniqueName('budget');
    const a = worker(prefix, { ...NO_LIMITS, requestsPerMinute: 1 }, 800);
    const b = worker(prefix, { ...NO_LIMITS, requestsPerMinute: 1 }, 800);
    await a.budget.reserve(MODEL, { inputTokens: 0, outputTokens: 0 });
    const controller = new AbortController();
    const cancelled = a.budget.reserve(MODEL, { inputTokens: 0, outputTokens: 0 }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await expect(cancelled).rejects.toThrow();
    // Had it stayed in line ahead, b would wait until it counted as gone (15 s).
    const next = await b.budget.reserve(MODEL, { inputTokens: 0, outputTokens: 0 }, { maxWaitMs: 5000 });
    expect(next.waitedMs).toBeLessThan(1500);
  });

  it('a wait longer than the call may wait fails at once with what was spent', async () => {
    fake = await startAnthropicFake([textResponse('first')]);
    const a = worker(uniqueName('budget'), { ...NO_LIMITS, requestsPerMinute: 1 }, 30_000);
    await ask(a.client);
    const started = Date.now();
    const failure = withModelCall({ maxWaitMs: 1000 }, () => ask(a.client));
    await expect(failure).rejects.toBeInstanceOf(ModelBudgetSpent);
    await expect(failure).rejects.toThrow(/claude-sonnet-5-5 \(requests\)/);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('the model reader does not wait past its time limit for a spent budget: the rules decide at once', async () => {
    fake = await startAnthropicFake([textResponse('first')]);
    const a = worker(uniqueName('budget'), { ...NO_LIMITS, requestsPerMinute: 1 }, 30_000);
    await a.client.messages.create({ model: 'claude-haiku-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    const started = Date.now();
    const outcome = await readWithModel('add tests for src/a.ts', [], { client: a.client, model: 'claude-haiku-5-5', timeoutMs: 4000, logger });
    expect(outcome.reading.readBy).toBe('rules');
    expect(outcome.fallback).toBe('would have waited past 4000 ms for the model budget');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(fake.requests).toHaveLength(1);
  });

  it('a Redis that cannot be asked does not fail the call: it goes to the API without the budget', async () => {
    fake = await startAnthropicFake([textResponse('answered anyway')]);
    const redis = new Redis(server.url);
    const budget = new ModelBudget(redis, uniqueName('budget'), { ...NO_LIMITS, requestsPerMinute: 1 });
    redis.disconnect();
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.url, maxRetries: 0, middleware: [budget.middleware()], logLevel: 'off' });
    const answer = await ask(client);
    expect(answer.content[0]).toMatchObject({ text: 'answered anyway' });
  });

  it("the agent loop's turn shows how long it waited for the budget, apart from the model's answer time", async () => {
    fake = await startAnthropicFake([textResponse('first'), textResponse('done')]);
    const prefix = uniqueName('budget');
    const other = worker(prefix, { ...NO_LIMITS, requestsPerMinute: 1 }, 1000);
    const a = worker(prefix, { ...NO_LIMITS, requestsPerMinute: 1 }, 1000);
    await ask(other.client);
    const client = a.client;
    const events: AgentEvent[] = [];
    const result = await runAgent({
      client,
      model: MODEL,
      system: 's',
      task: 't',
      tools: [],
      report: { schema: taskReportSchema, description: 'd' },
      budget: { maxSteps: 5, maxMillis: 60_000, maxCostUsd: 10, maxTokens: 1e9 },
      onEvent: (event) => events.push(event),
    });
    expect(result.finalText).toBe('done');
    const turn = events.find((e) => e.type === 'usage')?.turn;
    // Another worker's call took the window's one request: this turn waited for it to pass (about 1 s).
    expect(turn?.budgetWaitMs).toBeGreaterThanOrEqual(700);
    expect(turn?.latencyMs).toBeLessThan(500);
  });
});

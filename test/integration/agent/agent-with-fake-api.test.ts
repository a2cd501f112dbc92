import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { runAgent } from '../../../src/agent/agent-loop.js';
import { taskReportSchema } from '../../../src/agent/finish-tool.js';
import { errorResponse, startAnthropicFake, textResponse, toolUseResponse, type AnthropicFake } from '../../fakes/anthropic-fake.js';

const budget = { maxSteps: 10, maxMillis: 60_000, maxCostUsd: 10, maxTokens: 1e9 };

describe('the agent loop against the Messages API (fake) with the real SDK', () => {
  let fake: AnthropicFake;
  beforeAll(async () => {
    fake = await startAnthropicFake();
  });
  afterAll(async () => {
    await fake.stop();
  });

  const client = (maxRetries = 4) => new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.url, maxRetries });
  const run = (anthropic: Anthropic, signal?: AbortSignal) =>
    runAgent({
      client: anthropic,
      model: 'claude-sonnet-5-5',
      system: 's',
      task: 't',
      tools: [],
      report: { schema: taskReportSchema, description: 'd' },
      budget,
      signal,
    });

  it('rides out 429, 529 and 500 with the SDK retries', async () => {
    fake.setScript([errorResponse(429, { 'retry-after': '0' }), errorResponse(529), errorResponse(500), textResponse('all good')]);
    const before = fake.requests.length;
    const result = await run(client());
    expect(result.outcome).toBe('answered');
    expect(result.finalText).toBe('all good');
    expect(fake.requests.length - before).toBe(4);
  });

  it('a persistent failure ends the run with a clear report, not a crash', async () => {
    fake.setScript(Array.from({ length: 3 }, () => errorResponse(529)));
    const result = await run(client(2));
    expect(result.outcome).toBe('stopped');
    expect(result.stop?.code).toBe('model_failed');
    expect(result.stop?.message).toMatch(/HTTP 529/);
  });

  it('cancelling stops a model call in flight within seconds', async () => {
    fake.setScript([{ ...toolUseResponse([{ name: 'finish_task', input: { summary: 'late', verification: 'x' } }]), delayMs: 30_000 }]);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 300);
    const result = await run(client(), controller.signal);
    expect(result.stop?.code).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

import { describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { runAgent, type AgentBudget } from '../../../src/agent/agent-loop.js';
import type { AgentTool } from '../../../src/agent/agent-tool.js';
import { taskReportSchema } from '../../../src/agent/finish-tool.js';
import { finish, scriptedModel, text, toolUse } from '../../helpers/scripted-model.js';

const budget: AgentBudget = { maxSteps: 20, maxMillis: 60_000, maxCostUsd: 10, maxTokens: 10_000_000 };

function echoTool(calls: unknown[] = []): AgentTool {
  return {
    name: 'echo',
    definition: { name: 'echo', description: 'echo', input_schema: { type: 'object', properties: { say: { type: 'string' } } } },
    describe: (input) => ({ key: 'running', command: `echo ${(input as { say: string }).say}` }),
    async execute(input) {
      calls.push(input);
      return { content: `you said ${(input as { say: string }).say}` };
    },
  };
}

const run = (client: Anthropic, extra: Partial<Parameters<typeof runAgent>[0]> = {}) =>
  runAgent({
    client,
    model: 'claude-sonnet-5-5',
    system: 'system prompt',
    task: 'do the task',
    tools: [echoTool()],
    report: { schema: taskReportSchema, description: 'finish' },
    budget,
    ...extra,
  });

describe('runAgent', () => {
  it('runs tool calls in order, returns all results in one user message, and finishes with the report', async () => {
    const calls: unknown[] = [];
    const model = scriptedModel([
      { stop_reason: 'tool_use', content: [...toolUse('echo', { say: 'a' }).content!, ...toolUse('echo', { say: 'b' }).content!] },
      finish('all done', 'npm test: 3 passed'),
    ]);
    const result = await run(model.client, { tools: [echoTool(calls)] });
    expect(result.outcome).toBe('finished');
    expect(result.report).toMatchObject({ summary: 'all done', verification: 'npm test: 3 passed' });
    expect(calls).toEqual([{ say: 'a' }, { say: 'b' }]);
    const second = model.requests[1]!.messages;
    const results = second[second.length - 1]!.content as Anthropic.Messages.ToolResultBlockParam[];
    expect(results.map((r) => r.content)).toEqual(['you said a', 'you said b']);
  });

  it('returns an answer when the model ends its turn without the finish tool', async () => {
    const result = await run(scriptedModel([text('The function is unused.')]).client);
    expect(result).toMatchObject({ outcome: 'answered', finalText: 'The function is unused.' });
  });

  it('sends an invalid report back as a tool error to correct', async () => {
    const model = scriptedModel([toolUse('finish_task', { summary: '' }), finish('fixed')]);
    const result = await run(model.client);
    expect((result.report as { summary: string }).summary).toBe('fixed');
    const error = model.requests[1]!.messages.at(-1)!.content as Anthropic.Messages.ToolResultBlockParam[];
    expect(error[0]).toMatchObject({ is_error: true });
    expect(String(error[0]!.content)).toMatch(/not valid/);
  });

  it('answers unknown tools with an error result instead of failing', async () => {
    const model = scriptedModel([toolUse('nope', {}), finish()]);
    await run(model.client);
    const result = model.requests[1]!.messages.at(-1)!.content as Anthropic.Messages.ToolResultBlockParam[];
    expect(result[0]).toMatchObject({ is_error: true, content: 'Error: no tool named nope.' });
  });

  it('continues after pause_turn without a new user message', async () => {
    const model = scriptedModel([text('thinking...', 'pause_turn'), finish()]);
    const result = await run(model.client);
    expect(result.outcome).toBe('finished');
    expect(model.requests[1]!.messages.at(-1)!.role).toBe('assistant');
  });

  it('continues after max_tokens with text, and retries with more room when a tool call was cut', async () => {
    const cut = { stop_reason: 'max_tokens' as const, content: toolUse('echo', { say: 'x' }).content };
    const model = scriptedModel([text('part one', 'max_tokens'), cut, finish()]);
    const result = await run(model.client);
    expect(result.outcome).toBe('finished');
    expect(JSON.stringify(model.requests[1]!.messages.at(-1)!.content)).toMatch(/cut off/);
    expect(model.requests[2]!.max_tokens).toBe(16384);
  });

  it('stops on refusal, keeping what was done', async () => {
    const result = await run(scriptedModel([text('I cannot help with that', 'refusal')]).client);
    expect(result.outcome).toBe('stopped');
    expect(result.stop?.code).toBe('refused');
  });

  it('clears old tool results when the context window is exceeded, then stops if it happens again', async () => {
    const big = 'y'.repeat(2000);
    const tool: AgentTool = { ...echoTool(), execute: async () => ({ content: big }) };
    const model = scriptedModel([
      toolUse('echo', { say: '1' }),
      toolUse('echo', { say: '2' }),
      toolUse('echo', { say: '3' }),
      { stop_reason: 'model_context_window_exceeded', content: [] },
      { stop_reason: 'model_context_window_exceeded', content: [] },
    ]);
    const result = await run(model.client, { tools: [tool] });
    const afterClear = JSON.stringify(model.requests[4]!.messages);
    expect(afterClear).toContain('[cleared to save context');
    expect(result.stop?.code).toBe('context_exhausted');
  });

  it('enforces the step limit', async () => {
    const model = scriptedModel(Array.from({ length: 10 }, (_, i) => toolUse('echo', { say: String(i) })));
    const result = await run(model.client, { budget: { ...budget, maxSteps: 3 } });
    expect(result.stop?.code).toBe('step_limit');
    expect(model.calls).toBe(3);
  });

  it('enforces the cost cap from usage including cache writes and reads', async () => {
    const expensive = {
      ...toolUse('echo', { say: 'x' }),
      usage: { input_tokens: 100_000, output_tokens: 10_000, cache_creation_input_tokens: 200_000, cache_read_input_tokens: 1_000_000 },
    };
    const model = scriptedModel([expensive, expensive, expensive]);
    const result = await run(model.client, { budget: { ...budget, maxCostUsd: 1 } });
    // one step: 100k*3 + 200k*3.75 + 1M*0.3 + 10k*15 per million = 0.3 + 0.75 + 0.3 + 0.15 = $1.50
    expect(result.costUsd).toBeCloseTo(1.5, 5);
    expect(result.stop?.code).toBe('cost_limit');
    expect(model.calls).toBe(1);
  });

  it('enforces the time budget', async () => {
    let now = 0;
    const model = scriptedModel([toolUse('echo', { say: 'x' }), toolUse('echo', { say: 'y' })]);
    const tool: AgentTool = { ...echoTool(), execute: async () => ((now += 61_000), { content: 'slow' }) };
    const result = await run(model.client, { tools: [tool], now: () => now });
    expect(result.stop?.code).toBe('time_limit');
  });

  it('is cancelled by the signal', async () => {
    const controller = new AbortController();
    const tool: AgentTool = { ...echoTool(), execute: async () => (controller.abort(), { content: 'ok' }) };
    const result = await run(scriptedModel([toolUse('echo', { say: 'x' }), finish()]).client, { tools: [tool], signal: controller.signal });
    expect(result.stop?.code).toBe('cancelled');
  });

  it('turns a persistent API failure into a stop with a clear message', async () => {
    const failure = new Anthropic.InternalServerError(500, { type: 'error', error: { type: 'api_error', message: 'boom' } }, 'boom', new Headers());
    const result = await run(scriptedModel([failure]).client);
    expect(result.stop?.code).toBe('model_failed');
    expect(result.stop?.message).toMatch(/HTTP 500/);
  });

  it('keeps the cached prefix byte-stable and moves the message breakpoints forward', async () => {
    const model = scriptedModel([toolUse('echo', { say: '1' }), toolUse('echo', { say: '2' }), finish()]);
    await run(model.client);
    const [a, b, c] = model.requests;
    expect(JSON.stringify(a!.system)).toBe(JSON.stringify(c!.system));
    expect(JSON.stringify(a!.tools)).toBe(JSON.stringify(c!.tools));
    expect(JSON.stringify(a!.system)).toContain('ephemeral');
    const marks = (r: typeof a) => JSON.stringify(r!.messages).split('"cache_control"').length - 1;
    expect([marks(a), marks(b), marks(c)]).toEqual([1, 2, 2]);
    // The earlier turns are sent exactly as before, apart from the moving breakpoint.
    const strip = (s: string) => s.replace(/,"cache_control":\{"type":"ephemeral"\}/g, '');
    expect(strip(JSON.stringify(c!.messages)).startsWith(strip(JSON.stringify(b!.messages)).slice(0, -1))).toBe(true);
  });

  it('reports each model call’s own tokens and latency beside the running total', async () => {
    const events: Parameters<NonNullable<Parameters<typeof runAgent>[0]['onEvent']>>[0][] = [];
    let clock = 0;
    const model = scriptedModel([
      { ...toolUse('echo', { say: 'hi' }), usage: { input_tokens: 500, output_tokens: 40, cache_read_input_tokens: 300 } },
      { ...finish(), usage: { input_tokens: 70, output_tokens: 9 } },
    ]);
    const client = {
      messages: {
        create: async (...args: Parameters<typeof model.client.messages.create>) => {
          clock += 1500;
          return model.client.messages.create(...args);
        },
      },
    } as unknown as Anthropic;
    await run(client, { onEvent: (e) => e.type === 'usage' && events.push(e), now: () => clock });
    expect(events.map((e) => e.turn)).toEqual([
      { latencyMs: 1500, usage: { inputTokens: 500, outputTokens: 40, cacheReadTokens: 300, cacheWriteTokens: 0 } },
      { latencyMs: 1500, usage: { inputTokens: 70, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0 } },
    ]);
    expect(events.at(-1)?.usage).toEqual({ inputTokens: 570, outputTokens: 49, cacheReadTokens: 300, cacheWriteTokens: 0 });
  });

  it('reports tool events for live status', async () => {
    const events: string[] = [];
    const progress: unknown[] = [];
    await run(scriptedModel([toolUse('echo', { say: 'hi' }), finish()]).client, {
      onEvent: (e) => {
        if (e.type !== 'tool') return;
        events.push(e.detail);
        progress.push(e.progress);
      },
    });
    // The run page's English words, and the typed detail each surface says in its own.
    expect(events).toEqual(['running `echo hi`']);
    expect(progress).toEqual([{ key: 'running', command: 'echo hi' }]);
  });
});

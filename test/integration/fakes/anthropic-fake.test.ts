import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicFake, textResponse, toolUseResponse, type AnthropicFake } from '../../fakes/anthropic-fake.js';

const MODEL = 'claude-sonnet-4-6';

describe('anthropic fake with the real SDK', () => {
  let fake: AnthropicFake;
  let client: Anthropic;

  beforeAll(async () => {
    fake = await startAnthropicFake();
    client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.url, maxRetries: 2 });
  });
  beforeEach(() => {
    fake.setScript([]);
    fake.requests.length = 0;
    fake.clearCache();
  });
  afterAll(() => fake.stop());

  it('answers messages.create with a scripted text reply and records the request', async () => {
    fake.push(textResponse('Hello from the fake'));
    const message = await client.messages.create({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from the fake' }]);
    expect(message).toMatchObject({ role: 'assistant', model: MODEL, stop_reason: 'end_turn', type: 'message' });
    expect(message.id).toMatch(/^msg_/);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(fake.requests[0]!.apiKey).toBe('sk-ant-test');
    expect(fake.requests[0]!.body.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('accepts a Bearer token too', async () => {
    fake.push(textResponse('ok'));
    const bearer = new Anthropic({ authToken: 'oauth-token', apiKey: null, baseURL: fake.url });
    await bearer.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(fake.requests[0]!.apiKey).toBe('oauth-token');
  });

  it('plays a tool_use round trip and lets a function see the tool result', async () => {
    fake.push(toolUseResponse([{ name: 'read_file', input: { path: 'src/a.ts' } }], 'Let me look.'), (request) => {
      const last = request.body.messages.at(-1);
      return textResponse(`file said: ${last.content[0].content}`);
    });
    const tools: Anthropic.Tool[] = [
      { name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
    ];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is in a.ts?' }];
    const first = await client.messages.create({ model: MODEL, max_tokens: 100, tools, messages });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((block) => block.type === 'tool_use');
    expect(use).toMatchObject({ name: 'read_file', input: { path: 'src/a.ts' } });
    expect(use?.id).toMatch(/^toolu_/);
    messages.push({ role: 'assistant', content: first.content });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use!.id, content: 'export const a = 1;' }] });
    const second = await client.messages.create({ model: MODEL, max_tokens: 100, tools, messages });
    expect(second.content[0]).toEqual({ type: 'text', text: 'file said: export const a = 1;' });
  });

  it('refuses a tool_use without its tool_result, as the API does, without using the script', async () => {
    fake.push(textResponse('never sent'));
    const bad: Anthropic.MessageParam[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'x', input: {} }] },
      { role: 'user', content: 'no result here' },
    ];
    await expect(client.messages.create({ model: MODEL, max_tokens: 10, messages: bad })).rejects.toMatchObject({ status: 400 });
    expect(fake.remaining()).toBe(1);
  });

  it('refuses what the newer models dropped (sampling parameters, prefill, a forced tool), as the API does', async () => {
    fake.push(textResponse('never sent'));
    const newer = 'claude-sonnet-5-5';
    const user: Anthropic.MessageParam[] = [{ role: 'user', content: 'hi' }];
    const tools: Anthropic.Tool[] = [{ name: 'answer', input_schema: { type: 'object', properties: {} } }];
    const refused = async (extra: Record<string, unknown>, messages = user) => {
      const error = await client.messages.create({ model: newer, max_tokens: 10, messages, ...extra }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 400 });
      return (error as { error: { error: { message: string } } }).error.error.message;
    };
    expect(await refused({ temperature: 0 })).toBe('`temperature` is deprecated for this model.');
    expect(await refused({ top_p: 1 })).toBe('`top_p` is deprecated for this model.');
    expect(await refused({ top_k: 5 })).toBe('`top_k` is deprecated for this model.');
    expect(await refused({}, [...user, { role: 'assistant', content: '{"category":' }])).toMatch(/does not support assistant message prefill/);
    expect(await refused({ tools, tool_choice: { type: 'tool', name: 'answer' } })).toBe('Thinking may not be enabled when tool_choice forces tool use.');
    expect(await refused({ tools, tool_choice: { type: 'any' } })).toBe('Thinking may not be enabled when tool_choice forces tool use.');
    expect(fake.remaining()).toBe(1);
    // The default temperature, an automatic tool choice, and the older models' controls are still taken
    // (the SDK's types no longer name the sampling parameters; the API still reads them).
    const defaultTemperature = { temperature: 1 };
    await client.messages.create({ model: newer, max_tokens: 10, messages: user, ...defaultTemperature, tools, tool_choice: { type: 'auto' } });
    fake.push(textResponse('older'));
    const olderSampling = { temperature: 0, top_k: 5 };
    await client.messages.create({ model: MODEL, max_tokens: 10, messages: user, ...olderSampling });
    expect(fake.remaining()).toBe(0);
  });

  it('streams the real SSE event sequence, text and tool input', async () => {
    fake.push(toolUseResponse([{ name: 'run', input: { command: 'npm test -- --grep "a long pattern"' } }], 'Running the tests now, one moment.'));
    const stream = await client.messages.create({ model: MODEL, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'test it' }] });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(types.filter((t) => t === 'content_block_start')).toHaveLength(2);
    expect(types.filter((t) => t === 'content_block_delta').length).toBeGreaterThan(2);

    fake.push(toolUseResponse([{ name: 'run', input: { command: 'npm test' } }], 'Running.'));
    const helper = client.messages.stream({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'again' }] });
    const texts: string[] = [];
    helper.on('text', (delta) => texts.push(delta));
    const final = await helper.finalMessage();
    expect(texts.join('')).toBe('Running.');
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content[1]).toMatchObject({ type: 'tool_use', name: 'run', input: { command: 'npm test' } });
    expect(final.usage.output_tokens).toBeGreaterThan(0);
  });

  it('simulates prompt caching across an agent loop', async () => {
    const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: 'You are Wrench. '.repeat(200), cache_control: { type: 'ephemeral' } }];
    const tools: Anthropic.Tool[] = [{ name: 'read_file', description: 'Read a file. '.repeat(50), input_schema: { type: 'object' } }];
    const ask = (messages: Anthropic.MessageParam[]) => client.messages.create({ model: MODEL, max_tokens: 100, system, tools, messages });
    fake.push(textResponse('one'), textResponse('two'), textResponse('three'), textResponse('four'));

    const first = await ask([{ role: 'user', content: 'first question' }]);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    const prefix = first.usage.cache_creation_input_tokens!;
    expect(prefix).toBeGreaterThan(500);

    const second = await ask([{ role: 'user', content: 'a different question' }]);
    expect(second.usage.cache_read_input_tokens).toBe(prefix);
    expect(second.usage.cache_creation_input_tokens).toBe(0);

    const history: Anthropic.MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'turn one '.repeat(100), cache_control: { type: 'ephemeral' } }] },
    ];
    const third = await ask(history);
    expect(third.usage.cache_read_input_tokens).toBe(prefix);
    const turnOne = third.usage.cache_creation_input_tokens!;
    expect(turnOne).toBeGreaterThan(0);

    history[0] = { role: 'user', content: [{ type: 'text', text: 'turn one '.repeat(100) }] };
    history.push(
      { role: 'assistant', content: 'reply' },
      { role: 'user', content: [{ type: 'text', text: 'turn two', cache_control: { type: 'ephemeral' } }] },
    );
    const fourth = await ask(history);
    expect(fourth.usage.cache_read_input_tokens).toBe(prefix + turnOne);
    expect(fourth.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(fourth.usage.input_tokens).toBeGreaterThan(0);
  });

  it('plays scripted errors through the SDK retry logic', async () => {
    fake.push({ status: 529, headers: { 'retry-after-ms': '10' } }, { status: 429, headers: { 'retry-after-ms': '10' } }, textResponse('finally'));
    const message = await client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content[0]).toEqual({ type: 'text', text: 'finally' });
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests[2]!.headers['x-stainless-retry-count']).toBe('2');
  });

  it('can fail in the middle of a stream with an SSE error event', async () => {
    fake.push({ status: 529, duringStream: true });
    const stream = client.messages.stream({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded/);
  });

  it('says clearly when the script ran out, without retries', async () => {
    const failure = client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    await expect(failure).rejects.toThrow(/script ran out/);
    expect(fake.requests).toHaveLength(1);
  });

  it('estimates count_tokens', async () => {
    const counted = await client.messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'hello '.repeat(40) }] });
    expect(counted.input_tokens).toBeGreaterThan(40);
  });
});

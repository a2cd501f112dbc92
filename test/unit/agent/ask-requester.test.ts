import { describe, expect, it } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import { runAgent, type AgentBudget } from '../../../src/agent/agent-loop.js';
import type { AgentTool } from '../../../src/agent/agent-tool.js';
import { ASK_REQUESTER_TOOL_NAME, createAskRequesterTool } from '../../../src/agent/ask-requester-tool.js';
import { taskReportSchema } from '../../../src/agent/finish-tool.js';
import { systemPrompt } from '../../../src/agent/system-prompt.js';
import { finish, scriptedModel, toolUse } from '../../helpers/scripted-model.js';

const budget: AgentBudget = { maxSteps: 20, maxMillis: 60_000, maxCostUsd: 10, maxTokens: 10_000_000 };

const echo: AgentTool = {
  name: 'echo',
  definition: { name: 'echo', description: 'echo', input_schema: { type: 'object', properties: { say: { type: 'string' } } } },
  async execute(input) {
    return { content: `you said ${(input as { say: string }).say}` };
  },
};

const run = (client: Anthropic, tools: AgentTool[], extra: Partial<Parameters<typeof runAgent>[0]> = {}) =>
  runAgent({
    client,
    model: 'claude-sonnet-5-5',
    system: 'system',
    task: 'do the task',
    tools,
    report: { schema: taskReportSchema, description: 'finish' },
    budget,
    ...extra,
  });

type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean; text?: string };
const lastUserBlocks = (request: Anthropic.Messages.MessageCreateParams) => request.messages[request.messages.length - 1]!.content as Block[];

describe('ask_requester', () => {
  it('pauses the run on a question, and the resumed conversation gets the answer as that call’s tool_result', async () => {
    const asked = toolUse(ASK_REQUESTER_TOOL_NAME, { question: 'Blue or green?', suggestedAnswers: ['Blue', 'Green'] });
    const askId = (asked.content![0] as { id: string }).id;
    const first = scriptedModel([toolUse('echo', { say: 'looked' }), asked]);
    const count = { asked: 0 };
    const paused = await run(first.client, [echo, createAskRequesterTool(count)]);
    expect(paused.outcome).toBe('paused');
    expect(paused.pause).toEqual({
      toolUseId: askId,
      tool: ASK_REQUESTER_TOOL_NAME,
      request: { question: 'Blue or green?', suggestedAnswers: ['Blue', 'Green'] },
    });
    expect(count.asked).toBe(1);
    // The conversation ends with the question: no result for it yet.
    expect(paused.messages[paused.messages.length - 1]!.role).toBe('assistant');

    const second = scriptedModel([finish('went with green')]);
    const resumed = await run(second.client, [echo, createAskRequesterTool(count)], {
      task: '',
      resume: {
        messages: JSON.parse(JSON.stringify(paused.messages)),
        usage: paused.usage,
        steps: paused.steps,
        toolResult: { toolUseId: askId, content: 'Green' },
      },
    });
    expect(resumed.outcome).toBe('finished');
    expect(resumed.steps).toBe(3);
    const request = second.requests[0];
    expect(request!.messages).toHaveLength(paused.messages.length + 1);
    expect(lastUserBlocks(request!)).toHaveLength(1);
    expect(lastUserBlocks(request!)[0]).toMatchObject({ type: 'tool_result', tool_use_id: askId, content: 'Green' });
    expect(lastUserBlocks(request!)[0]!.is_error).toBeFalsy();
    expect(JSON.stringify(request!.messages)).toContain('you said looked');
  });

  it('keeps the other calls of the pausing turn: their results and the answer go back together', async () => {
    const turn = {
      stop_reason: 'tool_use' as const,
      content: [...toolUse('echo', { say: 'first' }).content!, ...toolUse(ASK_REQUESTER_TOOL_NAME, { question: 'Which?' }).content!],
    };
    const askId = (turn.content[1] as { id: string }).id;
    const paused = await run(scriptedModel([turn]).client, [echo, createAskRequesterTool({ asked: 0 })]);
    expect(paused.outcome).toBe('paused');
    const second = scriptedModel([finish()]);
    await run(second.client, [echo], { task: '', resume: { ...paused, toolResult: { toolUseId: askId, content: 'that one' } } });
    const blocks = lastUserBlocks(second.requests[0]!);
    expect(blocks.map((b) => b.tool_use_id)).toEqual([(turn.content[0] as { id: string }).id, askId]);
    expect(blocks[0]!.content).toBe('you said first');
  });

  it('refuses a fourth question, an invalid one and a question where the run cannot pause, as tool errors the agent reads', async () => {
    const model = scriptedModel([
      toolUse(ASK_REQUESTER_TOOL_NAME, { question: 'Fourth?' }),
      toolUse(ASK_REQUESTER_TOOL_NAME, { question: 'Six answers?', suggestedAnswers: ['1', '2', '3', '4', '5', '6'] }),
      finish('decided myself'),
    ]);
    const done = await run(model.client, [createAskRequesterTool({ asked: 3 })]);
    expect(done.outcome).toBe('finished');
    expect(lastUserBlocks(model.requests[1]!)[0]).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/already asked 3 questions.*decide yourself/),
    });
    expect(lastUserBlocks(model.requests[2]!)[0]).toMatchObject({ is_error: true, content: expect.stringMatching(/suggestedAnswers/) });

    const noPause = scriptedModel([toolUse(ASK_REQUESTER_TOOL_NAME, { question: 'Now?' }), finish()]);
    const count = { asked: 0 };
    expect((await run(noPause.client, [createAskRequesterTool(count)], { allowPause: false })).outcome).toBe('finished');
    expect(lastUserBlocks(noPause.requests[1]!)[0]).toMatchObject({ is_error: true, content: expect.stringMatching(/cannot pause/) });
    expect(count.asked).toBe(0);
  });

  it('one question at a time: a second ask in the same turn is refused, the first pauses', async () => {
    const turn = {
      stop_reason: 'tool_use' as const,
      content: [...toolUse(ASK_REQUESTER_TOOL_NAME, { question: 'One?' }).content!, ...toolUse(ASK_REQUESTER_TOOL_NAME, { question: 'Two?' }).content!],
    };
    const count = { asked: 0 };
    const paused = await run(scriptedModel([turn]).client, [createAskRequesterTool(count)]);
    expect(paused.outcome).toBe('paused');
    expect((paused.pause!.request as { question: string }).question).toBe('One?');
    expect(count.asked).toBe(1);
    const refused = (paused.messages[paused.messages.length - 1]!.content as Block[])[0];
    expect(refused).toMatchObject({ tool_use_id: (turn.content[1] as { id: string }).id, is_error: true });
  });

  it('the system prompt tells the agent to ask only what the code cannot tell it, and only when it can ask', () => {
    const asking = systemPrompt('feature', { readOnly: false, network: false, canAsk: true });
    expect(asking).toContain(ASK_REQUESTER_TOOL_NAME);
    expect(asking).toMatch(/not in the code/);
    expect(asking).toMatch(/at most 3 times/);
    expect(systemPrompt('feature', { readOnly: false, network: false })).not.toContain(ASK_REQUESTER_TOOL_NAME);
  });
});

import { type ProgressDetail, renderProgress } from '../reporting/progress.js';
import Anthropic from '@anthropic-ai/sdk';
import type { z } from 'zod';
import type { AgentTool } from './agent-tool.js';
import { AgentStop, type AgentPause } from './agent-errors.js';
import { systemWithBreakpoint, withCacheBreakpoints } from './cache-breakpoints.js';
import { clearOldToolResults, DEFAULT_CONTEXT_POLICY, estimateTokens, type ContextPolicy } from './context-window.js';
import { FINISH_TOOL_NAME, finishToolDefinition, parseFinishInput } from './finish-tool.js';
import { withModelCall } from './model-budget.js';
import { addUsage, costUsd, emptyUsage, type TokenUsage } from './pricing.js';

type MessageParam = Anthropic.Messages.MessageParam;

export interface AgentBudget {
  maxSteps: number;
  /** Wall-clock milliseconds for the whole run. */
  maxMillis: number;
  maxCostUsd: number;
  /** Input-plus-output tokens over the whole run. */
  maxTokens: number;
}

export interface AgentEvent {
  type: 'step' | 'tool' | 'tool_result' | 'text' | 'usage' | 'context_cleared' | 'retry_output';
  step: number;
  detail: string;
  /** `tool`: what the step does, as a typed progress detail (`detail` is its English words). */
  progress?: ProgressDetail;
  /** `tool` and `tool_result`: the call, and (on `tool_result`) what it returned to the model. */
  call?: { id: string; name: string; input: unknown; output?: string; isError?: boolean; durationMs?: number; exitCode?: number | null };
  /** `usage`: the run's totals after each model response. */
  usage?: TokenUsage;
  costUsd?: number;
  /**
   * `usage`: this model call alone: its tokens, how long it took (retries included) and, apart, how long it waited for
   * the fleet's shared model budget (src/agent/model-budget.ts) before its attempts.
   */
  turn?: { usage: TokenUsage; latencyMs: number; budgetWaitMs?: number };
}

export interface AgentOptions<S extends z.ZodType> {
  client: Anthropic;
  model: string;
  system: string;
  /** The first user message: the task, its elements, repository facts. */
  task: string;
  /** Content before the task in the first user message (the request's images, each after a line naming it). */
  taskContent?: Anthropic.Messages.ContentBlockParam[];
  tools: AgentTool[];
  report: { schema: S; description: string };
  budget: AgentBudget;
  signal?: AbortSignal;
  maxOutputTokens?: number;
  contextPolicy?: ContextPolicy;
  onEvent?: (event: AgentEvent) => void;
  now?: () => number;
  /** Cache breakpoints on the system prompt and the newest turns. Default true; off only to measure. */
  promptCaching?: boolean;
  /**
   * Continue an earlier run's conversation: `task` is then the next user message (e.g. failing tests; empty for
   * none). `toolResult` answers the call a paused run stopped on (AgentRun.pause).
   */
  resume?: Pick<AgentRun<unknown>, 'messages' | 'usage' | 'steps'> & { toolResult?: PausedCallResult };
  /**
   * Messages that arrived for the run while it worked (steering from the thread), asked for before each model call;
   * each non-empty text joins the conversation as the next user turn.
   */
  steering?: () => Promise<string | undefined>;
  /** Whether a pausing tool may pause this run (default true); when false such calls get a tool error. */
  allowPause?: boolean;
}

/** The result of the call a run paused on, given when it resumes. */
export interface PausedCallResult {
  toolUseId: string;
  content: string;
  isError?: boolean;
}

export interface AgentRun<R> {
  outcome: 'finished' | 'answered' | 'stopped' | 'paused';
  /** The validated report when the agent called the finish tool. */
  report?: R;
  /** The agent's last text: the answer when it finished without the tool. */
  finalText: string;
  stop?: AgentStop;
  /** Outcome `paused`: the call the run waits on; resume with `resume.toolResult` for it. */
  pause?: AgentPause;
  steps: number;
  usage: TokenUsage;
  costUsd: number;
  messages: MessageParam[];
}

/**
 * The loop: ask the model, run the client tools it calls in order, return all results in one user
 * message, until it calls the finish tool, answers without tools, or a budget or stop ends it.
 * Limits are AgentStop errors; the run is always returned, never thrown, so work is kept.
 */
export async function runAgent<S extends z.ZodType>(options: AgentOptions<S>): Promise<AgentRun<z.infer<S>>> {
  const now = options.now ?? Date.now;
  const started = now();
  const signal = options.signal ?? new AbortController().signal;
  const policy = options.contextPolicy ?? DEFAULT_CONTEXT_POLICY;
  const toolsByName = new Map(options.tools.map((t) => [t.name, t]));
  const toolDefinitions = [...options.tools.map((t) => t.definition), finishToolDefinition(options.report.schema, options.report.description)];
  const caching = options.promptCaching ?? true;
  const system = caching ? systemWithBreakpoint(options.system) : [{ type: 'text' as const, text: options.system }];
  const messages: MessageParam[] = options.resume
    ? continueConversation(options.resume.messages, options.task, options.resume.toolResult)
    : [{ role: 'user', content: options.taskContent?.length ? [...options.taskContent, { type: 'text', text: options.task }] : options.task }];
  let usage = options.resume?.usage ?? emptyUsage();
  let steps = options.resume?.steps ?? 0;
  let finalText = '';
  let maxTokens = options.maxOutputTokens ?? 8192;
  let contextCleared = false;
  let lastCall: { messages: number; uncachedInput: number } | undefined;

  const result = (outcome: AgentRun<z.infer<S>>['outcome'], extra: Partial<AgentRun<z.infer<S>>> = {}) => ({
    outcome,
    finalText,
    steps,
    usage,
    costUsd: costUsd(options.model, usage),
    messages,
    ...extra,
  });

  try {
    for (;;) {
      checkBudget(options.budget, { steps, usage, model: options.model, elapsed: now() - started, signal });
      steps++;
      options.onEvent?.({ type: 'step', step: steps, detail: `step ${steps}` });
      const steer = await options.steering?.();
      if (steer) appendUserText(messages, steer);
      if (clearOldToolResults(messages, policy) > 0) {
        options.onEvent?.({ type: 'context_cleared', step: steps, detail: 'cleared old tool results' });
      }
      const asked = now();
      let budgetWaitMs = 0;
      // The input the API will count: with caching, what was added since the last call (the rest is read from the cache).
      const added = lastCall ? estimateTokens(messages.slice(lastCall.messages)) + lastCall.uncachedInput : undefined;
      const response = await withModelCall(
        {
          maxWaitMs: Math.max(0, started + options.budget.maxMillis - now()),
          inputTokens: caching ? added : undefined,
          onWait: (ms) => {
            budgetWaitMs += ms;
          },
        },
        () =>
          callModel(options, {
            system,
            messages: caching ? withCacheBreakpoints(messages) : messages,
            tools: toolDefinitions,
            maxTokens,
            signal,
            deadline: started + options.budget.maxMillis,
            now,
          }),
      );
      lastCall = { messages: messages.length, uncachedInput: response.usage.input_tokens };
      const turn = {
        usage: addUsage(emptyUsage(), response.usage),
        latencyMs: Math.max(0, now() - asked - budgetWaitMs),
        ...(budgetWaitMs > 0 ? { budgetWaitMs } : {}),
      };
      usage = addUsage(usage, response.usage);
      options.onEvent?.({ type: 'usage', step: steps, detail: 'usage', usage, costUsd: costUsd(options.model, usage), turn });
      const text = response.content
        .flatMap((b) => (b.type === 'text' ? [b.text] : []))
        .join('\n')
        .trim();
      if (text) {
        finalText = text;
        options.onEvent?.({ type: 'text', step: steps, detail: text });
      }

      switch (response.stop_reason) {
        case 'tool_use': {
          messages.push({ role: 'assistant', content: response.content as Anthropic.Messages.ContentBlockParam[] });
          const { results, report, pause } = await runTools(response.content, toolsByName, options, steps, signal);
          if (pause && report !== undefined) {
            results.push({ type: 'tool_result', tool_use_id: pause.toolUseId, content: 'Not asked: you finished the task in the same turn.', is_error: true });
          }
          if (results.length > 0) messages.push({ role: 'user', content: results });
          if (report !== undefined) return result('finished', { report });
          if (pause) return result('paused', { pause });
          break;
        }
        case 'pause_turn':
          messages.push({ role: 'assistant', content: response.content as Anthropic.Messages.ContentBlockParam[] });
          break;
        case 'max_tokens': {
          const complete = response.content.filter((b) => b.type !== 'tool_use');
          if (complete.length === 0 || response.content.some((b) => b.type === 'tool_use')) {
            // A tool call was cut off mid-way: ask again with more room rather than keep half a call.
            maxTokens = Math.min(maxTokens * 2, 64_000);
            options.onEvent?.({ type: 'retry_output', step: steps, detail: `output limit reached; retrying with max_tokens ${maxTokens}` });
            if (complete.length === 0) break;
          }
          messages.push({ role: 'assistant', content: complete as Anthropic.Messages.ContentBlockParam[] });
          messages.push({ role: 'user', content: 'Your last answer was cut off at the output limit. Continue exactly where you stopped.' });
          break;
        }
        case 'model_context_window_exceeded':
          if (contextCleared) throw new AgentStop('context_exhausted', 'The conversation no longer fits the model context window.');
          contextCleared = true;
          clearOldToolResults(messages, policy, true);
          options.onEvent?.({ type: 'context_cleared', step: steps, detail: 'context window full: cleared old tool results' });
          break;
        case 'refusal':
          throw new AgentStop('refused', 'The model declined to continue with this task.');
        default:
          // end_turn, stop_sequence: an answer without the finish tool.
          messages.push({ role: 'assistant', content: response.content as Anthropic.Messages.ContentBlockParam[] });
          return result('answered');
      }
    }
  } catch (error) {
    return result('stopped', { stop: toAgentStop(error, signal) });
  }
}

/**
 * Appends a user turn (the paused call's result first, then `text` when not empty); after tool results it joins
 * that user message, as the API expects alternation.
 */
function continueConversation(previous: MessageParam[], text: string, toolResult?: PausedCallResult): MessageParam[] {
  const messages = [...previous];
  const added: Anthropic.Messages.ContentBlockParam[] = [];
  if (toolResult)
    added.push({
      type: 'tool_result',
      tool_use_id: toolResult.toolUseId,
      content: toolResult.content || '(no answer)',
      is_error: toolResult.isError || undefined,
    });
  if (text || !toolResult) added.push({ type: 'text', text });
  const last = messages[messages.length - 1];
  if (last?.role === 'user') {
    const blocks = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
    messages[messages.length - 1] = { role: 'user', content: [...blocks, ...added] } as MessageParam;
  } else {
    messages.push({ role: 'user', content: added });
  }
  return messages;
}

/** A user text turn: joins the last user message (tool results) or starts one, as the API expects alternation. */
function appendUserText(messages: MessageParam[], text: string): void {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') {
    messages.push({ role: 'user', content: text });
    return;
  }
  const blocks = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  messages[messages.length - 1] = { role: 'user', content: [...blocks, { type: 'text', text }] };
}

function checkBudget(budget: AgentBudget, state: { steps: number; usage: TokenUsage; model: string; elapsed: number; signal: AbortSignal }): void {
  if (state.signal.aborted) throw new AgentStop('cancelled', 'The run was cancelled.');
  if (state.steps >= budget.maxSteps)
    throw new AgentStop('step_limit', `The step limit (${budget.maxSteps} ${budget.maxSteps === 1 ? 'step' : 'steps'}) was reached.`, {
      limit: { steps: budget.maxSteps },
    });
  const minutes = Math.round(budget.maxMillis / 60_000);
  if (state.elapsed >= budget.maxMillis) throw new AgentStop('time_limit', `The time budget (${minutes} min) ran out.`, { limit: { minutes } });
  const spent = costUsd(state.model, state.usage);
  if (spent >= budget.maxCostUsd) {
    const [capUsd, spentUsd] = [budget.maxCostUsd.toFixed(2), spent.toFixed(2)];
    throw new AgentStop('cost_limit', `The cost cap ($${capUsd}) was reached ($${spentUsd} spent).`, { limit: { capUsd, spentUsd } });
  }
  const tokens = state.usage.inputTokens + state.usage.outputTokens + state.usage.cacheReadTokens + state.usage.cacheWriteTokens;
  if (tokens >= budget.maxTokens)
    throw new AgentStop('token_limit', `The token budget (${budget.maxTokens} tokens) was used up.`, { limit: { tokens: budget.maxTokens } });
}

async function callModel<S extends z.ZodType>(
  options: AgentOptions<S>,
  request: {
    system: Anthropic.Messages.TextBlockParam[];
    messages: MessageParam[];
    tools: Anthropic.Messages.ToolUnion[];
    maxTokens: number;
    signal: AbortSignal;
    deadline: number;
    now: () => number;
  },
): Promise<Anthropic.Messages.Message> {
  const timeout = Math.max(1_000, request.deadline - request.now());
  return options.client.messages.create(
    {
      model: options.model,
      max_tokens: request.maxTokens,
      system: request.system,
      tools: request.tools,
      messages: request.messages,
    },
    { signal: request.signal, timeout },
  );
}

async function runTools<S extends z.ZodType>(
  content: Anthropic.Messages.ContentBlock[],
  tools: Map<string, AgentTool>,
  options: AgentOptions<S>,
  step: number,
  signal: AbortSignal,
): Promise<{ results: Anthropic.Messages.ToolResultBlockParam[]; report?: z.infer<S>; pause?: AgentPause }> {
  const results: Anthropic.Messages.ToolResultBlockParam[] = [];
  let report: z.infer<S> | undefined;
  let pause: AgentPause | undefined;
  for (const block of content) {
    if (block.type !== 'tool_use') continue;
    if (signal.aborted) {
      results.push({ type: 'tool_result', tool_use_id: block.id, content: 'Cancelled before this call ran.', is_error: true });
      continue;
    }
    if (block.name === FINISH_TOOL_NAME) {
      const parsed = parseFinishInput(options.report.schema, block.input);
      if (parsed.ok) report = parsed.report;
      results.push({ type: 'tool_result', tool_use_id: block.id, content: parsed.ok ? 'Report received.' : parsed.error, is_error: !parsed.ok });
      continue;
    }
    const tool = tools.get(block.name);
    if (!tool) {
      results.push({ type: 'tool_result', tool_use_id: block.id, content: `Error: no tool named ${block.name}.`, is_error: true });
      continue;
    }
    if (tool.pauses && (pause || options.allowPause === false)) {
      const refusal = pause
        ? 'Not asked: ask one question at a time; ask this one after the answer to the first, if it is still needed.'
        : 'The run cannot pause for a question now: decide yourself and note the assumption in your report.';
      results.push({ type: 'tool_result', tool_use_id: block.id, content: refusal, is_error: true });
      continue;
    }
    const progress: ProgressDetail = tool.describe?.(block.input) ?? { key: 'tool', name: block.name };
    const detail = renderProgress(progress);
    const call = { id: block.id, name: block.name, input: block.input };
    options.onEvent?.({ type: 'tool', step, detail, progress, call });
    let result: Anthropic.Messages.ToolResultBlockParam;
    const started = Date.now();
    let exitCode: number | null | undefined;
    try {
      const output = await tool.execute(block.input, { signal });
      exitCode = output.exitCode;
      if (output.pause !== undefined) {
        pause = { toolUseId: block.id, tool: block.name, request: output.pause };
        options.onEvent?.({ type: 'tool_result', step, detail, call: { ...call, output: 'waiting for the answer', isError: false } });
        continue;
      }
      result = { type: 'tool_result', tool_use_id: block.id, content: output.content || '(no output)', is_error: output.isError || undefined };
    } catch (error) {
      result = { type: 'tool_result', tool_use_id: block.id, content: `Error: ${(error as Error).message}`, is_error: true };
    }
    results.push(result);
    options.onEvent?.({
      type: 'tool_result',
      step,
      detail,
      call: { ...call, output: String(result.content), isError: result.is_error === true, durationMs: Date.now() - started, exitCode },
    });
  }
  return { results, report, pause };
}

function toAgentStop(error: unknown, signal: AbortSignal): AgentStop {
  if (error instanceof AgentStop) return error;
  if (signal.aborted || error instanceof Anthropic.APIUserAbortError) return new AgentStop('cancelled', 'The run was cancelled.');
  if (error instanceof Anthropic.APIError) {
    const status = error.status ? ` (HTTP ${error.status})` : '';
    return new AgentStop('model_failed', `The model API failed${status} after retries: ${error.message}`, { cause: error });
  }
  return new AgentStop('model_failed', `The agent failed: ${(error as Error).message}`, { cause: error });
}

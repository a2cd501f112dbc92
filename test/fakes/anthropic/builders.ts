import { base62Id } from '../shared/ids.js';
import type { AssistantReply, ContentBlock, ScriptError, StopReason } from './types.js';

export function toolUseId(): string {
  return base62Id('toolu_01', 22);
}

export function messageId(): string {
  return base62Id('msg_01', 22);
}

export function textResponse(text: string, stopReason: StopReason = 'end_turn'): AssistantReply {
  return { content: [{ type: 'text', text }], stop_reason: stopReason };
}

export interface ToolCall {
  name: string;
  input: unknown;
  id?: string;
}

/** An assistant turn that calls tools (optionally after some text); stop_reason is `tool_use`. */
export function toolUseResponse(calls: ToolCall[], text?: string): AssistantReply {
  const content: ContentBlock[] = text ? [{ type: 'text', text }] : [];
  for (const call of calls) content.push({ type: 'tool_use', id: call.id ?? toolUseId(), name: call.name, input: call.input });
  return { content, stop_reason: 'tool_use' };
}

export function errorResponse(status: 429 | 500 | 529 | number, headers?: Record<string, string>): ScriptError {
  return { status, ...(headers ? { headers } : {}) };
}

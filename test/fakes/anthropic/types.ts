export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export type ContentBlock = TextBlock | ToolUseBlock | ThinkingBlock;

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal';

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  service_tier?: string;
}

/** One scripted assistant turn; unspecified usage is estimated (with prompt caching simulated). */
export interface AssistantReply {
  content: ContentBlock[];
  stop_reason?: StopReason;
  stop_sequence?: string | null;
  usage?: Partial<Usage>;
  model?: string;
  id?: string;
  /** Wait this long before answering (or before the first stream event). */
  delayMs?: number;
}

/** A scripted HTTP error; `duringStream` sends it as an SSE `error` event after message_start instead. */
export interface ScriptError {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  duringStream?: boolean;
}

export interface RecordedRequest {
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body, as the client sent it. */
  body: Record<string, any>;
  /** The key from x-api-key or Authorization: Bearer. */
  apiKey: string | undefined;
  stream: boolean;
  at: number;
}

export type ScriptReply = AssistantReply | ScriptError;

export type ScriptItem = ScriptReply | ((request: RecordedRequest) => ScriptReply | Promise<ScriptReply>);

export function isScriptError(reply: ScriptReply): reply is ScriptError {
  return typeof (reply as ScriptError).status === 'number' && !('content' in reply);
}

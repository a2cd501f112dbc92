import type { ServerResponse } from 'node:http';
import type { ContentBlock, Usage } from './types.js';

export interface StreamedMessage {
  id: string;
  model: string;
  content: ContentBlock[];
  stop_reason: string;
  stop_sequence: string | null;
  usage: Usage;
}

export function startEventStream(res: ServerResponse, requestId: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': requestId,
  });
}

export function writeEvent(res: ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

export function writeMessageStart(res: ServerResponse, message: StreamedMessage): void {
  const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, cache_creation, service_tier } = message.usage;
  writeEvent(res, 'message_start', {
    message: {
      id: message.id,
      type: 'message',
      role: 'assistant',
      model: message.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, cache_creation, output_tokens: 1, service_tier },
    },
  });
}

/** The rest of the real event sequence after message_start: blocks with their deltas, message_delta, message_stop. */
export function writeMessageBody(res: ServerResponse, message: StreamedMessage): void {
  writeEvent(res, 'ping', {});
  message.content.forEach((block, index) => {
    writeEvent(res, 'content_block_start', { index, content_block: emptyBlock(block) });
    for (const delta of deltas(block)) writeEvent(res, 'content_block_delta', { index, delta });
    writeEvent(res, 'content_block_stop', { index });
  });
  const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens } = message.usage;
  writeEvent(res, 'message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
    usage: { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens },
  });
  writeEvent(res, 'message_stop', {});
}

function emptyBlock(block: ContentBlock): Record<string, unknown> {
  if (block.type === 'text') return { type: 'text', text: '' };
  if (block.type === 'tool_use') return { type: 'tool_use', id: block.id, name: block.name, input: {} };
  return { type: 'thinking', thinking: '', signature: '' };
}

function deltas(block: ContentBlock): Record<string, unknown>[] {
  if (block.type === 'text') return chunkWords(block.text).map((text) => ({ type: 'text_delta', text }));
  if (block.type === 'tool_use') {
    return chunkChars(JSON.stringify(block.input ?? {}), 24).map((partial_json) => ({ type: 'input_json_delta', partial_json }));
  }
  return [...chunkWords(block.thinking).map((thinking) => ({ type: 'thinking_delta', thinking })), { type: 'signature_delta', signature: block.signature }];
}

function chunkWords(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const chunks: string[] = [];
  for (let index = 0; index < words.length; index += 3) chunks.push(words.slice(index, index + 3).join(''));
  return chunks.length > 0 ? chunks : [''];
}

function chunkChars(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let index = 0; index < text.length; index += size) chunks.push(text.slice(index, index + size));
  return chunks.length > 0 ? chunks : [''];
}

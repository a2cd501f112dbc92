import { SlackApiError } from './types.js';

/**
 * Limits of the streaming methods. Documented (chat.startStream / appendStream / stopStream): markdown_text at most
 * 12,000 characters; a task's status one of four. Published by SDKs that wrap these chunks (not on Slack's method
 * pages): a task's details and output at most 256 characters, a title near 256; a URL source needs its text.
 */
export const STREAM_LIMITS = { markdownText: 12_000, taskTitle: 256, taskDetails: 256, taskOutput: 256 } as const;

export const TASK_STATUSES = ['pending', 'in_progress', 'complete', 'error'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface StreamedTask {
  id: string;
  title: string;
  status: TaskStatus;
  details?: string;
  output?: string;
  sources?: { type: 'url'; url: string; text: string }[];
}

/** What a stream holds, in arrival order: text runs, tasks (a task keeps the place of its first update) and blocks. */
export type StreamPart = { kind: 'text'; text: string } | { kind: 'task'; task: StreamedTask } | { kind: 'block'; block: unknown };

export type Chunk =
  | { type: 'markdown_text'; text: string }
  | { type: 'task_update'; id: string; title: string; status: TaskStatus; details?: string; output?: string; sources?: StreamedTask['sources'] }
  | { type: 'plan_update'; title: string }
  | { type: 'blocks'; blocks: unknown[] };

/** Checks `chunks` as Slack does: anything malformed is `invalid_chunks`, text over the limit `msg_too_long`. */
export function parseChunks(value: unknown): Chunk[] {
  if (!Array.isArray(value)) throw new SlackApiError('invalid_chunks');
  return value.map(parseChunk);
}

function parseChunk(raw: unknown): Chunk {
  if (!raw || typeof raw !== 'object') throw new SlackApiError('invalid_chunks');
  const chunk = raw as Record<string, unknown>;
  switch (chunk.type) {
    case 'markdown_text':
      return { type: 'markdown_text', text: markdownText(chunk.text) };
    case 'plan_update':
      return { type: 'plan_update', title: boundedText(chunk.title, STREAM_LIMITS.taskTitle) };
    case 'blocks':
      if (!Array.isArray(chunk.blocks) || chunk.blocks.length === 0) throw new SlackApiError('invalid_chunks');
      if (chunk.blocks.length > 50) throw new SlackApiError('msg_blocks_too_many');
      return { type: 'blocks', blocks: chunk.blocks };
    case 'task_update':
      return parseTaskUpdate(chunk);
    default:
      throw new SlackApiError('invalid_chunks');
  }
}

function parseTaskUpdate(chunk: Record<string, unknown>): Chunk {
  if (typeof chunk.id !== 'string' || chunk.id === '') throw new SlackApiError('invalid_chunks');
  if (!TASK_STATUSES.includes(chunk.status as TaskStatus)) throw new SlackApiError('invalid_chunks');
  return {
    type: 'task_update',
    id: chunk.id,
    title: boundedText(chunk.title, STREAM_LIMITS.taskTitle),
    status: chunk.status as TaskStatus,
    ...(chunk.details === undefined ? {} : { details: boundedText(chunk.details, STREAM_LIMITS.taskDetails) }),
    ...(chunk.output === undefined ? {} : { output: boundedText(chunk.output, STREAM_LIMITS.taskOutput) }),
    ...(chunk.sources === undefined ? {} : { sources: parseSources(chunk.sources) }),
  };
}

function parseSources(value: unknown): StreamedTask['sources'] {
  if (!Array.isArray(value)) throw new SlackApiError('invalid_chunks');
  return value.map((raw) => {
    const source = (raw ?? {}) as Record<string, unknown>;
    if (source.type !== 'url' || typeof source.url !== 'string' || !/^https?:\/\//.test(source.url)) throw new SlackApiError('invalid_chunks');
    if (typeof source.text !== 'string' || source.text === '') throw new SlackApiError('invalid_chunks');
    return { type: 'url', url: source.url, text: source.text };
  });
}

function boundedText(value: unknown, limit: number): string {
  if (typeof value !== 'string' || value === '') throw new SlackApiError('invalid_chunks');
  if (value.length > limit) throw new SlackApiError('invalid_chunks');
  return value;
}

export function markdownText(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new SlackApiError('invalid_chunks');
  if (value.length > STREAM_LIMITS.markdownText) throw new SlackApiError('msg_too_long');
  return value;
}

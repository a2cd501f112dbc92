import type { Chunk, StreamedTask, StreamPart } from './stream-chunks.js';

export type StreamState = 'streaming' | 'stopped' | 'stopped_by_user' | 'expired';

/** One streamed message as Slack keeps it while it grows and after it is stopped. */
export interface SlackStream {
  channel: string;
  ts: string;
  threadTs: string;
  displayMode: 'timeline' | 'plan' | 'dense';
  /** Set by the first content: a stream started with markdown_text goes on with it, one started with chunks with chunks. */
  contentMode?: 'markdown_text' | 'chunks';
  state: StreamState;
  recipient?: { user: string; team: string };
  planTitle?: string;
  parts: StreamPart[];
  /** Blocks given to chat.stopStream, rendered after everything streamed. */
  closingBlocks: unknown[];
  sessionStatus?: string;
  metadata?: unknown;
}

/** The assistant status ("is working…") under a thread, which Slack clears when the app posts there or after two minutes. */
export interface ThreadStatus {
  status: string;
  loadingMessages?: string[];
  setAt: number;
}

export const THREAD_STATUS_TIMEOUT_MS = 120_000;

export function streamKey(channel: string, ts: string): string {
  return `${channel}/${ts}`;
}

export function applyChunks(stream: SlackStream, chunks: Chunk[]): void {
  for (const chunk of chunks) {
    if (chunk.type === 'markdown_text') appendText(stream, chunk.text);
    else if (chunk.type === 'plan_update') stream.planTitle = chunk.title;
    else if (chunk.type === 'blocks') stream.parts.push(...chunk.blocks.map((block) => ({ kind: 'block' as const, block })));
    else applyTaskUpdate(stream, chunk);
  }
}

export function appendText(stream: SlackStream, text: string): void {
  const last = stream.parts.at(-1);
  if (last?.kind === 'text') last.text += text;
  else stream.parts.push({ kind: 'text', text });
}

/** A later update of a task replaces its title, status and output; its details grow (as Slack shows them). */
function applyTaskUpdate(stream: SlackStream, update: Extract<Chunk, { type: 'task_update' }>): void {
  const known = stream.parts.find((part): part is { kind: 'task'; task: StreamedTask } => part.kind === 'task' && part.task.id === update.id);
  if (!known) {
    const { type: _type, ...task } = update;
    stream.parts.push({ kind: 'task', task });
    return;
  }
  known.task.title = update.title;
  known.task.status = update.status;
  if (update.details !== undefined) known.task.details = `${known.task.details ?? ''}${update.details}`;
  if (update.output !== undefined) known.task.output = update.output;
  if (update.sources !== undefined) known.task.sources = update.sources;
}

/** The message's text: every markdown run, in order. */
export function streamText(stream: SlackStream): string {
  return stream.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

/**
 * The message's blocks as Slack renders them: markdown runs as `markdown` blocks, tasks as `task_card` blocks (in
 * `plan` mode gathered in one `plan` block where the first task appeared), then the blocks given to stopStream.
 */
export function renderStream(stream: SlackStream): unknown[] {
  const blocks: unknown[] = [];
  let plan: { type: 'plan'; title: string; tasks: unknown[] } | undefined;
  for (const part of stream.parts) {
    if (part.kind === 'text') {
      if (part.text) blocks.push({ type: 'markdown', text: part.text });
    } else if (part.kind === 'block') {
      blocks.push(part.block);
    } else if (stream.displayMode === 'plan') {
      if (!plan) {
        plan = { type: 'plan', title: stream.planTitle ?? '', tasks: [] };
        blocks.push(plan);
      }
      plan.tasks.push(taskCard(part.task));
    } else {
      blocks.push(taskCard(part.task));
    }
  }
  return [...blocks, ...stream.closingBlocks];
}

function taskCard(task: StreamedTask): Record<string, unknown> {
  return {
    type: 'task_card',
    task_id: task.id,
    title: task.title,
    status: task.status,
    ...(task.details ? { details: richText(task.details) } : {}),
    ...(task.output ? { output: richText(task.output) } : {}),
    ...(task.sources ? { sources: task.sources } : {}),
  };
}

function richText(text: string): Record<string, unknown> {
  return { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }] };
}

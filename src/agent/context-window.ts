import type Anthropic from '@anthropic-ai/sdk';
import { elementAt } from '../arrays/element-at.js';
import { NESTED_INSTRUCTIONS_MARK } from '../repository-instructions/instruction-context.js';

type MessageParam = Anthropic.Messages.MessageParam;

export interface ContextPolicy {
  /** Start clearing when the conversation is estimated above this many tokens. */
  triggerTokens: number;
  /** Tool results of the newest this-many tool turns are always kept whole. */
  keepRecentToolTurns: number;
  /** Results at most this long are never cleared. */
  keepShorterThanChars: number;
}

export const DEFAULT_CONTEXT_POLICY: ContextPolicy = { triggerTokens: 120_000, keepRecentToolTurns: 6, keepShorterThanChars: 400 };

/** What an image is counted as: the most a full-resolution image costs (2576 px on the long edge, 28 px a token). */
export const IMAGE_TOKENS = 4800;

/** A rough count: about four characters a token; an image (its base64 is no text the model reads) as IMAGE_TOKENS. */
export function estimateTokens(value: unknown): number {
  let images = 0;
  const text = JSON.stringify(value, (_key, item: unknown) => {
    const block = item as { type?: unknown; source?: { type?: unknown } } | null;
    if (block && typeof block === 'object' && block.type === 'image' && block.source?.type === 'base64') {
      images += 1;
      return null;
    }
    return item;
  });
  return Math.ceil((text?.length ?? 0) / 4) + images * IMAGE_TOKENS;
}

/**
 * Client-side clearing of old observations. Clears in one batch when the conversation passes the
 * trigger, so the cached prefix changes rarely; the task (first message) and recent steps stay whole.
 * Returns the number of results cleared.
 */
export function clearOldToolResults(messages: MessageParam[], policy: ContextPolicy, force = false): number {
  if (!force && estimateTokens(messages) < policy.triggerTokens) return 0;
  const toolTurns = messages.flatMap((m, i) =>
    i > 0 && m.role === 'user' && Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result') ? [i] : [],
  );
  const keep = force ? 2 : policy.keepRecentToolTurns;
  let cleared = 0;
  for (const index of toolTurns.slice(0, Math.max(0, toolTurns.length - keep))) {
    const message = elementAt(messages, index);
    const content = message.content as Anthropic.Messages.ContentBlockParam[];
    messages[index] = {
      ...message,
      content: content.map((block) => {
        if (block.type !== 'tool_result') return block;
        const text = toolResultText(block);
        if (text.length <= policy.keepShorterThanChars || text.startsWith('[cleared')) return block;
        cleared++;
        // The repository's instructions for a directory, given once with this result, stay.
        const mark = text.lastIndexOf(NESTED_INSTRUCTIONS_MARK);
        const kept = mark >= 0 ? text.slice(mark) : '';
        return {
          ...block,
          content: `[cleared to save context: ${text.length - kept.length} characters of earlier output; run the command again if you need it]${kept}`,
        };
      }),
    } as MessageParam;
  }
  return cleared;
}

function toolResultText(block: Anthropic.Messages.ToolResultBlockParam): string {
  if (typeof block.content === 'string') return block.content;
  return (block.content ?? []).map((c) => ('text' in c ? c.text : '')).join('');
}

import type Anthropic from '@anthropic-ai/sdk';

type MessageParam = Anthropic.Messages.MessageParam;
type ContentBlock = Exclude<MessageParam['content'], string>[number];

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Returns the messages with cache breakpoints on the last block of the two newest user messages,
 * so each turn reads the whole earlier conversation from cache and writes the new part. Together
 * with the breakpoint on the system prompt (which also covers the tools) that is 3 of the 4 allowed.
 * The input array is not changed: breakpoints never leak into the stored history.
 */
export function withCacheBreakpoints(messages: MessageParam[]): MessageParam[] {
  const userIndexes = messages.flatMap((m, i) => (m.role === 'user' ? [i] : [])).slice(-2);
  return messages.map((message, index) => {
    // Always blocks, never a bare string: the same turn must serialise the same way in every request.
    const blocks: ContentBlock[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
    if (!userIndexes.includes(index)) return { ...message, content: blocks } as MessageParam;
    const last = blocks.length - 1;
    blocks[last] = { ...blocks[last], cache_control: EPHEMERAL } as ContentBlock;
    return { ...message, content: blocks } as MessageParam;
  });
}

export function systemWithBreakpoint(system: string): Anthropic.Messages.TextBlockParam[] {
  return [{ type: 'text', text: system, cache_control: EPHEMERAL }];
}

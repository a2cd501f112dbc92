import { createHash } from 'node:crypto';

export interface PromptSegment {
  tokens: number;
  /** Hash of the whole prompt prefix up to and including this segment. */
  prefixHash: string;
  /** Set when this segment carries `cache_control`. */
  breakpointTtl?: '5m' | '1h';
}

export function estimateTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return Math.max(1, Math.ceil(text.length / 4));
}

/**
 * The prompt in cache order (tools, then system, then messages), one segment per block,
 * each with a running hash of everything before it: equal hashes mean equal prefixes.
 */
export function promptSegments(body: Record<string, any>): PromptSegment[] {
  const blocks: { key: unknown; raw: Record<string, any> | string }[] = [];
  for (const tool of asArray(body.tools)) blocks.push({ key: ['tool', strip(tool)], raw: tool });
  for (const block of contentBlocks(body.system)) blocks.push({ key: ['system', strip(block)], raw: block });
  for (const message of asArray(body.messages)) {
    for (const block of contentBlocks(message?.content)) {
      blocks.push({ key: [message?.role, strip(block)], raw: block });
    }
  }
  let hash = createHash('sha256')
    .update(String(body.model ?? ''))
    .digest('hex');
  return blocks.map(({ key, raw }) => {
    hash = createHash('sha256').update(hash).update(JSON.stringify(key)).digest('hex');
    const control = typeof raw === 'object' ? raw.cache_control : undefined;
    const segment: PromptSegment = { tokens: estimateTokens(key), prefixHash: hash };
    if (control && control.type === 'ephemeral') segment.breakpointTtl = control.ttl === '1h' ? '1h' : '5m';
    return segment;
  });
}

function contentBlocks(content: unknown): (Record<string, any> | string)[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [content];
  return asArray(content);
}

function asArray(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

function strip(block: unknown): unknown {
  if (!block || typeof block !== 'object') return block;
  const { cache_control: _ignored, ...rest } = block as Record<string, unknown>;
  return rest;
}

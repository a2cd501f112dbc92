import { estimateTokens, promptSegments, type PromptSegment } from './prompt-segments.js';
import type { Usage } from './types.js';

const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
/** How far before a breakpoint the API looks for an earlier cache hit. */
const LOOKBACK_BLOCKS = 20;

export interface PromptCacheOptions {
  /** Prefixes shorter than this are never cached (the real API needs 1024+ tokens); default 0. */
  minCacheableTokens?: number;
  now?: () => number;
}

export type InputUsage = Pick<Usage, 'input_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens' | 'cache_creation'>;

/**
 * Simulates prompt caching: prefixes ending at a `cache_control` breakpoint are written to the cache;
 * a later request whose prefix matches one is billed for it as cache reads, the new part up to its
 * last breakpoint as cache creation, and the rest as plain input.
 */
export class PromptCache {
  private readonly entries = new Map<string, number>();

  constructor(private readonly options: PromptCacheOptions = {}) {}

  bill(body: Record<string, any>): InputUsage {
    const now = this.options.now?.() ?? Date.now();
    const segments = promptSegments(body);
    const total = Math.max(sum(segments, 0, segments.length - 1), estimateTokens(body));
    const breakpoints = segments.flatMap((segment, index) => (segment.breakpointTtl ? [index] : []));
    const last = breakpoints.at(-1);
    const minimum = this.options.minCacheableTokens ?? 0;
    if (last === undefined || sum(segments, 0, last) < minimum) return plain(total);

    const hit = this.findHit(segments, breakpoints, now);
    const read = hit >= 0 ? sum(segments, 0, hit) : 0;
    const creation = { '5m': 0, '1h': 0 };
    for (let index = hit + 1; index <= last; index += 1) {
      creation[ttlCovering(segments, breakpoints, index)] += segments[index]!.tokens;
    }
    if (hit >= 0) this.entries.set(segments[hit]!.prefixHash, now + TTL_MS[ttlCovering(segments, breakpoints, hit)]);
    for (const index of breakpoints) {
      if (sum(segments, 0, index) >= minimum) {
        this.entries.set(segments[index]!.prefixHash, now + TTL_MS[segments[index]!.breakpointTtl ?? '5m']);
      }
    }
    const created = creation['5m'] + creation['1h'];
    return {
      input_tokens: Math.max(0, total - read - created),
      cache_read_input_tokens: read,
      cache_creation_input_tokens: created,
      cache_creation: { ephemeral_5m_input_tokens: creation['5m'], ephemeral_1h_input_tokens: creation['1h'] },
    };
  }

  clear(): void {
    this.entries.clear();
  }

  private findHit(segments: PromptSegment[], breakpoints: number[], now: number): number {
    for (const breakpoint of [...breakpoints].reverse()) {
      for (let index = breakpoint; index >= Math.max(0, breakpoint - LOOKBACK_BLOCKS + 1); index -= 1) {
        const expiry = this.entries.get(segments[index]!.prefixHash);
        if (expiry !== undefined && expiry > now) return index;
      }
    }
    return -1;
  }
}

function plain(total: number): InputUsage {
  return {
    input_tokens: total,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  };
}

function sum(segments: PromptSegment[], from: number, to: number): number {
  let total = 0;
  for (let index = from; index <= to; index += 1) total += segments[index]?.tokens ?? 0;
  return total;
}

function ttlCovering(segments: PromptSegment[], breakpoints: number[], index: number): '5m' | '1h' {
  const next = breakpoints.find((breakpoint) => breakpoint >= index);
  return next === undefined ? '5m' : (segments[next]!.breakpointTtl ?? '5m');
}

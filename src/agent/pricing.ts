/** US dollars per million tokens. Cache writes (5 minute) cost 1.25x input; cache reads 0.1x. */
interface Price {
  input: number;
  output: number;
}

/** Sonnet's, and any model not named below. */
const SONNET_PRICE: Price = { input: 3, output: 15 };

const PRICES: Array<[RegExp, Price]> = [
  [/opus-4-[01]|opus-4-2025|claude-3-opus/, { input: 15, output: 75 }],
  [/opus/, { input: 5, output: 25 }],
  [/haiku-4|haiku-5/, { input: 1, output: 5 }],
  [/haiku/, { input: 0.8, output: 4 }],
  [/sonnet|.*/, SONNET_PRICE],
];

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
}

export const emptyUsage = (): TokenUsage => ({ inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0 });

/** The token counts of a Messages API `usage` object (any of them may be absent or null). */
type UsageCounts = {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
};

export function addUsage(total: TokenUsage, usage: UsageCounts | undefined | null): TokenUsage {
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    inputTokens: total.inputTokens + n(usage?.input_tokens),
    outputTokens: total.outputTokens + n(usage?.output_tokens),
    cacheWriteTokens: total.cacheWriteTokens + n(usage?.cache_creation_input_tokens),
    cacheReadTokens: total.cacheReadTokens + n(usage?.cache_read_input_tokens),
  };
}

export function priceOf(model: string): Price {
  return PRICES.find(([pattern]) => pattern.test(model))?.[1] ?? SONNET_PRICE;
}

export function costUsd(model: string, usage: TokenUsage): number {
  const price = priceOf(model);
  const input = usage.inputTokens + usage.cacheWriteTokens * 1.25 + usage.cacheReadTokens * 0.1;
  return (input * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/** Input tokens weighted by what they cost relative to plain input: the figure caching lowers. */
export function inputEquivalentTokens(usage: TokenUsage): number {
  return usage.inputTokens + usage.cacheWriteTokens * 1.25 + usage.cacheReadTokens * 0.1;
}

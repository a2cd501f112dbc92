/** Greetings and politeness before the ask itself: "hey, can you", "please", "we need to", "let's". */
export const ASK_PREFIX = String.raw`(?:(?:hey|hi|ok|so|please|pls|plz|can you|could you|would you|can we|we need to|we should|i want to|i'd like (?:you )?to|i need to|i have to|you need to|you should|let'?s|need to|go)[,!]?\s+)*`;

const ABBREVIATION = /\b(?:e\.g|i\.e|etc|vs|approx|incl|resp|cf)\.$/i;
const LIST_MARKER = /^\s*(?:[-*•◦▪]|\d{1,2}[.)]|[a-z][.)])\s+/;

/** Splits prose into sentences, keeping file names (`a.ts`), versions (`5.2.0`) and abbreviations intact. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split('\n')) {
    let current = '';
    for (const piece of line.split(/(?<=[.!?])\s+/)) {
      current = current ? `${current} ${piece}` : piece;
      if (!ABBREVIATION.test(current)) {
        pushTrimmed(sentences, current);
        current = '';
      }
    }
    pushTrimmed(sentences, current);
  }
  return sentences;
}

/**
 * Splits the content of a list-like section into items: numbered or bulleted lines,
 * an inline numbered list (`1. a 2. b`), lines, semicolons, then sentences.
 */
export function splitListItems(content: string): string[] {
  const lines = content
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.some((line) => LIST_MARKER.test(line))) return joinContinuationLines(lines).map(cleanItem).filter(Boolean);
  const inline = splitInlineNumberedList(content);
  if (inline) return inline;
  if (lines.length > 1) return lines.map(cleanItem).filter(Boolean);
  const single = lines[0] ?? '';
  const parts = single.includes(';') ? single.split(';') : splitSentences(single);
  return parts.map(cleanItem).filter(Boolean);
}

export function hasListMarker(line: string): boolean {
  return LIST_MARKER.test(line);
}

export function cleanItem(item: string): string {
  return item
    .replace(LIST_MARKER, '')
    .replace(/^[\s,;:]+|[\s,;.]+$/g, '')
    .trim();
}

function joinContinuationLines(lines: string[]): string[] {
  const items: string[] = [];
  for (const line of lines) {
    if (LIST_MARKER.test(line) || items.length === 0) items.push(line);
    else items[items.length - 1] += ` ${line}`;
  }
  return items;
}

/** `1. a 2. b 3. c` on one line, numbered from 1 in order. */
function splitInlineNumberedList(content: string): string[] | undefined {
  const markers = [...content.matchAll(/(?:^|\s)(\d{1,2})[.)]\s+/g)];
  if (markers.length < 2 || markers[0]?.[1] !== '1') return undefined;
  if (!markers.every((marker, index) => Number(marker[1]) === index + 1)) return undefined;
  return markers
    .map((marker, index) => content.slice((marker.index ?? 0) + marker[0].length, markers[index + 1]?.index ?? content.length))
    .map(cleanItem)
    .filter(Boolean);
}

function pushTrimmed(into: string[], sentence: string): void {
  const trimmed = sentence.trim();
  if (trimmed) into.push(trimmed);
}

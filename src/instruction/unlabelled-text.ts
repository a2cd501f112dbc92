import { cleanItem, hasListMarker, splitSentences } from './sentences.js';
import { CODE_MARKER, withoutCodeMarkers } from './slack-markup.js';

const CODE_MARKER_LINE = new RegExp(`^\\s*${CODE_MARKER.source}\\s*$`);

/** Unlabelled text as list items (marked lines) and sentences (everything else, split at `;`). */
export function unlabelledParts(unlabelled: string): { listItems: string[]; sentences: string[] } {
  const listItems: string[] = [];
  const sentences: string[] = [];
  for (const line of unlabelled.split('\n')) {
    if (!line.trim() || CODE_MARKER_LINE.test(line)) continue;
    if (hasListMarker(line)) listItems.push(cleanItem(withoutCodeMarkers(line)));
    else {
      for (const sentence of splitSentences(withoutCodeMarkers(line))) {
        sentences.push(
          ...sentence
            .split(/;\s+|\s+[—–]\s+/)
            .map((part) => part.trim())
            .filter(Boolean),
        );
      }
    }
  }
  return { listItems: listItems.filter(Boolean), sentences };
}

/** "analyze x.csv: revenue per day, top 10 products" → task "analyze x.csv" and two requirement items. */
export function splitTaskList(sentence: string): { task: string; items: string[] } {
  const trimmed = withoutFinalStop(sentence.trim().replace(/:$/, ''));
  const colon = trimmed.search(/:\s/);
  if (colon > 0 && /\S\s+\S/.test(trimmed.slice(0, colon))) {
    const items = splitOutsideBrackets(trimmed.slice(colon + 1));
    if (items.length >= 2) return { task: trimmed.slice(0, colon).trim(), items };
  }
  return { task: trimmed, items: [] };
}

function splitOutsideBrackets(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let inQuote = false;
  let current = '';
  for (const char of text) {
    if (char === '"') inQuote = !inQuote;
    else if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth = Math.max(0, depth - 1);
    if ((char === ',' || char === ';') && depth === 0 && !inQuote) {
      items.push(current);
      current = '';
    } else current += char;
  }
  items.push(current);
  return items.map((item) => cleanItem(item.replace(/^\s*(?:and|or)\s+/i, ''))).filter(Boolean);
}

/** "At most 1 request/second, retry twice on timeouts, log failures" is three requirements. */
export function requirementItems(sentence: string): string[] {
  const parts = splitOutsideBrackets(sentence);
  const listLike = parts.length >= 3 && parts.every((part) => part.split(/\s+/).length <= 8);
  return listLike ? parts : [cleanItem(sentence)];
}

export function withoutFinalStop(text: string): string {
  return text
    .trim()
    .replace(/(?<!\.)\.$/, '')
    .trim();
}

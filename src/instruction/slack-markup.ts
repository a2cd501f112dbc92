/** An instruction with Slack mrkdwn resolved into plain text. */
export interface PlainInstruction {
  /** The text outside code blocks: mentions removed, links resolved, bold/strike markers and emoji dropped. */
  prose: string;
  /** Contents of ``` blocks, in order; the prose keeps a `⟦code N⟧` line where each one was. */
  codeBlocks: string[];
  /** Link targets from `<url|label>`, `<url>` and bare URLs, in order, without duplicates. */
  urls: string[];
}

const CODE_BLOCK = /```([\s\S]*?)(?:```|$)/g;
const ANGLE_SEQUENCE = /<([^<>\n]+)>/g;
const BARE_URL = /\b(?:https?|s3|gs):\/\/[^\s<>|"'`]+/g;
const EMOJI_WORDS: Record<string, string> = {
  fire: 'fire',
  '🔥': 'fire',
  rotating_light: 'alert',
  '🚨': 'alert',
  bug: 'bug',
  '🐛': 'bug',
  boom: 'crash',
  '💥': 'crash',
  red_circle: 'alert',
  '🔴': 'alert',
  sos: 'alert',
  '🆘': 'alert',
};

export function plainInstruction(raw: string): PlainInstruction {
  const urls: string[] = [];
  const codeBlocks: string[] = [];
  let text = raw.replace(/\r\n?/g, '\n');
  text = text.replace(CODE_BLOCK, (_match, body: string) => {
    const code = decodeEntities(stripLanguageLine(body)).trim();
    if (!code) return '\n';
    codeBlocks.push(code);
    return `\n\u27E6code ${codeBlocks.length - 1}\u27E7\n`;
  });
  text = resolveAngleSequences(text, urls);
  text = decodeEntities(text);
  for (const url of text.match(BARE_URL) ?? []) rememberUrl(urls, url);
  text = dropFormattingMarkers(text);
  text = emojiToWords(text);
  text = text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/[\u00A0\u2000-\u200B]/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { prose: text, codeBlocks, urls };
}

export const CODE_MARKER = /\u27E6code (\d+)\u27E7/g;

/** The code blocks whose markers appear in a piece of prose. */
export function codeBlocksIn(text: string, codeBlocks: string[]): string[] {
  return [...text.matchAll(CODE_MARKER)].map((match) => codeBlocks[Number(match[1])] ?? '').filter(Boolean);
}

export function withoutCodeMarkers(text: string): string {
  return text
    .replace(CODE_MARKER, ' ')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

const CODE_LANGUAGES =
  /^(?:ts|tsx|js|jsx|typescript|javascript|json|jsonc|bash|sh|shell|console|python|py|sql|text|txt|yaml|yml|go|rust|rs|java|ruby|rb|diff|log|html|css|xml|toml|ini)\n/i;

function stripLanguageLine(body: string): string {
  return body.replace(CODE_LANGUAGES, '');
}

function resolveAngleSequences(text: string, urls: string[]): string {
  let mentionsSeen = 0;
  return text.replace(ANGLE_SEQUENCE, (match, inner: string) => {
    const [target = '', label] = inner.split('|', 2);
    if (target.startsWith('@')) {
      mentionsSeen += 1;
      return mentionsSeen === 1 ? ' ' : `@${label ?? target.slice(1)}`;
    }
    if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
    if (target.startsWith('!')) return `@${(label ?? target.slice(1)).replace(/^@/, '').replace(/^subteam\^\w+/, 'team')}`;
    if (/^(?:https?|ftp|s3|gs):\/\//i.test(target)) {
      rememberUrl(urls, target);
      return label && label !== target && !target.endsWith(label) ? `${label} (${target})` : target;
    }
    if (target.startsWith('mailto:')) return label ?? target.slice('mailto:'.length);
    return match;
  });
}

function rememberUrl(urls: string[], url: string): void {
  const clean = url.replace(/[.,;:!?)\]]+$/, '');
  if (!urls.includes(clean)) urls.push(clean);
}

function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** `*Task:*` → `Task:`, `~old~` → `old`; leaves globs like `test/*.ts` alone. */
function dropFormattingMarkers(text: string): string {
  return text
    .replace(/(^|[\s(>])\*([^*\n]+?)\*(?=$|[\s).,:;!?])/gm, '$1$2')
    .replace(/(^|[\s(>])~([^~\n]+?)~(?=$|[\s).,:;!?])/gm, '$1$2')
    .replace(/(^|[\s(>])_([^_\n]+?)_(?=$|[\s).,:;!?])/gm, '$1$2')
    .replace(/^\s*>\s?/gm, '');
}

function emojiToWords(text: string): string {
  return text
    .replace(/(^|\s):([a-z][a-z0-9_+-]*):(?=$|[\s.,!?])/g, (_m, before: string, name: string) => `${before}${EMOJI_WORDS[name] ?? ''}`)
    .replace(/\p{Extended_Pictographic}\uFE0F?/gu, (emoji) => ` ${EMOJI_WORDS[emoji.replace('\uFE0F', '')] ?? ''} `);
}

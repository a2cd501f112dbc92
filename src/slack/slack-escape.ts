import { slackifyMarkdown } from 'slackify-markdown';
/**
 * Text from outside (incident titles, alert bodies, notes, the model's report) shown in mrkdwn:
 * `&`, `<` and `>` are escaped so it cannot form mentions (`<!channel>`, `<@U…>`) or disguised links.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `<url|label>` for an http(s) URL; anything else is shown as plain escaped text. */
export function mrkdwnLink(url: string | undefined | null, label: string): string {
  const text = escapeMrkdwn(label).replace(/\|/g, '¦');
  if (!url || !/^https?:\/\/[^\s<>|]+$/i.test(url)) return text;
  return `<${url}|${text}>`;
}

/** Quotes every line of a text block (`> `) after escaping it. */
export function quoteMrkdwn(text: string): string {
  return escapeMrkdwn(text)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * At most `max` UTF-16 units (Slack's limits are at least that generous), ending in `…` when cut. It cuts between
 * graphemes, never inside an emoji, a flag or a letter with its accents, and the result is well-formed.
 */
export function truncate(text: string, max: number): string {
  const whole = text.toWellFormed();
  if (whole.length <= max) return whole;
  let kept = '';
  for (const { segment } of graphemes.segment(whole)) {
    if (kept.length + segment.length > max - 1) break;
    kept += segment;
  }
  return `${kept}…`;
}

/** Stand-ins for `&` and `<` while slackify-markdown converts (it decodes entities and keeps `<…>` as it finds them). */
const AMP = '\uE000';
const LT = '\uE001';
/** Wrench's own mentions in escaped Markdown: the only `<` left unescaped there. */
const OWN_MENTION = /<@[A-Z0-9]+>/g;

/**
 * Slack's Markdown as Wrench streams it (every `&` and `<` from outside escaped, Wrench's own mentions `<@U…>` as they
 * are) in mrkdwn, for an ordinary message: the escaped text stays text (no `<!channel>`, mention or `<url|label>` can
 * form from it), Wrench's mentions stay mentions, Markdown links become mrkdwn links.
 */
export function markdownToMrkdwn(markdown: string): string {
  const mentions: string[] = [];
  const held = markdown
    .replace(/[\uE000\uE001]/g, '')
    .replace(OWN_MENTION, (mention) => `${LT}${mentions.push(mention) - 1}${LT}`)
    .replace(/&lt;/g, LT)
    .replace(/&amp;/g, '&')
    // slackify-markdown decodes what reads as an entity (`&lt;` would come out as `<`) and escapes a bare `&` itself.
    .replace(/&(?=#?[a-z0-9]+;)/gi, AMP)
    .replace(/</g, LT);
  return slackifyMarkdown(held)
    .replace(/\u200B/g, '')
    .replace(new RegExp(`${LT}(\\d+)${LT}`, 'g'), (_whole, i: string) => mentions[Number(i)] ?? '')
    .replace(new RegExp(AMP, 'g'), '&amp;')
    .replace(new RegExp(LT, 'g'), '&lt;')
    .trimEnd();
}

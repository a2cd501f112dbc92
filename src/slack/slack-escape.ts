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

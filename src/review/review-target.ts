/**
 * The pull request a review instruction names: `PR #12`, `#12`, `owner/repo#12` or a pull request URL
 * (read by the instruction reader into `references`); else the last one named earlier in the thread.
 */
export function reviewedPullNumber(elements: Record<string, unknown>, history?: string): number | undefined {
  const references = (elements.references ?? {}) as { prNumbers?: unknown; urls?: unknown };
  const numbers = Array.isArray(references.prNumbers) ? references.prNumbers.filter((n): n is number => Number.isInteger(n) && n > 0) : [];
  if (numbers.length) return numbers[0];
  const urls = Array.isArray(references.urls) ? references.urls.map(String) : [];
  for (const url of urls) {
    const number = /\/pull\/(\d+)/.exec(url)?.[1];
    if (number) return Number(number);
  }
  const earlier = [...(history ?? '').matchAll(/(?:\bPR\s*#?|\bpull request\s*#?|\/pull\/)(\d{1,6})\b/gi)].at(-1)?.[1];
  return earlier ? Number(earlier) : undefined;
}

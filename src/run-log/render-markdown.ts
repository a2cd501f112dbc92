import { micromark } from 'micromark';

/**
 * Markdown (CommonMark) as HTML for the run page. Raw HTML in the text stays text (micromark escapes it unless told
 * otherwise), links keep only safe protocols and an unsafe one is no link at all, images show their alt text (the
 * page loads nothing from elsewhere).
 */
export function renderMarkdown(text: string): string {
  return micromark(text)
    .replace(/<a href="">([\s\S]*?)<\/a>/g, '$1')
    .replace(/<a href="(https?:[^"]*)"/g, '<a href="$1" rel="noreferrer nofollow"')
    .replace(/<img src="[^"]*" alt="([^"]*)"(?: title="[^"]*")? \/>/g, '$1');
}

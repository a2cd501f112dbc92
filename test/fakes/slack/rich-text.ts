import { upperId } from '../shared/ids.js';

/**
 * The rich_text block Slack's client sends alongside `text` for a typed message, built from the
 * mrkdwn wire text the way the client structures it: code fences as rich_text_preformatted, inline
 * code as text with `style.code`, `<@U…>` as user elements, `<#C…|name>` as channel elements,
 * `<!here>` as broadcast, `<url|label>` as links; other text with Slack's escaping undone.
 */
export function richTextBlocksFor(text: string): unknown[] {
  const elements: unknown[] = [];
  const parts = text.split(/```/);
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      elements.push({ type: 'rich_text_preformatted', border: 0, elements: [{ type: 'text', text: decodeEntities(part.replace(/^\n|\n$/g, '')) }] });
    } else if (part) {
      elements.push({ type: 'rich_text_section', elements: sectionElements(part) });
    }
  });
  return [{ type: 'rich_text', block_id: upperId('', 5).toLowerCase(), elements }];
}

const TOKEN = /<([^<>\n]+)>|`([^`\n]+)`/g;

function sectionElements(text: string): unknown[] {
  const out: unknown[] = [];
  let last = 0;
  const plain = (s: string) => {
    if (s) out.push({ type: 'text', text: decodeEntities(s) });
  };
  for (const match of text.matchAll(TOKEN)) {
    plain(text.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[2] !== undefined) {
      out.push({ type: 'text', text: decodeEntities(match[2]), style: { code: true } });
      continue;
    }
    const [target = '', label] = (match[1] ?? '').split('|', 2);
    if (target.startsWith('@')) out.push({ type: 'user', user_id: target.slice(1) });
    else if (target.startsWith('#')) out.push({ type: 'channel', channel_id: target.slice(1) });
    else if (target.startsWith('!subteam^')) out.push({ type: 'usergroup', usergroup_id: target.slice('!subteam^'.length) });
    else if (target.startsWith('!')) out.push({ type: 'broadcast', range: target.slice(1) });
    else out.push({ type: 'link', url: decodeEntities(target), ...(label ? { text: decodeEntities(label) } : {}) });
  }
  plain(text.slice(last));
  return out;
}

function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

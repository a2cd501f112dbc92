import { wellFormedText } from '../security/well-formed-text.js';

/**
 * The one way Wrench reads what a person wrote in Slack. Slack sends a message twice: `text` in its
 * wire format (`&amp;`, `<@U123>`, `<#C123|name>`, `<url|label>`) and, for messages typed in the
 * client, `blocks` whose rich_text keeps code spans, links, user and channel references exactly.
 * Both are turned into the text the person saw: code as Markdown code, links as `label (url)`, people
 * as `@display name`, channels as `#name`, emoji as `:name:`. Wrench's own mention is dropped.
 */

/** Names of users and channels (users.info / conversations.info, cached); undefined when unknown. */
export interface SlackNames {
  userName(userId: string): Promise<string | undefined>;
  /** The person's Slack locale (`de-DE`), when Slack tells it. */
  userLocale?(userId: string): Promise<string | undefined>;
  /** The person's time zone (`Europe/Berlin`, users.info's `tz`), when Slack tells it. */
  userTimeZone?(userId: string): Promise<string | undefined>;
  channelName(channelId: string): Promise<string | undefined>;
}

/** Message subtypes that are still a person writing (with files, or also sent to the channel). */
export const PERSON_MESSAGE_SUBTYPES: ReadonlySet<string> = new Set(['file_share', 'thread_broadcast']);

export interface SlackMessageContent {
  text?: string | null;
  blocks?: unknown;
}

export async function messageText(message: SlackMessageContent, names: SlackNames, botUserId?: string): Promise<string> {
  const fromBlocks = await richTextOf(message.blocks, names, botUserId);
  const text = fromBlocks ?? (await decodeMrkdwn(typeof message.text === 'string' ? message.text : '', names, botUserId));
  return tidy(text);
}

// ---- rich_text blocks -------------------------------------------------------------------------

type Element = Record<string, unknown> & { type?: unknown; elements?: unknown };
type Style = { code?: boolean } | undefined;

async function richTextOf(blocks: unknown, names: SlackNames, botUserId?: string): Promise<string | undefined> {
  if (!Array.isArray(blocks)) return undefined;
  const richText = blocks.filter((b): b is Element => isElement(b) && b.type === 'rich_text' && Array.isArray(b.elements));
  if (richText.length === 0) return undefined;
  const parts: string[] = [];
  for (const block of richText) parts.push(await containers(block.elements as unknown[], names, botUserId));
  return parts.join('\n');
}

async function containers(elements: unknown[], names: SlackNames, botUserId?: string): Promise<string> {
  const out: string[] = [];
  for (const element of elements.filter(isElement)) {
    const inner = Array.isArray(element.elements) ? element.elements : [];
    switch (element.type) {
      case 'rich_text_section':
        out.push(await inline(inner, names, botUserId));
        break;
      case 'rich_text_preformatted': {
        const code = (await inline(inner, names, botUserId, true)).replace(/^\n+|\n+$/g, '');
        const before = (out.at(-1) ?? '\n').endsWith('\n') ? '' : '\n';
        out.push(`${before}\`\`\`\n${code}\n\`\`\`\n`);
        break;
      }
      case 'rich_text_quote':
        out.push(`${(await inline(inner, names, botUserId)).replace(/^/gm, '> ')}\n`);
        break;
      case 'rich_text_list': {
        const indent = '  '.repeat(typeof element.indent === 'number' ? Math.min(element.indent, 8) : 0);
        const start = typeof element.offset === 'number' ? element.offset : 0;
        const items: string[] = [];
        for (const [i, item] of inner.filter(isElement).entries()) {
          const marker = element.style === 'ordered' ? `${start + i + 1}.` : '-';
          items.push(`${indent}${marker} ${await inline(Array.isArray(item.elements) ? item.elements : [], names, botUserId)}`);
        }
        out.push(`${items.join('\n')}\n`);
        break;
      }
      default:
        break;
    }
  }
  return out.join('');
}

/** Inline elements; consecutive code-styled pieces form one code span. */
async function inline(elements: unknown[], names: SlackNames, botUserId?: string, preformatted = false): Promise<string> {
  let out = '';
  let code = '';
  const flushCode = () => {
    if (!code) return;
    const fence = code.includes('`') ? '``' : '`';
    out += `${fence}${code}${fence}`;
    code = '';
  };
  for (const element of elements.filter(isElement)) {
    const piece = await inlineElement(element, names, botUserId);
    if (!preformatted && (element.style as Style)?.code && element.type === 'text') {
      code += piece;
      continue;
    }
    flushCode();
    out += piece;
  }
  flushCode();
  return out;
}

async function inlineElement(element: Element, names: SlackNames, botUserId?: string): Promise<string> {
  const str = (value: unknown) => (typeof value === 'string' ? value : '');
  switch (element.type) {
    case 'text':
      return str(element.text);
    case 'link': {
      const url = str(element.url);
      const label = str(element.text).trim();
      return label && label !== url && !url.endsWith(label) ? `${label} (${url})` : url;
    }
    case 'user': {
      const id = str(element.user_id);
      if (!id || id === botUserId) return '';
      return `@${(await names.userName(id)) ?? id}`;
    }
    case 'usergroup':
      return `@${str(element.usergroup_id) || 'group'}`;
    case 'channel': {
      const id = str(element.channel_id);
      return `#${(await names.channelName(id)) ?? id}`;
    }
    case 'broadcast':
      return `@${str(element.range) || 'here'}`;
    case 'emoji':
      return `:${str(element.name)}:`;
    case 'date':
      return str(element.fallback) || (typeof element.timestamp === 'number' ? new Date(element.timestamp * 1000).toISOString() : '');
    case 'color':
      return str(element.value);
    case 'team':
      return str(element.team_id);
    default:
      return str(element.text);
  }
}

// ---- text (mrkdwn wire format) ----------------------------------------------------------------

const ANGLE = /<([^<>\n]*)>/g;

async function decodeMrkdwn(text: string, names: SlackNames, botUserId?: string): Promise<string> {
  const pieces: Array<string | Promise<string>> = [];
  let last = 0;
  for (const match of text.matchAll(ANGLE)) {
    pieces.push(decodeEntities(text.slice(last, match.index)));
    pieces.push(reference(match[1] ?? '', names, botUserId));
    last = match.index + match[0].length;
  }
  pieces.push(decodeEntities(text.slice(last)));
  return (await Promise.all(pieces)).join('');
}

async function reference(inner: string, names: SlackNames, botUserId?: string): Promise<string> {
  const bar = inner.indexOf('|');
  const target = bar >= 0 ? inner.slice(0, bar) : inner;
  const label = bar >= 0 ? decodeEntities(inner.slice(bar + 1)) : undefined;
  if (target.startsWith('@')) {
    const id = target.slice(1);
    if (id === botUserId) return '';
    return `@${label?.replace(/^@/, '') || ((await names.userName(id)) ?? id)}`;
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    return `#${label || ((await names.channelName(id)) ?? id)}`;
  }
  if (target.startsWith('!')) {
    const command = target.slice(1);
    if (label) return command.startsWith('date^') ? label : `@${label.replace(/^@/, '')}`;
    return `@${command.replace(/^subteam\^/, '')}`;
  }
  const url = decodeEntities(target);
  if (url.startsWith('mailto:')) return label ?? url.slice('mailto:'.length);
  return label && label !== url && !url.endsWith(label) ? `${label} (${url})` : url;
}

function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Also made well-formed here, once, as it comes in: no NUL or lone surrogate from a person goes further (git refuses it). */
function tidy(text: string): string {
  return wellFormedText(text)
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/(\S)[ \t]{2,}(?=\S)/g, (m, before: string, offset: number, all: string) => (insideFence(all, offset) ? m : `${before} `))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function insideFence(text: string, offset: number): boolean {
  return (text.slice(0, offset).match(/```/g) ?? []).length % 2 === 1;
}

function isElement(value: unknown): value is Element {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

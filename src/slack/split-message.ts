import type { KnownBlock } from '@slack/types';

/** Slack's limits: 3,000 characters a section, 50 blocks and 40,000 characters of text a message. */
export const SLACK_LIMITS = { sectionChars: 3000, blocksPerMessage: 50, textChars: 40_000 } as const;

export interface SlackMessagePart {
  text: string;
  blocks: KnownBlock[];
}

/**
 * Splits long mrkdwn into sections and messages within Slack's limits, at paragraph or line
 * boundaries where possible, keeping code fences balanced. Nothing is cut: the parts, posted in
 * order, hold the whole text.
 */
export function splitForSlack(mrkdwn: string, limits = SLACK_LIMITS): SlackMessagePart[] {
  const sections = chunkText(mrkdwn, limits.sectionChars - 10);
  const messages: SlackMessagePart[] = [];
  let blocks: KnownBlock[] = [];
  let size = 0;
  const flush = () => {
    if (blocks.length === 0) return;
    const text = blocks.map((b) => (b.type === 'section' && b.text ? b.text.text : '')).join('\n');
    messages.push({ text, blocks });
    blocks = [];
    size = 0;
  };
  for (const section of sections) {
    if (blocks.length >= limits.blocksPerMessage || size + section.length > limits.textChars / 2) flush();
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: section } });
    size += section.length;
  }
  flush();
  return messages;
}

/** Cuts text into pieces of at most `max` characters, preferring blank lines, then newlines, then spaces. */
export function chunkText(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text.trim();
  let openFence = false;
  while (rest.length > 0) {
    const prefix: string = openFence ? '```\n' : '';
    const room = max - prefix.length - 4;
    if (prefix.length + rest.length <= max) {
      pieces.push(prefix + rest);
      break;
    }
    let cut = rest.lastIndexOf('\n\n', room);
    if (cut < room / 2) cut = rest.lastIndexOf('\n', room);
    if (cut < room / 2) cut = rest.lastIndexOf(' ', room);
    if (cut < room / 2) cut = room;
    let piece: string = prefix + rest.slice(0, cut);
    const fences: number = (piece.match(/```/g) ?? []).length;
    openFence = fences % 2 === 1;
    if (openFence) piece += '\n```';
    pieces.push(piece.trimEnd());
    rest = rest
      .slice(cut)
      .replace(/^\s*\n/, '')
      .trimStart();
  }
  return pieces.filter((p) => p.trim().length > 0);
}

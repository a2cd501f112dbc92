import { micromark } from 'micromark';

/**
 * A Slack thread as an HTML page that looks like Slack's, from the messages Slack keeps (the Slack fake stores what
 * Slack would render: rich_text, `plan` with its `task_card`s, `markdown`, section and context blocks). Made to draw
 * docs/images/thread.png from a real run (test/docs/thread-picture.ts); every text in it is escaped, as it is what
 * people and the agent wrote.
 */

export interface ThreadMessage {
  ts: string;
  text?: string;
  user?: string;
  bot_id?: string;
  blocks?: unknown[];
  reactions?: { name: string; count: number }[];
}

export interface ThreadPeople {
  /** Display names by Slack user id. */
  names: Record<string, string>;
  /** The channel's name, without #. */
  channel: string;
}

type Block = Record<string, unknown> & { type?: string };

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Emoji as glyphs every DejaVu has (the picture is drawn without an emoji font). */
const EMOJI: Record<string, string> = { white_check_mark: '<span class="ok">✔</span>', x: '<span class="no">✘</span>', warning: '⚠' };

const STATUS: Record<string, { icon: string; label: string }> = {
  complete: { icon: '✓', label: 'complete' },
  in_progress: { icon: '◌', label: 'in progress' },
  pending: { icon: '○', label: 'pending' },
  error: { icon: '!', label: 'error' },
};

/** Slack's time of day for a message ts (UTC, so the picture does not depend on the machine). */
function timeOf(ts: string): string {
  const date = new Date(Number(ts.split('.')[0]) * 1000);
  return `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
}

function richElement(element: Block, people: ThreadPeople): string {
  switch (element.type) {
    case 'text': {
      const style = (element.style ?? {}) as Record<string, boolean>;
      let html = escapeHtml(String(element.text ?? ''));
      if (style.code) html = `<code>${html}</code>`;
      if (style.bold) html = `<b>${html}</b>`;
      if (style.italic) html = `<i>${html}</i>`;
      return html;
    }
    case 'user':
      return `<span class="mention">@${escapeHtml(people.names[String(element.user_id)] ?? String(element.user_id))}</span>`;
    case 'link':
      return `<a>${escapeHtml(String(element.text ?? element.url ?? ''))}</a>`;
    case 'emoji':
      return EMOJI[String(element.name)] ?? `:${escapeHtml(String(element.name))}:`;
    default:
      return escapeHtml(String(element.text ?? ''));
  }
}

function richText(block: Block, people: ThreadPeople): string {
  const parts = ((block.elements ?? []) as Block[]).map((section) => {
    const inner = ((section.elements ?? []) as Block[]).map((element) => richElement(element, people)).join('');
    if (section.type === 'rich_text_preformatted') return `<pre>${inner}</pre>`;
    if (section.type === 'rich_text_quote') return `<blockquote>${inner}</blockquote>`;
    return `<div>${inner}</div>`;
  });
  return parts.join('');
}

/** Slack's mrkdwn (sections, context): *bold*, _italic_, `code`, <url|text>, as Slack shows them. */
function mrkdwn(text: string): string {
  return escapeHtml(text)
    .replace(/&lt;(https?:[^|&]+)\|([^&]+)&gt;/g, '<a>$2</a>')
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*([^*\n]+)\*/g, '<b>$1</b>')
    .replace(/(^|\s)_([^_\n]+)_/g, '$1<i>$2</i>')
    .replace(/\n/g, '<br>');
}

/** A `markdown` block: CommonMark where a line break is a break, as Slack shows it; raw HTML in it is text, never markup. */
function markdown(text: string): string {
  const breaks = text.replace(/([^\n\\])\n(?![\n>*-]|\d+\. |$)/g, '$1\\\n');
  return micromark(breaks, { allowDangerousHtml: false, allowDangerousProtocol: false }).replace(/<a href="[^"]*">/g, '<a>');
}

function taskCard(task: Block, people: ThreadPeople): string {
  const status = STATUS[String(task.status)] ?? { icon: '·', label: String(task.status) };
  const output = task.output ? `<div class="output">${richText(task.output as Block, people)}</div>` : '';
  const sources = ((task.sources ?? []) as Block[]).map((source) => `<a class="source">${escapeHtml(String(source.text ?? source.url ?? ''))}</a>`).join('');
  return `<li class="task ${escapeHtml(String(task.status))}"><span class="status" title="${status.label}">${status.icon}</span><div><div class="title">${escapeHtml(String(task.title ?? ''))}</div>${output}${sources}</div></li>`;
}

function block(item: Block, people: ThreadPeople): string {
  switch (item.type) {
    case 'rich_text':
      return `<div class="rich">${richText(item, people)}</div>`;
    case 'plan':
      return `<div class="plan"><div class="plan-title">${escapeHtml(String(item.title ?? ''))}</div><ul>${((item.tasks ?? []) as Block[]).map((task) => taskCard(task, people)).join('')}</ul></div>`;
    case 'task_card':
      return `<div class="plan"><ul>${taskCard(item, people)}</ul></div>`;
    case 'markdown':
      return `<div class="markdown">${markdown(String(item.text ?? ''))}</div>`;
    case 'section':
      return `<div class="section">${mrkdwn(String((item.text as Block | undefined)?.text ?? ''))}</div>`;
    case 'context':
      return `<div class="context">${((item.elements ?? []) as Block[]).map((element) => mrkdwn(String(element.text ?? ''))).join(' ')}</div>`;
    case 'actions':
      return `<div class="actions">${((item.elements ?? []) as Block[]).map((element) => `<span class="button">${escapeHtml(String((element.text as Block | undefined)?.text ?? ''))}</span>`).join('')}</div>`;
    case 'divider':
      return '<hr>';
    default:
      return '';
  }
}

function message(item: ThreadMessage, people: ThreadPeople): string {
  const name = people.names[item.user ?? ''] ?? item.user ?? 'someone';
  const body = item.blocks?.length
    ? (item.blocks as Block[]).map((entry) => block(entry, people)).join('')
    : `<div class="rich">${mrkdwn(item.text ?? '')}</div>`;
  const reactions = (item.reactions ?? [])
    .map((reaction) => `<span class="reaction">${EMOJI[reaction.name] ?? `:${escapeHtml(reaction.name)}:`} ${reaction.count}</span>`)
    .join('');
  return `<div class="message"><div class="avatar${item.bot_id ? ' bot' : ''}">${escapeHtml(name.slice(0, 1).toUpperCase())}</div><div class="content"><div class="meta"><b>${escapeHtml(name)}</b>${item.bot_id ? '<span class="app">APP</span>' : ''}<span class="time">${timeOf(item.ts)}</span></div>${body}${reactions ? `<div class="reactions">${reactions}</div>` : ''}</div></div>`;
}

const STYLE = `
body { margin: 0; background: #fff; font: 15px/1.46668 -apple-system, "Segoe UI", "DejaVu Sans", Lato, sans-serif; color: #1d1c1d; }
.pane { width: 760px; border: 1px solid #ddd; }
.header { padding: 12px 20px; border-bottom: 1px solid #ddd; font-weight: 700; font-size: 18px; }
.header span { font-weight: 400; color: #616061; font-size: 13px; margin-left: 6px; }
.message { display: flex; gap: 10px; padding: 10px 20px; }
.avatar { flex: none; width: 36px; height: 36px; border-radius: 6px; background: #e8912d; color: #fff; font-weight: 700; display: flex; align-items: center; justify-content: center; }
.avatar.bot { background: #4a154b; }
.content { min-width: 0; flex: 1; }
.meta b { margin-right: 6px; }
.app { font-size: 10px; background: #e8e8e8; color: #616061; border-radius: 3px; padding: 1px 3px; margin-right: 6px; font-weight: 700; }
.time { color: #616061; font-size: 12px; }
code { font: 12px "DejaVu Sans Mono", monospace; color: #c01343; background: #f6f6f6; border: 1px solid #e0e0e0; border-radius: 3px; padding: 1px 3px; }
pre { font: 12px "DejaVu Sans Mono", monospace; background: #f6f6f6; border: 1px solid #e0e0e0; border-radius: 4px; padding: 8px; white-space: pre-wrap; }
pre code { border: 0; padding: 0; color: inherit; }
.mention { color: #1264a3; background: #e8f5fa; border-radius: 3px; padding: 0 2px; }
a { color: #1264a3; text-decoration: none; }
.plan { border: 1px solid #ddd; border-radius: 8px; margin: 6px 0 10px; padding: 10px 14px; }
.plan-title { font-weight: 700; margin-bottom: 6px; }
.plan ul { list-style: none; margin: 0; padding: 0; }
.task { display: flex; gap: 10px; padding: 4px 0; }
.status { flex: none; width: 18px; height: 18px; border-radius: 50%; font-size: 12px; display: flex; align-items: center; justify-content: center; margin-top: 2px; border: 1.5px solid #aaa; color: #aaa; }
.complete .status { background: #007a5a; border-color: #007a5a; color: #fff; }
.in_progress .status { border-color: #1264a3; color: #1264a3; }
.error .status { background: #e01e5a; border-color: #e01e5a; color: #fff; }
.task .title { font-weight: 600; }
.task .output { color: #616061; font-size: 13px; }
.task .source { font-size: 13px; display: block; }
.markdown p, .markdown ul, .markdown blockquote { margin: 4px 0 8px; }
.markdown ul { padding-left: 22px; }
.markdown blockquote { border-left: 4px solid #ddd; padding-left: 10px; margin-left: 0; color: #1d1c1d; }
.context { color: #616061; font-size: 13px; }
.reactions { margin-top: 4px; }
.reaction { display: inline-block; border: 1px solid #1d9bd1; background: #e8f5fa; border-radius: 12px; padding: 0 8px; font-size: 12px; }
.ok { color: #007a5a; } .no { color: #e01e5a; }
.button { display: inline-block; border: 1px solid #bbb; border-radius: 4px; padding: 2px 10px; margin-right: 6px; font-weight: 700; font-size: 13px; }
`;

/** The whole page: a thread pane with its first message and the replies under it. */
export function threadHtml(messages: ThreadMessage[], people: ThreadPeople): string {
  const [first, ...replies] = messages;
  const header = `<div class="header">Thread<span>#${escapeHtml(people.channel)}</span></div>`;
  const divider = replies.length ? `<div class="context" style="padding: 0 20px">${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}</div>` : '';
  const body = [first ? message(first, people) : '', divider, ...replies.map((reply) => message(reply, people))].join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${STYLE}</style></head><body><div class="pane">${header}${body}</div></body></html>`;
}

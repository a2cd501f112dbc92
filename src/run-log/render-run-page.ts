import { renderMarkdown } from './render-markdown.js';
import type { RunEntry, RunSummary } from './run-log-types.js';

const COLLAPSE_LINES = 12;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/**
 * The whole page: header, phases, `controls` (the stop and steer forms, rendered by render-run-controls), timeline;
 * while running, a few lines of script follow the run by server-sent events.
 */
export function renderRunPage(
  summary: RunSummary,
  entries: RunEntry[],
  live: { eventsPath: string; nonce: string } | null,
  recordPath?: string,
  controls = '',
): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex">
<title>Wrench run · ${escapeHtml(summary.repository)}</title><style>${CSS}</style></head>
<body><main>
<header id="summary">${renderSummary(summary)}</header>
${controls}
<h2>Timeline</h2>
<ol id="timeline">${entries.map(renderEntry).join('')}</ol>
${entries.length === 0 ? '<p class="empty" id="empty">Nothing recorded yet.</p>' : ''}
${recordPath ? `<p class="raw"><a id="raw-record" href="${escapeHtml(recordPath)}">The raw record as JSON</a></p>` : ''}
</main>
${live ? liveScript(live.eventsPath, live.nonce, entries.length) : ''}
</body></html>`;
}

export function renderSummary(s: RunSummary): string {
  const links = [
    link(s.threadUrl, 'Slack thread'),
    s.pullRequest ? link(s.pullRequest.url, `Pull request #${s.pullRequest.number}${s.pullRequest.draft ? ' (draft)' : ''}`) : '',
  ].filter(Boolean);
  const usage = s.usage;
  const facts: Array<[string, string]> = [
    ['Repository', s.repository],
    ['Category', s.category],
    ['Requested by', s.requesterName ?? s.requester],
    ['Started', `${new Date(s.startedAt).toISOString().replace('T', ' ').slice(0, 19)} UTC`],
    ['Duration', formatSeconds(((s.finishedAt ?? Date.now()) - s.startedAt) / 1000) + (s.finishedAt ? '' : ' so far')],
    ...(usage ? [['Tokens', `${usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens} in · ${usage.outputTokens} out`] as [string, string]] : []),
    ...(s.costUsd !== undefined ? [['Cost', `$${s.costUsd.toFixed(2)}`] as [string, string]] : []),
  ];
  const phases = s.phases
    .map((p) => `<li><span class="phase">${escapeHtml(p.name)}</span> ${p.endedAt ? formatSeconds((p.endedAt - p.startedAt) / 1000) : 'running'}</li>`)
    .join('');
  return `<p class="status status-${s.status}" id="status">${escapeHtml(statusLabel(s))}</p>
<h1>${escapeHtml(firstLine(s.instruction))}</h1>
${s.instruction.includes('\n') || s.instruction.length > 120 ? `<details class="instruction"><summary>Full instruction</summary><pre>${escapeHtml(s.instruction)}</pre></details>` : ''}
${links.length ? `<p class="links">${links.join(' · ')}</p>` : ''}
<dl class="facts">${facts.map(([k, v]) => `<div><dt>${k}</dt><dd>${escapeHtml(v)}</dd></div>`).join('')}</dl>
${phases ? `<ul class="phases">${phases}</ul>` : ''}
${s.summary ? `<section class="result"><h2>Result</h2><p class="report">${escapeHtml(s.summary)}</p></section>` : ''}
${s.truncated ? '<p class="warning">This record reached its size cap; later steps were not kept.</p>' : ''}`;
}

function entryTime(at: number): string {
  return `<time>${new Date(at).toISOString().slice(11, 19)}</time>`;
}

export function renderEntry(entry: RunEntry): string {
  const time = entryTime(entry.at);
  switch (entry.kind) {
    case 'phase':
      return `<li class="entry phase-entry" data-kind="phase">${time}<strong>${escapeHtml(entry.phase)}</strong>${entry.detail ? ` · ${escapeHtml(entry.detail)}` : ''}</li>`;
    case 'text':
      return `<li class="entry text-entry" data-kind="text">${time}<span class="label">model</span><div class="prose">${escapeHtml(entry.text)}</div></li>`;
    case 'turn':
      return `<li class="entry turn-entry" data-kind="turn" id="turn-${entry.step}">${time}<a class="anchor" href="#turn-${entry.step}">#</a><span class="label">model call</span>${turnFacts(entry)}</li>`;
    case 'tool':
      return `<li class="entry tool-entry${entry.isError ? ' error' : ''}" data-kind="tool" ${anchor(entry)}<span class="label">${escapeHtml(entry.name)}</span>${toolFacts(entry)}
<pre class="command">${escapeHtml(entry.input)}</pre>${block(entry.isError ? 'error output' : 'output', entry.output)}</li>`;
    case 'edit':
      return `<li class="entry edit-entry" data-kind="edit" ${anchor(entry)}<span class="label">edit</span> <code>${escapeHtml(entry.path)}</code>${toolFacts(entry)}${diffBlock(entry.diff, false)}</li>`;
    case 'verification':
      return `<li class="entry verification-entry ${entry.passed ? 'passed' : 'failed'}" data-kind="verification">${time}<span class="label">verification · ${entry.passed ? 'passed' : 'regressed'}</span><div class="markdown">${renderMarkdown(entry.text)}</div></li>`;
    case 'changes':
      return `<li class="entry changes-entry" data-kind="changes">${time}<span class="label">the change</span>${diffBlock(entry.diff, true)}</li>`;
    case 'note':
      return `<li class="entry note-entry ${entry.level}" data-kind="note">${time}${escapeHtml(entry.text)}</li>`;
  }
}

/** The id a step can be linked by, the time, and the link to itself; closes the <li> start tag. */
function anchor(entry: { step: number; at: number }): string {
  const id = `step-${entry.step}-${entry.at}`;
  return `id="${id}">${entryTime(entry.at)}<a class="anchor" href="#${id}">#</a>`;
}

function toolFacts(entry: { durationMs?: number; exitCode?: number | null }): string {
  const facts = [
    entry.durationMs === undefined ? '' : `<span class="duration">${escapeHtml(formatDuration(entry.durationMs))}</span>`,
    entry.exitCode === undefined ? '' : `<span class="exit">${entry.exitCode === null ? 'killed by a signal' : `exit ${entry.exitCode}`}</span>`,
  ].filter(Boolean);
  return facts.length ? ` <span class="facts-inline">${facts.join(' · ')}</span>` : '';
}

/**
 * A model call's own tokens (input counts cache reads and writes, as the header does), the API's answer time and,
 * before it, any wait for the fleet's shared model budget.
 */
function turnFacts(entry: Extract<RunEntry, { kind: 'turn' }>): string {
  const { inputTokens, cacheReadTokens, cacheWriteTokens, outputTokens } = entry.usage;
  const cached = cacheReadTokens ? ` (${cacheReadTokens} from cache)` : '';
  const waited = entry.budgetWaitMs ? `<span class="budget-wait">waited ${escapeHtml(formatDuration(entry.budgetWaitMs))} for the model budget</span> · ` : '';
  return ` <span class="facts-inline">${waited}<span class="latency">${escapeHtml(formatDuration(entry.latencyMs))}</span> · <span class="tokens">${inputTokens + cacheReadTokens + cacheWriteTokens} in${cached} · ${outputTokens} out</span></span>`;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : formatSeconds(Math.round(ms / 1000));
}

/** Short texts shown as they are; long ones folded, with their line count. */
function block(label: string, text: string): string {
  const lines = text.split('\n').length;
  const pre = `<pre>${escapeHtml(text)}</pre>`;
  if (lines <= COLLAPSE_LINES) return pre;
  return `<details><summary>${escapeHtml(label)} (${lines} lines)</summary>${pre}</details>`;
}

function diffBlock(diff: string, open: boolean): string {
  const lines = diff.replace(/\n$/, '').split('\n');
  const body = lines
    .map((line) => {
      const cls = /^(\+\+\+|---)/.test(line)
        ? 'file'
        : line.startsWith('+')
          ? 'add'
          : line.startsWith('-')
            ? 'del'
            : line.startsWith('@@')
              ? 'hunk'
              : line.startsWith('diff ')
                ? 'file'
                : '';
      return `<span${cls ? ` class="${cls}"` : ''}>${escapeHtml(line) || ' '}</span>`;
    })
    .join('');
  const pre = `<pre class="diff">${body}</pre>`;
  return lines.length <= COLLAPSE_LINES * 3 || open ? pre : `<details><summary>diff (${lines.length} lines)</summary>${pre}</details>`;
}

/** Only http(s) addresses become links. */
function link(url: string | undefined, label: string): string {
  return url && /^https?:\/\//i.test(url) ? `<a href="${escapeHtml(url)}" rel="noreferrer">${escapeHtml(label)}</a>` : '';
}

function statusLabel(s: RunSummary): string {
  if (s.status === 'running') return 'Running';
  if (s.status === 'queued') return 'Queued';
  const outcome: Record<string, string> = {
    pr_opened: 'Done · pull request opened',
    pr_updated: 'Done · pull request updated',
    answered: 'Done · answered without changes',
    stopped: 'Stopped early',
    failed: 'Failed',
    cancelled: 'Cancelled',
    waiting: 'Paused · asked the requester a question',
  };
  return outcome[s.outcome ?? s.status] ?? s.status;
}

function firstLine(text: string): string {
  const line = (text.split('\n')[0] ?? '').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** Follows the run: each server-sent `entry` is a rendered <li>, `summary` the new header; `end` closes. */
function liveScript(eventsPath: string, nonce: string, count: number): string {
  const url = JSON.stringify(`${eventsPath}${eventsPath.includes('?') ? '&' : '?'}from=${count}`);
  return `<script nonce="${escapeHtml(nonce)}">
(() => {
  const source = new EventSource(${url});
  const timeline = document.getElementById('timeline');
  source.addEventListener('entry', (e) => {
    document.getElementById('empty')?.remove();
    timeline.insertAdjacentHTML('beforeend', JSON.parse(e.data));
  });
  source.addEventListener('summary', (e) => { document.getElementById('summary').innerHTML = JSON.parse(e.data); });
  source.addEventListener('end', () => {
    source.close();
    document.getElementById('actions')?.remove();
  });
})();
</script>`;
}

const CSS = `
:root { color-scheme: light; --fg: #1f2933; --muted: #616e7c; --line: #e4e7eb; --bg: #f5f7fa; --add: #e3f9e5; --del: #ffe3e3; --addfg: #0e5e1f; --delfg: #8a1c1c; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 1000px; margin: 0 auto; padding: 24px 20px 60px; }
h1 { font-size: 22px; margin: 4px 0 8px; }
h2 { font-size: 17px; margin: 28px 0 8px; }
a { color: #0b69a3; }
.anchor { color: var(--muted); text-decoration: none; margin-right: 6px; }
.facts-inline { color: var(--muted); font-size: 13px; }
.status { display: inline-block; margin: 0; padding: 2px 10px; border-radius: 12px; font-size: 13px; font-weight: 600; background: #e4e7eb; }
.status-running, .status-queued { background: #fff3c4; color: #8d2b0b; }
.status-done { background: #c1eac5; color: #0e5e1f; }
.status-failed { background: #ffbdbd; color: #8a1c1c; }
.facts { display: flex; flex-wrap: wrap; gap: 6px 24px; margin: 12px 0; }
.facts div { display: flex; gap: 6px; } .facts dt { color: var(--muted); } .facts dd { margin: 0; font-weight: 500; }
.phases { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; padding: 0; margin: 8px 0; font-size: 13px; }
.phases li { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 2px 8px; } .phase { font-weight: 600; }
.result { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 4px 16px; }
#timeline { list-style: none; padding: 0; margin: 0; }
.entry { background: #fff; border: 1px solid var(--line); border-left: 4px solid #9aa5b1; border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.entry time { color: var(--muted); font-size: 12px; margin-right: 8px; font-variant-numeric: tabular-nums; }
.label { font-size: 12px; font-weight: 700; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.phase-entry { border-left-color: #3e4c59; background: transparent; border-style: dashed; border-left-style: solid; padding: 4px 12px; }
.text-entry { border-left-color: #7b61ff; } .turn-entry { border-left-color: #c9bfff; padding: 4px 12px; } .prose { white-space: pre-wrap; margin-top: 4px; }
.tool-entry { border-left-color: #0b69a3; } .tool-entry.error { border-left-color: #cf1124; }
.edit-entry, .changes-entry { border-left-color: #2f8132; }
.verification-entry.passed { border-left-color: #2f8132; } .verification-entry.failed { border-left-color: #cf1124; }
.note-entry.warning { border-left-color: #f0b429; } .note-entry.error { border-left-color: #cf1124; color: #8a1c1c; }
pre { margin: 6px 0 0; padding: 8px 10px; background: #f0f4f8; border-radius: 4px; overflow-x: auto; font: 12.5px/1.45 ui-monospace, "SFMono-Regular", Menlo, monospace; white-space: pre-wrap; word-break: break-word; }
pre.command { background: #1f2933; color: #f5f7fa; } pre.command::before { content: "$ "; color: #9aa5b1; }
pre.diff span { display: block; } pre.diff .add { background: var(--add); color: var(--addfg); } pre.diff .del { background: var(--del); color: var(--delfg); }
pre.diff .hunk { color: #6b4fbb; } pre.diff .file { font-weight: 700; }
p.report { white-space: pre-wrap; }
.markdown { margin-top: 4px; } .markdown p, .markdown ul, .markdown ol { margin: 6px 0; } .markdown h1, .markdown h2, .markdown h3 { font-size: 15px; margin: 10px 0 4px; }
.markdown code { font: 12.5px ui-monospace, "SFMono-Regular", Menlo, monospace; background: #f0f4f8; padding: 1px 4px; border-radius: 3px; } .markdown pre code { padding: 0; background: none; }
details summary { cursor: pointer; color: var(--muted); font-size: 13px; margin-top: 6px; }
.warning { color: #8d2b0b; } .empty { color: var(--muted); }
.actions { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-end; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; margin: 12px 0; }
.actions form.steer { flex: 1 1 420px; display: flex; flex-direction: column; gap: 6px; } .actions label { font-size: 13px; color: var(--muted); }
.actions textarea { font: inherit; padding: 6px 8px; border: 1px solid #cbd2d9; border-radius: 4px; }
.actions button { font: inherit; padding: 5px 14px; border-radius: 6px; border: 1px solid #9aa5b1; background: #f5f7fa; cursor: pointer; align-self: flex-start; }
.actions form.stop button { border-color: #cf1124; color: #8a1c1c; }
.notice { background: #e3f9e5; border: 1px solid #c1eac5; border-radius: 6px; padding: 6px 12px; }
`;

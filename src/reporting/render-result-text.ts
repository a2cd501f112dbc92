import type { RunResult } from './run-result.js';

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** "12 steps · 3m 10s · 45.2k tokens · $0.42": the thread's line; the CLI and the run page show the detail. */
export function formatUsageCompact(result: RunResult): string | undefined {
  if (!result.usage) return undefined;
  const u = result.usage;
  const tokens = u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
  const shown = tokens >= 1_000_000 ? `${(tokens / 1_000_000).toFixed(1)}M` : tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
  const cost = result.costUsd !== undefined ? ` · $${result.costUsd.toFixed(2)}` : '';
  return `${result.steps ?? 0} steps · ${formatDuration(result.durationMs)} · ${shown} tokens${cost}`;
}

export function formatUsage(result: RunResult): string | undefined {
  if (!result.usage) return undefined;
  const u = result.usage;
  const cost = result.costUsd !== undefined ? ` · about $${result.costUsd.toFixed(2)}` : '';
  return `${result.steps ?? 0} steps · ${formatDuration(result.durationMs)} · tokens: ${u.inputTokens} in, ${u.outputTokens} out, ${u.cacheReadTokens} cache read, ${u.cacheWriteTokens} cache write${cost}`;
}

/** A plain Markdown rendering: the CLI's output and the pull request body share it. */
export function renderResultMarkdown(result: RunResult, options: { threadUrl?: string; forPullRequest?: boolean } = {}): string {
  const lines: string[] = [];
  const heading = (title: string) => (options.forPullRequest ? `## ${title}` : `**${title}**`);
  // What Wrench checked itself comes first; when its checks contradict the agent, the agent's words are quoted as its claim.
  const contradicted = result.verificationVerdict === 'regressed';
  if (result.verification) lines.push(heading('Verification'), result.verification, '');
  const summary = result.report?.summary ?? result.answer ?? '';
  if (summary && contradicted) lines.push(heading("The agent's report (contradicted by the checks above)"), quote(summary), '');
  else if (summary) lines.push(heading('Summary'), summary, '');
  if (result.draftReason) lines.push(heading('Why this is a draft'), result.draftReason, '');
  if (result.stopReason) lines.push(heading('Stopped early'), result.stopReason, '');
  const changes = result.report?.filesChanged?.length
    ? result.report.filesChanged.map((f) => `- \`${f.path}\`: ${f.change}`)
    : result.filesChanged.map((f) => `- \`${f}\``);
  if (changes.length) lines.push(heading('Changes'), ...changes, '');
  for (const section of result.sections ?? []) lines.push(heading(section.title), section.body, '');
  if (result.report?.verification) {
    if (contradicted) lines.push(heading('What the agent said it checked (not confirmed)'), quote(result.report.verification), '');
    else lines.push(heading(result.verification ? "The agent's own checks" : 'Verification'), result.report.verification, '');
  }
  if (result.report?.openQuestions?.length) lines.push(heading('Open questions'), ...result.report.openQuestions.map((q) => `- ${q}`), '');
  if (options.forPullRequest) {
    lines.push('## Instruction', ...result.instruction.split('\n').map((l) => `> ${l}`), '');
    if (options.threadUrl) lines.push(`Requested in Slack: ${options.threadUrl}`, '');
    lines.push('_Opened by Wrench._');
  }
  const usage = formatUsage(result);
  if (usage && !options.forPullRequest) lines.push(`_${usage}_`);
  return lines.join('\n').trim();
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

import type { RunResult } from './run-result.js';

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
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
  const summary = result.report?.summary ?? result.answer ?? '';
  if (summary) lines.push(options.forPullRequest ? '## Summary' : '*Summary*', summary, '');
  if (result.draftReason) lines.push(options.forPullRequest ? '## Why this is a draft' : '*Why this is a draft*', result.draftReason, '');
  if (result.stopReason) lines.push(options.forPullRequest ? '## Stopped early' : '*Stopped early*', result.stopReason, '');
  const changes = result.report?.filesChanged?.length
    ? result.report.filesChanged.map((f) => `- \`${f.path}\`: ${f.change}`)
    : result.filesChanged.map((f) => `- \`${f}\``);
  if (changes.length) lines.push(options.forPullRequest ? '## Changes' : '*Changes*', ...changes, '');
  for (const section of result.sections ?? []) lines.push(options.forPullRequest ? `## ${section.title}` : `*${section.title}*`, section.body, '');
  const verification = [result.verification, result.report?.verification].filter(Boolean).join('\n\n');
  if (verification) lines.push(options.forPullRequest ? '## Verification' : '*Verification*', verification, '');
  if (result.report?.openQuestions?.length)
    lines.push(options.forPullRequest ? '## Open questions' : '*Open questions*', ...result.report.openQuestions.map((q) => `- ${q}`), '');
  if (options.forPullRequest) {
    lines.push('## Instruction', ...result.instruction.split('\n').map((l) => `> ${l}`), '');
    if (options.threadUrl) lines.push(`Requested in Slack: ${options.threadUrl}`, '');
    lines.push('_Opened by Wrench._');
  }
  const usage = formatUsage(result);
  if (usage && !options.forPullRequest) lines.push(`_${usage}_`);
  return lines.join('\n').trim();
}

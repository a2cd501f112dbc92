import { describeInstructionFiles } from '../repository-instructions/instruction-context.js';
import type { InstructionFileRead } from '../repository-instructions/repository-instructions.js';
import { reportEn, type ReportStrings } from './report-strings.js';
import type { MeasuredTests, RunResult } from './run-result.js';

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** "1 step", "12 steps". */
export function formatSteps(steps: number | undefined, strings: ReportStrings = reportEn): string {
  return strings.steps(steps ?? 0);
}

/** "12 steps · 3m 10s · 45.2k tokens · $0.42": the thread's line; the CLI and the run page show the detail. */
export function formatUsageCompact(result: RunResult, strings: ReportStrings = reportEn): string | undefined {
  if (!result.usage) return undefined;
  const u = result.usage;
  const tokens = u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
  const shown = tokens >= 1_000_000 ? `${(tokens / 1_000_000).toFixed(1)}M` : tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
  const cost = result.costUsd !== undefined ? ` · $${result.costUsd.toFixed(2)}` : '';
  return `${formatSteps(result.steps, strings)} · ${formatDuration(result.durationMs)} · ${shown} ${strings.tokens}${cost}`;
}

export function formatUsage(result: RunResult): string | undefined {
  if (!result.usage) return undefined;
  const u = result.usage;
  const cost = result.costUsd !== undefined ? ` · about $${result.costUsd.toFixed(2)}` : '';
  return `${formatSteps(result.steps)} · ${formatDuration(result.durationMs)} · tokens: ${u.inputTokens} in, ${u.outputTokens} out, ${u.cacheReadTokens} cache read, ${u.cacheWriteTokens} cache write${cost}`;
}

/** " (3 files, +12 −4)" from the committed diff; empty when there is none. */
export function lineCounts(r: RunResult, strings: ReportStrings = reportEn): string {
  const stats = r.diffStat ?? [];
  if (!stats.length) return '';
  const added = stats.reduce((sum, f) => sum + (f.added ?? 0), 0);
  const removed = stats.reduce((sum, f) => sum + (f.removed ?? 0), 0);
  return ` (${strings.files(stats.length)}, +${added} −${removed})`;
}

/**
 * Words by which an agent says its checks came out well, in English and in the languages a thread speaks (an agent
 * asked in German, Japanese, Spanish, French, Portuguese or Chinese may answer so): a claim of success the measurements contradict is marked in any of them.
 */
const CLAIMS_SUCCESS = new RegExp(
  [
    '\\b(?:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?|all tests|works?|fixed)\\b',
    '(?<!\\p{L})(?:bestanden|bestehen|besteht|grün|erfolgreich|funktioniert|behoben|alle tests|pasan|pasaron|funciona|arreglad[oa]|corregid[oa]|todas las pruebas|passent|réussi(?:e|s|es|t|ssent)?|au vert|fonctionne(?:nt)?|corrigée?s?|tous les tests|passam|passaram|passou|passando|funcionam|corrigid[oa]s?|consertad[oa]s?|resolvid[oa]s?|com sucesso|no verde|todos os testes)(?!\\p{L})',
    '成功|通過|通りました|通ります|パスしました|パスします|グリーン|動作します|動きます|修正しました',
    // Simplified Chinese: "通过" alone also means "by means of", so only when it says tests or checks came through.
    '(?:测试|检查)[^。；;\\n]{0,8}通过|通过了|全部通过|都通过|均通过|修复了|已修复|已经修复|已解决|正常工作|正常运行',
  ].join('|'),
  'iu',
);

/**
 * A plain Markdown rendering: the CLI's output, the Slack reply and the pull request body share it. Every part
 * states what Wrench measured (Verification, the committed diff) or is marked as the agent's claim; a claim the
 * measurements contradict says so, next to the measurement. Wrench's own words come from `options.strings` (the
 * thread's language; English by default), the agent's words and the measured figures stay as they are.
 */
export function renderResultMarkdown(result: RunResult, options: { threadUrl?: string; forPullRequest?: boolean; strings?: ReportStrings } = {}): string {
  const t = options.strings ?? reportEn;
  const lines: string[] = [];
  const heading = (title: string) => (options.forPullRequest ? `## ${title}` : `**${title}**`);
  const outcome = outcomeLine(result, t);
  if (outcome && !options.forPullRequest) lines.push(outcome, '');
  const contradiction = testsContradiction(result);
  const summary = result.report?.summary ?? result.answer ?? '';
  if (summary && result.report) {
    const contradicted = result.verificationVerdict === 'regressed' || (contradiction && CLAIMS_SUCCESS.test(summary));
    lines.push(heading(contradicted ? t.summaryContradicted : t.summaryAccount), quote(summary));
    if (contradicted) lines.push('', contradictionLine(result.measuredTests, result.verificationVerdict, t));
    lines.push('');
  } else if (summary) lines.push(heading(t.summary), summary, '');
  if (result.verification) lines.push(heading(t.verification), result.verification, '');
  if (result.draftReason) lines.push(heading(t.draftReason), result.draftReason, '');
  if (result.stopReason) lines.push(heading(t.stoppedEarly), result.stopReason, '');
  const changes = changeLines(result, t);
  if (changes.length) lines.push(heading(t.changes), ...changes, '');
  const claimedOnly = claimedNotChanged(result, t);
  if (claimedOnly.length) lines.push(heading(t.claimedNotChanged), ...claimedOnly, '');
  for (const section of result.sections ?? []) {
    if (!section.claim) lines.push(heading(section.title), section.body, '');
    else if (contradiction && CLAIMS_SUCCESS.test(section.body))
      lines.push(
        heading(t.sectionContradicted(section.title)),
        quote(section.body),
        '',
        contradictionLine(result.measuredTests, result.verificationVerdict, t),
        '',
      );
    else lines.push(heading(t.sectionAccount(section.title)), quote(section.body), '');
  }
  const ownChecks = result.report?.verification;
  if (ownChecks && !repeatsVerification(ownChecks, result)) {
    const contradicted = result.verificationVerdict === 'regressed' || (contradiction && CLAIMS_SUCCESS.test(ownChecks));
    lines.push(heading(contradicted ? t.ownChecksContradicted : t.ownChecksUnconfirmed), quote(ownChecks));
    if (contradicted) lines.push('', contradictionLine(result.measuredTests, result.verificationVerdict, t));
    lines.push('');
  }
  if (result.report?.openQuestions?.length) lines.push(heading(t.openQuestions), ...result.report.openQuestions.map((q) => `- ${q}`), '');
  if (result.instructionFiles?.length) lines.push(instructionsLine(result.instructionFiles, t), '');
  if (options.forPullRequest) {
    lines.push('## Instruction', ...result.instruction.split('\n').map((l) => `> ${l}`), '');
    if (options.threadUrl) lines.push(`Requested in Slack: ${options.threadUrl}`, '');
    lines.push('_Opened by Wrench._');
  }
  const usage = formatUsage(result);
  if (usage && !options.forPullRequest) lines.push(`_${usage}_`);
  return lines.join('\n').trim();
}

/** "Read the repository's instructions for agents: `AGENTS.md`, `CLAUDE.md` (truncated)." in `t`'s words. */
export function instructionsLine(files: readonly InstructionFileRead[], t: ReportStrings = reportEn): string {
  return t.instructionsRead(describeInstructionFiles(files, { truncated: t.instructionTruncated, omitted: t.instructionOmitted, sameAs: t.instructionSameAs }));
}

/**
 * The terminal's rendering (`wrench run`, the run page): the same report without Markdown emphasis; headings end with a
 * colon. English unless `strings` says otherwise.
 */
export function renderResultPlain(result: RunResult, strings?: ReportStrings): string {
  return renderResultMarkdown(result, { strings })
    .replace(/^\*\*(.+?)\*\*$/gm, '$1:')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/^_(.+)_$/gm, '$1');
}

/** One measured sentence before everything else: what the checks found after the change. */
export function outcomeLine(result: RunResult, strings: ReportStrings = reportEn): string | undefined {
  const tests = result.measuredTests;
  if (!tests) return undefined;
  const counts = tests.counts ? ` (${tests.counts})` : '';
  if (tests.setupFailed) return strings.outcomeSetupFailed(tests.setupFailed);
  if (result.verificationVerdict === 'regressed') return strings.outcomeRegressed(tests.command, tests.failed, counts);
  if (tests.failed) return strings.outcomeFails(tests.command, counts, result.verificationVerdict === 'unchanged');
  return strings.outcomePasses(tests.command, counts);
}

/** The tests Wrench ran failed after the change: any claim of success is contradicted. */
function testsContradiction(result: RunResult): boolean {
  return result.measuredTests?.failed === true;
}

function contradictionLine(measured: MeasuredTests | undefined, verdict: RunResult['verificationVerdict'], t: ReportStrings): string {
  if (measured?.failed) return t.measuredFailed(measured.command, measured.counts ? ` (${measured.counts})` : '');
  return verdict === 'regressed' ? t.measuredRegressed : '';
}

/** Every file of the committed diff with its +/- counts; the agent's description attached where it names that file. */
function changeLines(result: RunResult, t: ReportStrings): string[] {
  const described = new Map((result.report?.filesChanged ?? []).map((f) => [normalise(f.path), f.change]));
  const stats = result.diffStat ?? result.filesChanged.map((path) => ({ path, added: undefined, removed: undefined }));
  return stats.map((file) => {
    const counts = file.added !== undefined && file.removed !== undefined ? ` (+${file.added} −${file.removed})` : '';
    const description = described.get(normalise(file.path));
    return `- \`${file.path}\`${counts}${description ? t.agentSays(description) : ''}`;
  });
}

/** Files the agent says it changed that the committed diff does not hold. */
function claimedNotChanged(result: RunResult, t: ReportStrings): string[] {
  if (result.status === 'waiting') return [];
  const changed = new Set((result.diffStat?.map((f) => f.path) ?? result.filesChanged).map(normalise));
  return (result.report?.filesChanged ?? []).filter((f) => !changed.has(normalise(f.path))).map((f) => `- \`${f.path}\`${t.claimedOnly(f.change)}`);
}

function normalise(file: string): string {
  return file.trim().replace(/^\.\//, '');
}

/** The agent's account of its checks only repeats Wrench's when it names the same command and nothing else of weight. */
function repeatsVerification(ownChecks: string, result: RunResult): boolean {
  const measured = result.measuredTests;
  if (!measured || measured.failed) return false;
  const text = ownChecks.trim();
  return text.length < 160 && text.includes(measured.command) && CLAIMS_SUCCESS.test(text);
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

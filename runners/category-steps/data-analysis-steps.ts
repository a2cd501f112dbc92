import { appendFile, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describeAnalysisTools, probeAnalysisTools } from '../../src/analysis/analysis-tools.js';
import { findMainTable, renderTextTable } from '../../src/analysis/main-table.js';
import { collectOutputFiles, MAX_OUTPUT_FILES, OUTPUT_DIR, type OutputFiles } from '../../src/analysis/output-files.js';
import { describeError } from '../../src/errors.js';
import { INPUT_DIR, stageInputFiles } from '../../src/inputs/stage-input-files.js';
import type { ResultSection } from '../../src/reporting/run-result.js';
import type { AnalysisStrings } from '../../src/analysis/analysis-strings.js';
import type { CategorySteps, StepContext } from './step-types.js';
import { sectionFor } from './thread-strings.js';

/**
 * Data analysis: the request's attachments become `wrench-input/`, the agent learns what it can compute
 * with, and its report and charts in `wrench-output/` are shared in the thread (the main table inline),
 * while only the script is committed.
 */
export function dataAnalysisSteps(ctx: StepContext): CategorySteps {
  return {
    async before() {
      await excludeFromGit(ctx.dir, [`/${INPUT_DIR}/`, `/${OUTPUT_DIR}/`]);
      const environment: string[] = [];
      const files = ctx.inputs ? await ctx.inputs.list().catch((error) => (ctx.log.warn({ err: error }, 'could not list the attachments'), [])) : [];
      if (files.length) {
        await ctx.progress({ key: 'downloading', count: files.length });
        const { staged, skipped } = await stageInputFiles(ctx.dir, files);
        if (staged.length)
          environment.push(`Input data attached to the request, in \`${INPUT_DIR}/\`: ${staged.map((f) => `\`${f.path}\` (${size(f.bytes)})`).join(', ')}.`);
        for (const file of skipped) environment.push(`Attachment ${file.name} was not downloaded: ${file.reason}`);
      }
      const tools = await probeAnalysisTools(ctx.sandbox, ctx.dir, ctx.signal);
      environment.push(describeAnalysisTools(tools, ctx.network));
      return {
        environment,
        requirements: [
          `Write the report to \`${OUTPUT_DIR}/report.md\` with the main result as its first Markdown table; charts as PNG files in \`${OUTPUT_DIR}/\`. Wrench uploads them into the Slack thread and shows the main table inline.`,
          `\`${OUTPUT_DIR}/\` and \`${INPUT_DIR}/\` are never committed: commit-worthy is the script, which takes its input path as an argument (defaulting to the data in \`${INPUT_DIR}/\` when there is some) so anyone can re-run it.`,
        ],
      };
    },
    async after() {
      const outputs = await collectOutputFiles(ctx.dir);
      const sections: ResultSection[] = [];
      const { report } = outputs;
      const table = report ? findMainTable(report.text) : undefined;
      const code = (text: string) => `\`${text}\``;
      const mainResult = (t: AnalysisStrings) =>
        report && table
          ? `${renderTextTable(table)}\n${t.fromReport(code(report.path))}`
          : report
            ? t.noTable(code(report.path))
            : t.noReport(code(`${OUTPUT_DIR}/`));
      sections.push(sectionFor(ctx.job, (t) => ({ title: t.analysis.mainResult, body: mainResult(t.analysis) })));
      if (outputs.skipped.length)
        sections.push(sectionFor(ctx.job, (t) => ({ title: t.analysis.notUploaded, body: notUploaded(outputs.skipped, t.analysis) })));
      // Neither the data nor the outputs go into the pull request: only the script does.
      for (const folder of [OUTPUT_DIR, INPUT_DIR]) {
        await rm(path.join(ctx.dir, folder), { recursive: true, force: true }).catch((error) =>
          ctx.log.warn({ err: describeError(error) }, 'could not remove a run folder'),
        );
      }
      return { sections, attachments: outputs.attachments };
    },
  };
}

function notUploaded(skipped: OutputFiles['skipped'], t: AnalysisStrings): string {
  const why = { type: t.skippedType, count: t.skippedCount(MAX_OUTPUT_FILES), size: t.skippedSize };
  return skipped.map((file) => `- \`${file.path}\`: ${why[file.why]}`).join('\n');
}

function size(bytes: number): string {
  return bytes < 1000 ? `${bytes} B` : bytes < 1_000_000 ? `${(bytes / 1000).toFixed(1)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** Adds patterns to the checkout's `.git/info/exclude`: files the run creates that are never committed. */
async function excludeFromGit(dir: string, patterns: readonly string[]): Promise<void> {
  const file = path.join(dir, '.git', 'info', 'exclude');
  await mkdir(path.dirname(file), { recursive: true });
  const current = await readFile(file, 'utf8').catch(() => '');
  const missing = patterns.filter((pattern) => !current.split('\n').includes(pattern));
  if (missing.length) await appendFile(file, `${current && !current.endsWith('\n') ? '\n' : ''}${missing.join('\n')}\n`);
}

import { lineCounts, renderResultPlain } from './render-result-text.js';
import { type ProgressDetail, renderProgress } from './progress.js';
import type { RunPhase, RunReporter, RunResult } from './run-result.js';

/** `wrench run`: progress lines and the final report on the terminal. */
export class ConsoleReporter implements RunReporter {
  private readonly started = Date.now();
  constructor(private readonly write: (line: string) => void) {}

  async phase(phase: RunPhase, detail?: ProgressDetail): Promise<void> {
    const seconds = ((Date.now() - this.started) / 1000).toFixed(0).padStart(4);
    this.write(`[${seconds}s] ${phase}${detail ? `: ${renderProgress(detail)}` : ''}`);
  }

  async finished(result: RunResult): Promise<void> {
    const headline = result.headline
      ? result.headline.replace(/:[a-z_]+: /g, '')
      : result.pullRequest !== undefined
        ? `Pull request #${result.pullRequest.number}${result.pullRequest.draft ? ' (draft)' : ''}: ${result.pullRequest.title ? `${result.pullRequest.title}${lineCounts(result)} · ` : ''}${result.pullRequest.url}`
        : result.pushedTo
          ? `Committed on branch \`${result.branch}\` of ${result.pushedTo}${lineCounts(result)}${result.status === 'stopped' ? ' (stopped early)' : ''}.`
          : result.status === 'stopped'
            ? 'Stopped early.'
            : 'Done.';
    this.write(`\n${headline}\n\n${renderResultPlain(result)}\n`);
    if (result.attachments?.length) {
      this.write(`Files from this run (shown here by name only): ${result.attachments.map((f) => `${f.filename} (${f.content.length} bytes)`).join(', ')}\n`);
    }
  }

  async failed(message: string): Promise<void> {
    this.write(`\nFailed: ${message}`);
  }
}

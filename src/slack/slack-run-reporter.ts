import type { RunPhase, RunReporter, RunResult } from '../reporting/run-result.js';
import { renderRunResult } from './render-run-result.js';
import type { ThreadPoster } from './thread-poster.js';

const PHASE_TEXT: Record<RunPhase, string> = {
  queued: ':hourglass_flowing_sand: Queued',
  preparing: ':package: Preparing the workspace',
  working: ':hammer_and_wrench: Working',
  verifying: ':test_tube: Verifying',
  publishing: ':outbox_tray: Opening the pull request',
  done: ':white_check_mark: Done',
  failed: ':x: Failed',
  cancelled: ':no_entry_sign: Cancelled',
};

/** Reports a run into its Slack thread: one status message updated in place, then the result. */
export class SlackRunReporter implements RunReporter {
  private statusTs: string | undefined;

  constructor(
    private readonly poster: ThreadPoster,
    private readonly channel: string,
    private readonly threadTs: string,
    statusTs?: string,
  ) {
    this.statusTs = statusTs;
  }

  async phase(phase: RunPhase, detail?: string): Promise<void> {
    const text = detail ? `${PHASE_TEXT[phase]}: ${detail}` : PHASE_TEXT[phase];
    if (this.statusTs) await this.poster.update(this.channel, this.statusTs, { text });
    else this.statusTs = await this.poster.reply(this.channel, this.threadTs, { text });
  }

  async finished(result: RunResult): Promise<void> {
    for (const part of renderRunResult(result)) {
      await this.poster.reply(this.channel, this.threadTs, part);
    }
    const final = result.stopCode === 'cancelled' ? 'cancelled' : 'done';
    await this.phase(final, result.stopCode && result.stopCode !== 'cancelled' ? 'stopped early' : undefined).catch(() => undefined);
  }

  async failed(message: string): Promise<void> {
    await this.poster.reply(this.channel, this.threadTs, { text: `:x: ${message}` });
    await this.phase('failed').catch(() => undefined);
  }
}

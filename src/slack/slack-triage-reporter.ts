import type { Logger } from '../logging/logger.js';
import { formatDuration } from '../reporting/render-result-text.js';
import type { RunPhase, RunResult } from '../reporting/run-result.js';
import { SlackRunReporter, type StatusDetail, statusDetailText } from './slack-run-reporter.js';
import { mrkdwnLink } from './slack-escape.js';
import { stringsFor } from './strings/index.js';
import type { ThreadOutbox } from './thread-outbox.js';
import type { ThreadMessage } from './thread-poster.js';
import type { UpdateRateLimiter } from './update-rate-limiter.js';

export interface SlackTriageTarget {
  channel: string;
  threadTs: string;
  /** The outbox key of the triage's status line (the handler may have posted it under this key). */
  statusKey: string;
  repository: string;
  team?: string;
  runPageUrl?: string;
  /** The "@wrench triage: ..." message: its :eyes: becomes the outcome's reaction at the end. */
  messageTs?: string;
  /** The language the person asked in; English for an incident's own triage. */
  language?: string;
}

/**
 * Reports a triage into its thread: one status line (":mag: Triage: …") edited in place through the thread's
 * outbox, paced like every run's status (the shared workspace-wide rate limiter, trailing edge), ending with
 * the verdict. The report itself (with its buttons) is the triage profile's publish stage.
 */
export class SlackTriageReporter extends SlackRunReporter {
  constructor(outbox: ThreadOutbox, target: SlackTriageTarget, limiter: UpdateRateLimiter | undefined, log: Logger, minIntervalMs?: number) {
    super(
      outbox,
      {
        ...target,
        team: target.team ?? 'default',
        reading: { category: 'incident-triage', complexity: 'medium', elements: {} },
      },
      limiter,
      log,
      minIntervalMs,
    );
  }

  override statusText(phase: RunPhase, status?: StatusDetail): string {
    const elapsed = formatDuration(Date.now() - this.started);
    const strings = stringsFor(this.target.language);
    const detail = statusDetailText(status, strings);
    const t = strings.triage;
    const page = this.target.runPageUrl ? ` · ${mrkdwnLink(this.target.runPageUrl, strings.seeEveryStep)}` : '';
    // The verdict (`detail` when done or cancelled) is the agent's own words.
    if (phase === 'done') return `${t.finished(elapsed)}${detail ? `: ${detail}` : ''}${page}`;
    if (phase === 'failed') return `${t.failedAfter(elapsed)}${page}`;
    if (phase === 'cancelled') return `${t.cancelled}${detail ? `: ${detail}` : ''}${page}`;
    return t.working(detail ?? t.investigating);
  }

  protected override statusMessage(text: string): ThreadMessage {
    return { text };
  }

  /** The report is in the thread already (publish stage): the status line shows the verdict. */
  override async finished(result: RunResult): Promise<void> {
    const cancelled = result.stopCode === 'cancelled';
    await this.advance(cancelled ? 'cancelled' : 'done', result.headline === undefined ? undefined : { text: result.headline });
    await this.outcomeReaction(cancelled ? 'cancelled' : result.stopCode ? 'stopped' : 'done');
  }

  override async failed(message: string): Promise<void> {
    await this.outbox.post(this.thread, { text: stringsFor(this.target.language).triage.failed(message) });
    await this.advance('failed');
    await this.outcomeReaction('failed');
  }
}

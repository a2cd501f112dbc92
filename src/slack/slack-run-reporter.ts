import type { InputFileSource } from '../inputs/input-files.js';
import type { Logger } from '../logging/logger.js';
import { formatDuration } from '../reporting/render-result-text.js';
import { type ProgressDetail, renderProgress } from '../reporting/progress.js';
import type { RunPhase, RunReporter, RunResult } from '../reporting/run-result.js';
import { attachmentsComment, renderRunResult, shortFailure, shortReply } from './render-run-result.js';
import { mrkdwnLink } from './slack-escape.js';
import type { ThreadOutbox } from './thread-outbox.js';
import type { ThreadMessage } from './thread-poster.js';
import { durationLabel, understandingCard, type CardReading } from './understanding-card.js';
import { stringsFor, type ThreadStrings } from './strings/index.js';
import type { UpdateRateLimiter } from './update-rate-limiter.js';

const FINAL: RunPhase[] = ['done', 'failed', 'cancelled'];

/**
 * A status's detail: what the run is doing (a runner's typed detail, said in the thread's words), or Wrench's own text
 * already in them (the pull request and an early stop at the end, a triage's verdict, a failure's reason).
 */
export type StatusDetail = ProgressDetail | { text: string };

/** `detail` in the words of `strings`. */
export function statusDetailText(detail: StatusDetail | undefined, strings: ThreadStrings): string | undefined {
  if (!detail) return undefined;
  return 'text' in detail ? detail.text : renderProgress(detail, strings.progress);
}

export interface SlackRunTarget {
  team: string;
  channel: string;
  threadTs: string;
  /** The outbox key of the run's status card (posted by the handler under this key). */
  statusKey: string;
  repository: string;
  reading: CardReading;
  /** The thread's language (BCP 47 primary subtag): the card's labels are in it. */
  language?: string;
  /** The run's page (signed link), shown in the status message and the final reply. */
  runPageUrl?: string;
  /** The message that asked for the run: its :eyes: becomes the outcome's reaction at the end. */
  messageTs?: string;
  /** Who the run reports to (a streamed reply is addressed to them): the requester's Slack user and team. */
  recipient?: { user: string; team: string };
  /** The run goes on after its question was settled, in the message (under `statusKey`) it paused in. */
  resumed?: boolean;
  /** The run's job: its last word, once delivered, ends the run watchdog's watch (src/slack/run-watchdog.ts). */
  jobId?: string;
}

const OUTCOME_REACTION: Record<'done' | 'stopped' | 'cancelled' | 'failed', string> = {
  done: 'white_check_mark',
  stopped: 'warning',
  cancelled: 'no_entry_sign',
  failed: 'x',
};

/**
 * Reports a run into its Slack thread: one status message (the understanding card) updated in place
 * with the phase, the current step and the elapsed time against the indicative duration; then the
 * result as new replies. Everything goes through the thread's outbox, so Slack being slow or down never
 * holds up or fails the run. Intermediate edits are dropped when the workspace-wide budget is spent (the
 * next edit shows the latest state); final states always get through.
 */
export class SlackRunReporter implements RunReporter {
  protected readonly started = Date.now();
  private lastEdit = 0;
  private pending: Promise<void> = Promise.resolve();
  inputFiles?: InputFileSource;
  /** The newest state not yet shown, and the timer that will show it. */
  private latest: { phase: RunPhase; detail?: StatusDetail } | undefined;
  private trailing: NodeJS.Timeout | undefined;
  private closed = false;
  private statusCleared = false;

  constructor(
    protected readonly outbox: ThreadOutbox,
    protected readonly target: SlackRunTarget,
    private readonly limiter: UpdateRateLimiter | undefined,
    private readonly log: Logger,
    private readonly minIntervalMs = 3000,
  ) {}

  /**
   * Shows a phase: at once when the last edit is old enough, otherwise the newest state is shown
   * when the interval has passed (trailing edge), so the status never stays stale.
   */
  phase(phase: RunPhase, detail?: ProgressDetail): Promise<void> {
    return this.advance(phase, detail);
  }

  /** A phase with what the run is doing, or with Wrench's own words for it (the end of a run). */
  protected advance(phase: RunPhase, detail?: StatusDetail): Promise<void> {
    if (this.closed) return this.pending;
    if (!this.statusCleared && phase === 'queued' && detail && 'key' in detail && detail.key.startsWith('waiting')) {
      // What the run waits for, under the thread (the card says it too, but only the status line says Wrench is on it).
      const t = stringsFor(this.target.language);
      void this.outbox
        .status({ ...this.thread, team: this.target.team }, t.statusLine.waitingOn(renderProgress(detail, t.progress)))
        .catch((error) => this.log.warn({ err: error }, 'could not set the thread status'));
    }
    if (!this.statusCleared && phase !== 'queued') {
      // A worker has the run: the "is waiting for a worker…" line under the thread gives way to the card's phases.
      this.statusCleared = true;
      void this.outbox
        .status({ ...this.thread, team: this.target.team }, '')
        .catch((error) => this.log.warn({ err: error }, 'could not clear the thread status'));
    }
    const final = FINAL.includes(phase);
    // Waiting for an answer ends this job (the resume job reports on): shown like a final state.
    if (final || phase === 'waiting') {
      this.closed = true;
      clearTimeout(this.trailing);
      return this.show(phase, detail, true);
    }
    this.latest = { phase, detail };
    const wait = this.lastEdit + this.minIntervalMs - Date.now();
    if (wait <= 0) return this.flush();
    this.trailing ??= setTimeout(() => void this.flush(), wait);
    return Promise.resolve();
  }

  private flush(): Promise<void> {
    clearTimeout(this.trailing);
    this.trailing = undefined;
    const latest = this.latest;
    this.latest = undefined;
    if (!latest || this.closed) return this.pending;
    return this.show(latest.phase, latest.detail, false);
  }

  private show(phase: RunPhase, detail: StatusDetail | undefined, final: boolean): Promise<void> {
    this.lastEdit = Date.now();
    this.pending = this.pending.then(() => this.edit(phase, detail, final)).catch((error) => this.log.warn({ err: error }, 'status update failed'));
    return this.pending;
  }

  async finished(result: RunResult): Promise<void> {
    const t = stringsFor(this.target.language);
    const links = { runPageUrl: this.target.runPageUrl };
    // The first part says the outcome and links the pull request: should Slack refuse it as written, its short form goes.
    for (const [i, part] of renderRunResult(result, links, t).entries())
      await this.outbox.post(this.thread, i === 0 ? { ...part, short: shortReply(result, links, t) } : part);
    if (result.attachments?.length) await this.outbox.upload(this.thread, result.attachments, attachmentsComment(result, t));
    const { final, detail, outcome } = finalState(result, t);
    await this.advance(final, detail === undefined ? undefined : { text: detail });
    await this.outcomeReaction(outcome);
  }

  async failed(message: string): Promise<void> {
    const t = stringsFor(this.target.language);
    await this.outbox.post(this.thread, { text: `:x: ${message}`, short: shortFailure(message, { runPageUrl: this.target.runPageUrl }, t) });
    await this.advance('failed');
    await this.outcomeReaction('failed');
  }

  protected async outcomeReaction(outcome: keyof typeof OUTCOME_REACTION): Promise<void> {
    if (!this.target.messageTs) return;
    await this.outbox.unreact(this.thread, this.target.messageTs, 'eyes');
    await this.outbox.react(this.thread, this.target.messageTs, OUTCOME_REACTION[outcome]);
  }

  statusText(phase: RunPhase, detail?: StatusDetail): string {
    const elapsed = formatDuration(Date.now() - this.started);
    const t = stringsFor(this.target.language);
    const clock = FINAL.includes(phase) ? t.after(elapsed) : t.usually(elapsed, durationLabel(this.target.reading.complexity));
    const page = this.target.runPageUrl ? mrkdwnLink(this.target.runPageUrl, t.seeEveryStep) : undefined;
    return [t.phases[phase] ?? phase, statusDetailText(detail, t), phase === 'queued' ? undefined : clock, page].filter(Boolean).join(' · ');
  }

  /** A note in the thread (not the status card), e.g. that the run restarted after an interruption. */
  async note(text: string): Promise<void> {
    await this.outbox.post(this.thread, { text });
  }

  protected get thread() {
    return { channel: this.target.channel, threadTs: this.target.threadTs };
  }

  private async edit(phase: RunPhase, detail: StatusDetail | undefined, final: boolean): Promise<void> {
    const text = this.statusText(phase, detail);
    // Final states are queued at once: the outbox keeps them in order and waits out Slack's limits itself.
    if (this.limiter && !final) {
      const wait = await this.limiter.tryTake(this.target.team);
      if (wait > 0) {
        // Over the workspace budget: try again later with whatever is newest then.
        this.latest ??= { phase, detail };
        this.trailing ??= setTimeout(() => void this.flush(), Math.max(wait, this.minIntervalMs));
        return;
      }
    }
    await this.present(phase, detail, final, text);
  }

  /** Shows a phase that got through the rate limit: here, by editing the status card. */
  protected async present(_phase: RunPhase, _detail: StatusDetail | undefined, final: boolean, text: string): Promise<void> {
    // The final state (the outcome, the pull request's link) still shows as plain text should Slack refuse the card.
    const message = this.statusMessage(text, final);
    await this.outbox.update(this.thread, this.target.statusKey, final ? { ...message, short: text } : message, final ? this.target.jobId : undefined);
  }

  /** The status message showing `text`: the understanding card, with its Cancel button until the run ends. */
  protected statusMessage(text: string, final: boolean): ThreadMessage {
    return understandingCard(this.target.reading, this.target.repository, { channel: this.target.channel, threadTs: this.target.threadTs }, text, {
      cancellable: !final,
      strings: stringsFor(this.target.language),
    });
  }
}

/** How a finished run ends: its final phase, the detail shown with it (early stop, the pull request) and its reaction. */
export function finalState(
  result: RunResult,
  strings: ThreadStrings = stringsFor(),
): { final: RunPhase; detail?: string; outcome: 'done' | 'stopped' | 'cancelled' } {
  const final: RunPhase = result.stopCode === 'cancelled' ? 'cancelled' : 'done';
  const pull = result.pullRequest
    ? `${mrkdwnLink(result.pullRequest.url, `PR #${result.pullRequest.number}`)}${result.pullRequest.draft ? strings.draftDetail : ''}`
    : undefined;
  const stoppedEarly = result.stopCode && result.stopCode !== 'cancelled' ? strings.stoppedEarlyDetail : undefined;
  return {
    final,
    detail: [stoppedEarly, pull].filter(Boolean).join(' · ') || undefined,
    outcome: final === 'cancelled' ? 'cancelled' : stoppedEarly ? 'stopped' : 'done',
  };
}

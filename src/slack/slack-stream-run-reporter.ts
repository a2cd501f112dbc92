import { slackifyMarkdown } from 'slackify-markdown';
import type { RunPhase, RunResult } from '../reporting/run-result.js';
import { attachmentsComment } from './render-run-result.js';
import { mrkdwnLink } from './slack-escape.js';
import { markdownChunks, RunPlan, streamedResult } from './run-plan.js';
import { finalState, SlackRunReporter } from './slack-run-reporter.js';
import type { StreamStep } from './thread-outbox.js';

/** The outbox key of a run's streamed message. */
export const runStreamKey = (statusKey: string) => `stream:${statusKey}`;

/**
 * Reports a run as one streamed message under the status card (Slack's agent surface): the run's stages as a plan of
 * tasks updated as they move (a failed stage `error` with its reason, a cancelled or paused run said in the plan's
 * title), then the final reply streamed into the same message, its measured outcome line first. The card is edited
 * only when the run starts and ends (its Cancel button goes then). Every step goes through the thread's outbox with
 * the whole message as its fallback, so a workspace or conversation without streaming gets the same content as an
 * ordinary message, and a stream Slack ends early is finished as one.
 */
export class SlackStreamRunReporter extends SlackRunReporter {
  private readonly plan = new RunPlan(this.target.repository, this.target.runPageUrl);
  private streamStarted = false;
  private cardShown = false;
  private finalText: string | undefined;
  private failReason: string | undefined;
  private ended = false;

  /** Every phase goes into the plan at once; the rate limit only decides when the plan is shown. */
  override phase(phase: RunPhase, detail?: string): Promise<void> {
    if (!this.ended) {
      const planDetail = phase === 'failed' ? (this.failReason ?? plainDetail(detail)) : plainDetail(detail);
      this.plan.advance(phase, planDetail);
      this.ended = phase === 'done' || phase === 'failed' || phase === 'cancelled' || phase === 'waiting';
    }
    return super.phase(phase, detail);
  }

  override async finished(result: RunResult): Promise<void> {
    const { final, detail, outcome } = finalState(result);
    this.finalText = streamedResult(result, this.target.runPageUrl);
    await this.phase(final, detail);
    if (result.attachments?.length) await this.outbox.upload(this.thread, result.attachments, attachmentsComment(result));
    await this.outcomeReaction(outcome);
  }

  override async failed(message: string): Promise<void> {
    this.failReason = message;
    this.finalText = `**The run failed.** ${message.replace(/&/g, '&amp;').replace(/</g, '&lt;')}`;
    await this.phase('failed');
    await this.outcomeReaction('failed');
  }

  protected override async present(phase: RunPhase, detail: string | undefined, final: boolean, text: string): Promise<void> {
    if (final || !this.cardShown) {
      this.cardShown = true;
      // Until the end the card points at the plan, which moves, instead of showing a phase it would keep showing.
      const page = this.target.runPageUrl ? mrkdwnLink(this.target.runPageUrl, 'see every step') : undefined;
      const underWay = [':hammer_and_wrench: Under way: the plan below shows each stage', page].filter(Boolean).join(' · ');
      await super.present(phase, detail, final, final ? text : underWay);
    }
    const step: StreamStep['step'] = !this.streamStarted ? 'start' : final ? 'stop' : 'append';
    this.streamStarted = true;
    await this.send(step, this.plan.takeChanges());
    if (final && step === 'start') await this.send('stop', []);
  }

  private async send(step: StreamStep['step'], taskChunks: StreamStep['chunks']): Promise<void> {
    const closing = step === 'stop' && this.finalText !== undefined;
    const chunks = closing ? [...taskChunks, ...markdownChunks(this.finalText ?? '')] : taskChunks;
    const fallbackText = [this.plan.fallbackText(), closing ? slackifyMarkdown(unescaped(this.finalText ?? '')).replace(/\u200B/g, '') : undefined]
      .filter(Boolean)
      .join('\n\n');
    await this.outbox.stream(this.thread, {
      step,
      key: runStreamKey(this.target.statusKey),
      team: this.target.team,
      ...(this.target.recipient ? { recipient: this.target.recipient } : {}),
      chunks,
      fallback: { text: fallbackText },
    });
  }
}

/** A phase's detail as plain text (the card's detail is mrkdwn: `<url|PR #3>` becomes `PR #3`). */
function plainDetail(detail: string | undefined): string | undefined {
  return detail
    ?.replace(/<[^|>]+\|([^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The streamed Markdown with its escapes undone, for slackify-markdown (which escapes for mrkdwn itself). */
function unescaped(markdown: string): string {
  return markdown.replace(/&lt;/g, '<').replace(/&amp;/g, '&');
}

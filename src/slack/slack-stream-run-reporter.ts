import type { AgentPlan } from '../agent/plan-tool.js';
import type { KnownBlock } from '@slack/types';
import type { AskedQuestion, QuestionOutcome, RunPhase, RunResult, SettledQuestion } from '../reporting/run-result.js';
import { answeredLine, questionAnswerBlocks, questionIntroText, questionMarkdown, settledQuestionMarkdown, type QuestionView } from './question-message.js';
import { attachmentsComment, shortFailure, shortReply } from './render-run-result.js';
import { escapeMrkdwn, markdownToMrkdwn, mrkdwnLink, truncate } from './slack-escape.js';
import { markdownChunks, RunPlan, streamedResult } from './run-plan.js';
import { finalState, SlackRunReporter, type SlackRunTarget, type StatusDetail } from './slack-run-reporter.js';
import { stringsFor, type ThreadStrings } from './strings/index.js';
import type { SlackNames } from './message-text.js';
import type { StreamStep } from './thread-outbox.js';
import type { ThreadMessage } from './thread-poster.js';
import { cancelActions, categoryLabel, durationLabel, type CardReading } from './understanding-card.js';

/** The longest reply shown as a markdown block in a stream Slack ended (Slack refuses blocks past about 13,000 characters). */
const ENDED_REPLY_MAX = 8_000;

/** The outbox key of a run's streamed message. */
export const runStreamKey = (statusKey: string) => `stream:${statusKey}`;

/** Where a streamed run reports: its thread, the stream's addressee, and what the card would have shown. */
export type StreamTarget = Pick<
  SlackRunTarget,
  'team' | 'recipient' | 'channel' | 'threadTs' | 'statusKey' | 'repository' | 'reading' | 'language' | 'runPageUrl' | 'resumed' | 'jobId'
>;

/** What Wrench understood of the request, on one line (the card's first lines): the reading task's output. */
export function readingLine(reading: CardReading, language?: string): string {
  const t = stringsFor(language);
  const size = `${categoryLabel(reading.category, t)} · ${t.complexity[reading.complexity] ?? reading.complexity} (${durationLabel(reading.complexity)})`;
  return reading.summary ? `${size}: ${reading.summary}` : size;
}

/**
 * The plan of the run `target` is: the request as read, in the thread's language; a question's work titled as such; a
 * resumed run's question done.
 */
function runPlanFor(target: StreamTarget): RunPlan {
  const plan = new RunPlan(
    target.repository,
    target.runPageUrl,
    readingLine(target.reading, target.language),
    stringsFor(target.language),
    target.reading.category === 'question',
  );
  if (target.resumed) plan.questionSettled();
  return plan;
}

/**
 * The first step of a run's streamed message, sent by the handler that queues the run instead of a status card: the
 * plan with the request read and the run queued (`detail`: what it waits behind), addressed to the requester.
 */
export function queuedRunStream(target: StreamTarget, detail?: string): StreamStep {
  const plan = runPlanFor(target);
  plan.advance('queued', detail === undefined ? undefined : { text: detail });
  return streamStep(target, plan, 'start', plan.takeChanges(), { running: true });
}

/** The last step of a run's streamed message when the run could not be queued after all: `text` says why. */
export function notQueuedStream(target: StreamTarget, text: string): StreamStep {
  const plan = runPlanFor(target);
  plan.advance('failed', { text: stringsFor(target.language).plan.couldNotQueue });
  return streamStep(target, plan, 'stop', [...plan.takeChanges(), ...markdownChunks(text)], { running: false, reply: text });
}

/**
 * Reports a run as one streamed message, which is the run's only message in the thread (no status card): the request
 * as read, then the run's stages as a plan of tasks updated as they move (a failed stage `error` with its reason, a
 * cancelled or paused run said in the plan's title, which says how to stop the run while it goes on) with the agent's
 * own plan when it states one (`plan`, its steps marked as the agent's), then the final
 * reply streamed into the same message, its measured outcome line first. A run that pauses on the agent's question
 * ends its message with the question and the buttons that answer it (no message of its own); the resumed run takes the
 * message over and its reply begins with the question and what settled it, quoted. The run page is a source of the reading and
 * working tasks, and the reply's last line. Every step goes through the thread's outbox with the whole message as its
 * fallback: where Slack does not stream, that ordinary message stands in for the card (the plan, the run page and a
 * Cancel button while the run goes on), and a stream Slack ends early is finished as one.
 */
export class SlackStreamRunReporter extends SlackRunReporter {
  private readonly runPlan = runPlanFor(this.target);
  private streamStarted = false;
  /** This job goes on in a message an earlier job of the run began (resumed, or restarted): its first step takes it over. */
  private takeOver = this.target.resumed === true;
  /** That the run restarted, said above its plan (not as a task: the plan shows what this attempt does). */
  private restartNote: string | undefined;
  private finalText: string | undefined;
  /** The final reply's plain, short form: posted instead when Slack refuses the stream's last step as written. */
  private shortText: string | undefined;
  private failReason: string | undefined;
  /** The question this job pauses on: its message shows it, with the buttons that answer it, until the run resumes. */
  private question: QuestionView | undefined;
  /** The questions earlier jobs of the run paused on and what settled each, quoted in this job's last step. */
  private settledQuestion: string | undefined;
  private ended = false;
  /** Looks people up by Slack user id: who cancelled or was asked shows by name in the plan. */
  names?: Pick<SlackNames, 'userName'>;

  /** Every phase goes into the plan at once; the rate limit only decides when the plan is shown. */
  protected override advance(phase: RunPhase, detail?: StatusDetail): Promise<void> {
    if (!this.ended) {
      const planDetail = phase === 'failed' && this.failReason !== undefined ? { text: this.failReason } : plainDetail(detail);
      this.runPlan.advance(phase, planDetail);
      this.ended = phase === 'done' || phase === 'failed' || phase === 'cancelled' || phase === 'waiting';
    }
    return super.advance(phase, detail);
  }

  /** The agent's plan goes into the message's plan at once; it shows with the next state the rate limit lets through. */
  plan(steps: AgentPlan): Promise<void> {
    if (this.ended) return Promise.resolve();
    this.runPlan.agentPlan(steps);
    return super.advance('working');
  }

  /** A note about the run goes into the plan, shown with the next state: the run keeps one message. */
  override async note(text: string): Promise<void> {
    this.runPlan.note(text);
  }

  /**
   * The run starts again after an interruption, in a new reporter with a plan of its own: its first step takes the
   * message over, which then shows this attempt's plan alone (not the aborted attempt's tasks), the restart said above it.
   */
  async restarted(text: string): Promise<void> {
    this.takeOver = true;
    this.restartNote = text;
  }

  /** The run pauses on `question`: its message, stopped by the `waiting` phase, ends with it and the ways to answer. */
  async asked(question: AskedQuestion): Promise<void> {
    const { channel, threadTs, language } = this.target;
    this.question = { ...question, channel, threadTs, language, timeoutAt: new Date(question.timeoutAt) };
  }

  /**
   * This job resumes the run after its question was settled: the message keeps every question the run asked (`earlier`
   * ones first, at most the tool's three) and what settled each, in order.
   */
  async resumedAfter(question: AskedQuestion, outcome: QuestionOutcome, earlier: SettledQuestion[] = []): Promise<void> {
    const { language } = this.target;
    this.settledQuestion = [...earlier, { ...question, outcome }]
      .map((settled) => settledQuestionMarkdown({ ...settled, language }, outcomeLine(settled.outcome)))
      .join('\n\n');
  }

  override async finished(result: RunResult): Promise<void> {
    const t = stringsFor(this.target.language);
    const { final, detail, outcome } = finalState(result, t);
    this.finalText = streamedResult(result, this.target.runPageUrl, t);
    this.shortText = shortReply(result, { runPageUrl: this.target.runPageUrl }, t);
    await this.advance(final, detail === undefined ? undefined : { text: detail });
    if (result.attachments?.length) await this.outbox.upload(this.thread, result.attachments, attachmentsComment(result, t));
    await this.outcomeReaction(outcome);
  }

  override async failed(message: string): Promise<void> {
    this.failReason = message;
    const failed = stringsFor(this.target.language).runFailed.replace(/^:[a-z_]+: /, '');
    this.finalText = `**${failed}** ${message.replace(/&/g, '&amp;').replace(/</g, '&lt;')}`;
    this.shortText = shortFailure(message, { runPageUrl: this.target.runPageUrl }, stringsFor(this.target.language));
    await this.advance('failed');
    await this.outcomeReaction('failed');
  }

  /** Shows a phase in the streamed message only: there is no card to edit. */
  protected override async present(_phase: RunPhase, _detail: StatusDetail | undefined, final: boolean): Promise<void> {
    const step: StreamStep['step'] = !this.streamStarted ? 'start' : final ? 'stop' : 'append';
    this.streamStarted = true;
    await this.learnNames();
    await this.send(step, this.runPlan.takeChanges(), final);
    if (final && step === 'start') await this.send('stop', [], final);
  }

  private async learnNames(): Promise<void> {
    for (const id of this.names ? this.runPlan.unnamedMentions() : []) {
      const name = await this.names?.userName(id).catch(() => undefined);
      if (name) this.runPlan.names.set(id, name);
    }
  }

  private async send(step: StreamStep['step'], taskChunks: StreamStep['chunks'], final: boolean): Promise<void> {
    const reply = step === 'stop' ? [this.settledQuestion, this.finalText].filter(Boolean).join('\n\n') || undefined : undefined;
    const question = step === 'stop' ? this.question : undefined;
    const text = [reply, question ? questionMarkdown(question) : undefined].filter(Boolean).join('\n\n');
    const chunks = [...taskChunks, ...markdownChunks(text)];
    const short = step === 'stop' ? this.shortText : undefined;
    const takeOver = step === 'start' && this.takeOver;
    const settles = step === 'stop' ? this.target.jobId : undefined;
    const options = { running: !final, reply, note: this.restartNote, question };
    await this.outbox.stream(this.thread, {
      ...streamStep(this.target, this.runPlan, step, chunks, options),
      ...(short ? { short } : {}),
      ...(takeOver ? { takeOver } : {}),
      ...(settles ? { settles } : {}),
    });
  }
}

/**
 * A step of a run's stream, with the whole message as its fallback: while the run goes on, the plan, the run page and
 * the Cancel button (what the card gave); at the end, the plan and the reply as text.
 */
function streamStep(
  target: StreamTarget,
  plan: RunPlan,
  step: StreamStep['step'],
  chunks: StreamStep['chunks'],
  options: { running: boolean; reply?: string; note?: string; question?: QuestionView },
): StreamStep {
  const t = stringsFor(target.language);
  const page = target.runPageUrl ? mrkdwnLink(target.runPageUrl, t.seeEveryStep) : undefined;
  const note = options.note === undefined ? undefined : escapeMrkdwn(options.note);
  const planText = [note, plan.fallbackText(), options.running ? page : undefined].filter(Boolean).join('\n');
  const noteBlock = note === undefined ? [] : [{ type: 'context' as const, elements: [{ type: 'mrkdwn' as const, text: note }] }];
  const replyText = options.reply === undefined ? undefined : markdownToMrkdwn(options.reply);
  const thread = { channel: target.channel, threadTs: target.threadTs };
  // A paused run's message ends with its question and the buttons that answer it (suggested answers, Cancel).
  const { question } = options;
  const answerBlocks: KnownBlock[] = question ? questionAnswerBlocks(question) : [];
  const questionText = question ? questionIntroText(question) : undefined;
  const section = (text: string): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text: truncate(text, 2900) } });
  const endText = [planText, replyText].filter(Boolean).join('\n\n');
  const fallback: ThreadMessage = options.running
    ? { text: planText, blocks: [section(planText), cancelActions(thread, t)] }
    : questionText
      ? { text: [endText, questionText].join('\n\n'), blocks: [section(endText), section(questionText), ...answerBlocks] }
      : { text: endText };
  // A stream Slack ended keeps its look: its plan as a plan block, then the Cancel button or the reply (one markdown
  // block, within Slack's 12,000 characters for one and about 13,000 for a message's blocks; a longer reply as text).
  const reply = options.reply;
  const ended: ThreadMessage | undefined = options.running
    ? { text: planText, blocks: [...noteBlock, plan.block(), cancelActions(thread, t)] }
    : reply === undefined || reply.length <= ENDED_REPLY_MAX
      ? {
          text: fallback.text,
          blocks: [
            ...noteBlock,
            plan.block(),
            ...(reply ? [{ type: 'markdown' as const, text: reply }] : []),
            ...(question ? [{ type: 'markdown' as const, text: questionMarkdown(question) }, ...answerBlocks] : []),
          ],
        }
      : undefined;
  // Once its question is settled (before the resumed run takes the message over), the message reads so: no buttons,
  // the plan queued again with the question done, and who answered what below (`ThreadOutbox.settleQuestion`).
  const settledPlan = question && !options.running ? plan.settledView() : undefined;
  const settledText = settledPlan && questionText ? [note, settledPlan.text, replyText].filter(Boolean).join('\n\n') : undefined;
  const settledForm =
    settledPlan && question && questionText && settledText
      ? {
          pauseId: question.pauseId,
          fallback: { text: [settledText, questionText].join('\n\n'), blocks: [section(settledText), section(questionText)] },
          ...(ended
            ? {
                ended: {
                  text: [settledText, questionText].join('\n\n'),
                  blocks: [
                    ...noteBlock,
                    settledPlan.block,
                    ...(reply ? [{ type: 'markdown' as const, text: reply }] : []),
                    { type: 'markdown' as const, text: questionMarkdown(question) },
                  ],
                },
              }
            : {}),
        }
      : undefined;
  return {
    step,
    key: runStreamKey(target.statusKey),
    team: target.team,
    ...(target.recipient ? { recipient: target.recipient } : {}),
    chunks,
    fallback,
    ...(ended ? { ended } : {}),
    ...(answerBlocks.length ? { closing: answerBlocks } : {}),
    ...(settledForm ? { settledForm } : {}),
  };
}

/** What settled a question, as the line below it says. */
function outcomeLine(outcome: QuestionOutcome): (t: ThreadStrings) => string {
  if (outcome.kind === 'answer') return answeredLine(outcome.by, outcome.text);
  return outcome.kind === 'cancelled' ? (t) => t.cancelledBy(outcome.by.replace(/^<@|>$/g, '')) : (t) => t.noAnswerInTime;
}

/** Wrench's own text of a phase as plain text (the card's detail is mrkdwn: `<url|PR #3>` becomes `PR #3`). */
function plainDetail(detail: StatusDetail | undefined): StatusDetail | undefined {
  if (!detail || !('text' in detail)) return detail;
  return {
    text: detail.text
      .replace(/<[^|>]+\|([^>]+)>/g, '$1')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  };
}

import type { KnownBlock } from '@slack/types';
import { ACTIONS, ANSWER_ACTION_PREFIX, DECIDE_ACTION, encodeAnswerValue, encodeThreadRef } from './action-ids.js';
import { escapeMrkdwn, quoteMrkdwn, truncate } from './slack-escape.js';
import type { ThreadMessage } from './thread-poster.js';
import { stringsFor, type ThreadStrings } from './strings/index.js';

export interface QuestionView {
  pauseId: string;
  channel: string;
  threadTs: string;
  requester: string;
  question: string;
  suggestedAnswers: string[];
  timeoutAt: Date;
  /** The thread's language (BCP 47); English when absent. */
  language?: string;
}

/** The outbox key of a question, so that it is edited (buttons gone, answer shown) once settled. */
export const questionMessageKey = (pauseId: string) => `question:${pauseId}`;

/** The outbox key of a question's reminder, so that it is posted once and edited once the question is settled. */
export const questionReminderKey = (pauseId: string) => `question-reminder:${pauseId}`;

/** The agent's question in the thread: mentions the requester, one button per suggested answer, and the deadline. */
export function questionMessage(view: QuestionView): ThreadMessage {
  const text = questionIntroText(view);
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: truncate(text, 2900) } }, ...questionAnswerBlocks(view)] };
}

/** Who is asked, and the question quoted (mrkdwn). */
export function questionIntroText(view: QuestionView): string {
  return `${stringsFor(view.language).questionIntro(view.requester)}\n${quoteMrkdwn(view.question)}`;
}

/**
 * The same as Markdown, for a streamed run's message: the question escaped (`&`, `<`) so the agent's words form no
 * mention or link, each line quoted.
 */
export function questionMarkdown(view: QuestionView): string {
  return `${stringsFor(view.language).questionIntro(view.requester)}\n${markdownQuote(view.question)}`;
}

/**
 * How a question is answered besides a reply in the thread: one button per suggested answer, "Decide yourself" and
 * Cancel, then the deadline.
 */
export function questionAnswerBlocks(view: QuestionView): KnownBlock[] {
  const t = stringsFor(view.language);
  const thread = { channel: view.channel, threadTs: view.threadTs };
  return [
    {
      type: 'actions',
      elements: [
        ...view.suggestedAnswers.map((answer, index) => ({
          type: 'button' as const,
          action_id: `${ANSWER_ACTION_PREFIX}${index}`,
          text: { type: 'plain_text' as const, text: truncate(answer, 75) },
          value: encodeAnswerValue({ pauseId: view.pauseId, index, ...thread }),
        })),
        {
          type: 'button' as const,
          action_id: DECIDE_ACTION,
          text: { type: 'plain_text' as const, text: t.decideYourself },
          value: encodeAnswerValue({ pauseId: view.pauseId, index: 'decide', ...thread }),
        },
        {
          type: 'button' as const,
          action_id: ACTIONS.cancelRun,
          text: { type: 'plain_text' as const, text: t.cancel },
          style: 'danger' as const,
          value: encodeThreadRef(thread),
        },
      ],
    },
    { type: 'context', elements: [{ type: 'mrkdwn', text: deadlineNote(view, t) }] },
  ];
}

/**
 * A settled question as a streamed run's final message keeps it: two quoted Markdown lines, what was asked (on one
 * line) and what settled it.
 */
export function settledQuestionMarkdown(view: Pick<QuestionView, 'requester' | 'question' | 'language'>, outcome: (strings: ThreadStrings) => string): string {
  const t = stringsFor(view.language);
  const question = truncate(view.question.replace(/\s+/g, ' ').trim(), 500);
  return `${markdownQuote(`${t.asked(view.requester)} ${escapeMarkdownText(question)}`, false)}\n${markdownQuote(outcome(t), false)}`;
}

/** The question once settled: no buttons, and what settled it. */
export function settledQuestionMessage(view: QuestionView, outcome: (strings: ThreadStrings) => string): ThreadMessage {
  const t = stringsFor(view.language);
  const text = `${t.asked(view.requester)}\n${quoteMrkdwn(view.question)}\n${outcome(t)}`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: truncate(text, 2900) } }] };
}

/** Halfway to the timeout: the requester is reminded that the run still waits for their answer, and until when. */
export function questionReminder(view: QuestionView): ThreadMessage {
  const t = stringsFor(view.language);
  const text = t.reminder(view.requester, escapeMrkdwn(truncate(view.question.replace(/\s+/g, ' '), 200)), slackDate(view.timeoutAt, t));
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: truncate(text, 2900) } }] };
}

/**
 * To someone who could have answered a question that timed out, replying after it did: the run went on without the
 * reply, and how to go on (`mention`: how to mention Wrench).
 */
export function lateAnswerNote(question: { question: string; timedOutAt: string }, mention: string, t: ThreadStrings): string {
  const quoted = escapeMrkdwn(truncate(question.question.replace(/\s+/g, ' '), 200));
  return t.lateAnswer(quoted, slackDate(new Date(question.timedOutAt), t), mention);
}

export const answeredLine = (by: string, answer: string) => (t: ThreadStrings) => t.answered(by, escapeMrkdwn(truncate(answer.replace(/\s+/g, ' '), 500)));

/** Lines quoted in Markdown; `theirs`: the text is someone else's (`&` and `<` escaped, no mention or link forms). */
function markdownQuote(text: string, theirs = true): string {
  return (theirs ? escapeMarkdownText(text) : text)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

function escapeMarkdownText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

function deadlineNote(view: QuestionView, t: ThreadStrings): string {
  return t.deadline(view.suggestedAnswers.length > 0, slackDate(view.timeoutAt, t));
}

/** A time as Slack shows it in each reader's own time zone, with the ISO time where it cannot. */
export function slackDate(at: Date, t: ThreadStrings): string {
  return `<!date^${Math.floor(at.getTime() / 1000)}^{date_short_pretty} ${t.dateAt} {time}|${at.toISOString()}>`.replace('}  {', '} {');
}

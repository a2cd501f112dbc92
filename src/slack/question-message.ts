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

/** The agent's question in the thread: mentions the requester, one button per suggested answer, and the deadline. */
export function questionMessage(view: QuestionView): ThreadMessage {
  const t = stringsFor(view.language);
  const text = `${t.questionIntro(view.requester)}\n${quoteMrkdwn(view.question)}`;
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: truncate(text, 2900) } }];
  const thread = { channel: view.channel, threadTs: view.threadTs };
  blocks.push({
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
  });
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: deadlineNote(view, t) }] });
  return { text, blocks };
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

function deadlineNote(view: QuestionView, t: ThreadStrings): string {
  return t.deadline(view.suggestedAnswers.length > 0, slackDate(view.timeoutAt, t));
}

/** A time as Slack shows it in each reader's own time zone, with the ISO time where it cannot. */
export function slackDate(at: Date, t: ThreadStrings): string {
  return `<!date^${Math.floor(at.getTime() / 1000)}^{date_short_pretty} ${t.dateAt} {time}|${at.toISOString()}>`.replace('}  {', '} {');
}

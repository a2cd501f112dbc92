import type { KnownBlock } from '@slack/types';
import { ACTIONS, ANSWER_ACTION_PREFIX, DECIDE_ACTION, encodeAnswerValue, encodeThreadRef } from './action-ids.js';
import { escapeMrkdwn, quoteMrkdwn, truncate } from './slack-escape.js';
import type { ThreadMessage } from './thread-poster.js';

export interface QuestionView {
  pauseId: string;
  channel: string;
  threadTs: string;
  requester: string;
  question: string;
  suggestedAnswers: string[];
  timeoutAt: Date;
}

/** The outbox key of a question, so that it is edited (buttons gone, answer shown) once settled. */
export const questionMessageKey = (pauseId: string) => `question:${pauseId}`;

/** The agent's question in the thread: mentions the requester, one button per suggested answer, and the deadline. */
export function questionMessage(view: QuestionView): ThreadMessage {
  const text = `<@${view.requester}> I have a question before I go on:\n${quoteMrkdwn(view.question)}`;
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
        text: { type: 'plain_text' as const, text: 'Decide yourself' },
        value: encodeAnswerValue({ pauseId: view.pauseId, index: 'decide', ...thread }),
      },
      {
        type: 'button' as const,
        action_id: ACTIONS.cancelRun,
        text: { type: 'plain_text' as const, text: 'Cancel' },
        style: 'danger' as const,
        value: encodeThreadRef(thread),
      },
    ],
  });
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: deadlineNote(view) }] });
  return { text, blocks };
}

/** The question once settled: no buttons, and what settled it. */
export function settledQuestionMessage(view: QuestionView, outcome: string): ThreadMessage {
  const text = `<@${view.requester}> I asked:\n${quoteMrkdwn(view.question)}\n${outcome}`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: truncate(text, 2900) } }] };
}

/** Halfway to the timeout: the requester is reminded that the run still waits for their answer, and until when. */
export function questionReminder(view: QuestionView): ThreadMessage {
  const text = `<@${view.requester}> A reminder: I am still waiting for your answer to my question above (${escapeMrkdwn(truncate(view.question.replace(/\s+/g, ' '), 200))}). Without an answer by ${slackDate(view.timeoutAt)} I finish with what I have.`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: truncate(text, 2900) } }] };
}

export const answeredLine = (by: string, answer: string) => `<@${by}> answered: ${escapeMrkdwn(truncate(answer.replace(/\s+/g, ' '), 500))}`;

function deadlineNote(view: QuestionView): string {
  const buttons = view.suggestedAnswers.length > 0 ? 'Press a button or reply' : 'Reply';
  return `${buttons} in this thread to answer, or let me decide; the run is paused until then. Without an answer by ${slackDate(view.timeoutAt)} I finish with what I have.`;
}

/** A time as Slack shows it in each reader's own time zone, with the ISO time where it cannot. */
function slackDate(at: Date): string {
  return `<!date^${Math.floor(at.getTime() / 1000)}^{date_short_pretty} at {time}|${at.toISOString()}>`;
}

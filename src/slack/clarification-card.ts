import type { KnownBlock } from '@slack/types';
import { clarifyingQuestions, scopedFirstStep } from '../instruction/clarifying-questions.js';
import type { InstructionReading } from '../instruction/instruction-types.js';
import { ACTIONS, encodeThreadRef, type ThreadRef } from './action-ids.js';
import { en, type ThreadStrings } from './strings/en.js';

/**
 * An ill-formed instruction gets specific questions for exactly what is missing and an "Add details"
 * button; an unrealistic one is declined with a scoped first step. Either way the requester may
 * start anyway.
 */
export function clarificationCard(reading: InstructionReading, text: string, thread: ThreadRef, t: ThreadStrings = en): { text: string; blocks: KnownBlock[] } {
  const value = encodeThreadRef(thread);
  const buttons: KnownBlock = {
    type: 'actions',
    elements: [
      ...(reading.verdict === 'ill-formed'
        ? [
            {
              type: 'button' as const,
              action_id: ACTIONS.addDetails,
              text: { type: 'plain_text' as const, text: t.addDetails },
              style: 'primary' as const,
              value,
            },
          ]
        : []),
      { type: 'button', action_id: ACTIONS.startAnyway, text: { type: 'plain_text', text: t.startAnyway }, value },
    ],
  };
  if (reading.verdict === 'unrealistic') {
    const step = scopedFirstStep(reading, text);
    const message = t.tooLarge(step);
    return { text: message, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: message } }, buttons] };
  }
  const questions = clarifyingQuestions(reading, t.clarifying);
  const message = [t.needMore, ...questions.map((q, i) => `${i + 1}. ${q.question}`), t.answerHere].join('\n');
  return { text: message, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: message.slice(0, 2900) } }, buttons] };
}

/** The outbox key of the card asking about the instruction in message `messageTs` (when Slack took it only later). */
export const clarificationCardKey = (messageTs: string) => `clarify:${messageTs}`;

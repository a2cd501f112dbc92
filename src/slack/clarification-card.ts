import type { KnownBlock } from '@slack/types';
import { clarifyingQuestions, scopedFirstStep } from '../instruction/clarifying-questions.js';
import type { InstructionReading } from '../instruction/instruction-types.js';
import { ACTIONS, encodeThreadRef, type ThreadRef } from './action-ids.js';

/**
 * An ill-formed instruction gets specific questions for exactly what is missing and an "Add details"
 * button; an unrealistic one is declined with a scoped first step. Either way the requester may
 * start anyway.
 */
export function clarificationCard(reading: InstructionReading, text: string, thread: ThreadRef): { text: string; blocks: KnownBlock[] } {
  const value = encodeThreadRef(thread);
  const buttons: KnownBlock = {
    type: 'actions',
    elements: [
      ...(reading.verdict === 'ill-formed'
        ? [
            {
              type: 'button' as const,
              action_id: ACTIONS.addDetails,
              text: { type: 'plain_text' as const, text: 'Add details' },
              style: 'primary' as const,
              value,
            },
          ]
        : []),
      { type: 'button', action_id: ACTIONS.startAnyway, text: { type: 'plain_text', text: 'Start anyway' }, value },
    ],
  };
  if (reading.verdict === 'unrealistic') {
    const step = scopedFirstStep(reading, text);
    const message = `That is too large to do well in one go, so I will not start it as it is. A scoped first step I could take:\n> ${step}\nMention me with that (or your own first step) in this thread, or press *Start anyway*.`;
    return { text: message, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: message } }, buttons] };
  }
  const questions = clarifyingQuestions(reading);
  const message = [
    'Before I start, I need a little more so I do not guess:',
    ...questions.map((q, i) => `${i + 1}. ${q.question}`),
    'Answer here in the thread, or press *Add details*.',
  ].join('\n');
  return { text: message, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: message.slice(0, 2900) } }, buttons] };
}

/** The outbox key of the card asking about the instruction in message `messageTs` (when Slack took it only later). */
export const clarificationCardKey = (messageTs: string) => `clarify:${messageTs}`;

import type { View } from '@slack/types';
import { clarifyingQuestions } from '../instruction/clarifying-questions.js';
import type { InstructionReading } from '../instruction/instruction-types.js';
import { encodeThreadRef, VIEWS, type ThreadRef } from './action-ids.js';

export const INSTRUCTION_BLOCK = 'instruction';

/** The "Add details" modal: the instruction as given (editable) and a field per missing element. */
export function clarificationModal(reading: InstructionReading, text: string, thread: ThreadRef): View {
  const questions = clarifyingQuestions(reading);
  return {
    type: 'modal',
    callback_id: VIEWS.clarify,
    private_metadata: encodeThreadRef(thread),
    title: { type: 'plain_text', text: 'Add details' },
    submit: { type: 'plain_text', text: 'Start' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'input',
        block_id: INSTRUCTION_BLOCK,
        label: { type: 'plain_text', text: 'Your instruction' },
        element: { type: 'plain_text_input', action_id: 'value', multiline: true, initial_value: text.slice(0, 3000) },
      },
      ...questions.map((q) => ({
        type: 'input' as const,
        block_id: `missing:${q.element}`,
        label: { type: 'plain_text' as const, text: q.question.slice(0, 2000) },
        element: {
          type: 'plain_text_input' as const,
          action_id: 'value',
          multiline: true,
          ...(q.placeholder ? { placeholder: { type: 'plain_text' as const, text: q.placeholder.slice(0, 150) } } : {}),
        },
      })),
    ],
  };
}

/** Reads the submitted modal: the edited instruction and the answers by element. */
export function readClarificationSubmission(values: Record<string, Record<string, { value?: string | null }>>): {
  text: string;
  answers: Record<string, string>;
} {
  const text = values[INSTRUCTION_BLOCK]?.value?.value ?? '';
  const answers: Record<string, string> = {};
  for (const [blockId, actions] of Object.entries(values)) {
    if (!blockId.startsWith('missing:')) continue;
    const answer = actions.value?.value?.trim();
    if (answer) answers[blockId.slice('missing:'.length)] = answer;
  }
  return { text, answers };
}

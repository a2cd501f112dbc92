import type { View } from '@slack/types';
import { type ClarifyingQuestion, clarifyingQuestions } from '../instruction/clarifying-questions.js';
import type { InstructionReading } from '../instruction/instruction-types.js';
import { encodeThreadRef, VIEWS, type ThreadRef } from './action-ids.js';
import { en, type ThreadStrings } from './strings/en.js';

export const INSTRUCTION_BLOCK = 'instruction';

/**
 * The "Add details" modal, in `t`'s words: the instruction as given (editable) and a field per question the card
 * asked (`asked`: the model's, in the thread's language), else per element the rules find missing, with its example.
 */
export function clarificationModal(
  reading: InstructionReading,
  text: string,
  thread: ThreadRef,
  t: ThreadStrings = en,
  asked: readonly { element: string; question: string }[] = [],
): View {
  const questions: ClarifyingQuestion[] = asked.length
    ? asked.map(({ element, question }) => ({ element, question }))
    : clarifyingQuestions(reading, t.clarifying);
  return {
    type: 'modal',
    callback_id: VIEWS.clarify,
    private_metadata: encodeThreadRef(thread),
    title: { type: 'plain_text', text: t.modal.title.slice(0, 24) },
    submit: { type: 'plain_text', text: t.modal.submit },
    close: { type: 'plain_text', text: t.modal.close },
    blocks: [
      {
        type: 'input',
        block_id: INSTRUCTION_BLOCK,
        label: { type: 'plain_text', text: t.modal.instruction },
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

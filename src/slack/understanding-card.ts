import type { KnownBlock } from '@slack/types';
import { COMPLEXITY_MINUTES, type InstructionReading } from '../instruction/instruction-types.js';
import { ACTIONS, encodeThreadRef, type ThreadRef } from './action-ids.js';
import { truncate } from './slack-escape.js';
import { en, type ThreadStrings } from './strings/en.js';

/** The category's name, in the thread's language. */
export const categoryLabel = (category: string, strings: ThreadStrings = en) => strings.categories[category] ?? category;

export function durationLabel(complexity: InstructionReading['complexity']): string {
  const d = COMPLEXITY_MINUTES[complexity];
  return d.max ? `${d.min}–${d.max} min` : `${d.min}+ min`;
}

/**
 * The first reply to a well-formed instruction: what was understood, in a compact card. It becomes
 * the run's live status message (the status line is the last block).
 */
export type CardReading = Pick<InstructionReading, 'category' | 'complexity' | 'summary'> & { elements: InstructionReading['elements'] };

export function understandingCard(
  reading: CardReading,
  repository: string,
  thread: ThreadRef,
  status: string,
  options: { cancellable?: boolean; strings?: ThreadStrings } = {},
): { text: string; blocks: KnownBlock[] } {
  const t = options.strings ?? en;
  const facts = [
    `*${categoryLabel(reading.category, t)}* · ${t.complexity[reading.complexity] ?? reading.complexity} (${durationLabel(reading.complexity)}) · \`${repository}\``,
  ];
  if (reading.summary) facts.push(truncate(reading.summary, 400));
  const e = reading.elements;
  const list = (items?: string[]) =>
    (items ?? [])
      .slice(0, 5)
      .map((i) => `• ${truncate(i, 200)}`)
      .join('\n');
  if (e.location?.length)
    facts.push(
      `*${t.where}* ${e.location
        .slice(0, 6)
        .map((l) => `\`${truncate(l, 80)}\``)
        .join(', ')}`,
    );
  if (e.constraints?.length) facts.push(`*${t.constraints}*\n${list(e.constraints)}`);
  if (e.successCriteria?.length) facts.push(`*${t.doneWhen}*\n${list(e.successCriteria)}`);
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: truncate(facts.join('\n'), 2900) } },
    statusBlock(status),
    ...(options.cancellable === false ? [] : [cancelActions(thread, t)]),
  ];
  return { text: t.taskOn(categoryLabel(reading.category, t), repository, status), blocks };
}

export function statusBlock(status: string): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(status, 2900) }] };
}

export function cancelActions(thread: ThreadRef, strings: ThreadStrings = en): KnownBlock {
  return {
    type: 'actions',
    elements: [
      { type: 'button', action_id: ACTIONS.cancelRun, text: { type: 'plain_text', text: strings.cancel }, style: 'danger', value: encodeThreadRef(thread) },
    ],
  };
}

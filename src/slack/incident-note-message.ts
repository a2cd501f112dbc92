import type { KnownBlock } from '@slack/types';
import { escapeMrkdwn, quoteMrkdwn, truncate } from './slack-escape.js';
import { encodeTriageValue, TRIAGE_ACTIONS } from './triage-action-ids.js';

/** A responder's note from PagerDuty, quoted in the incident's thread with a "Re-triage with these notes" button. */
export function incidentNoteMessage(input: { author: string; content: string; incidentId: string; trimmed?: boolean }): { text: string; blocks: KnownBlock[] } {
  const body = `:memo: *${escapeMrkdwn(input.author)}* added a note on PagerDuty${input.trimmed ? ' (shortened by PagerDuty)' : ''}:\n${quoteMrkdwn(truncate(input.content, 2500))}`;
  return {
    text: truncate(`${escapeMrkdwn(input.author)} added a note on PagerDuty: ${escapeMrkdwn(input.content)}`, 3000),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: truncate(body, 2900) } },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: TRIAGE_ACTIONS.retriage,
            text: { type: 'plain_text', text: 'Re-triage with these notes' },
            value: encodeTriageValue({ incidentId: input.incidentId }),
          },
        ],
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Only approvers can start a re-triage.' }] },
    ],
  };
}

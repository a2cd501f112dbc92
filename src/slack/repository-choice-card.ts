import type { KnownBlock } from '@slack/types';
import { encodeRepositoryChoice, REPOSITORY_ACTION_PREFIX, type ThreadRef } from './action-ids.js';
import { en, type ThreadStrings } from './strings/en.js';

/** Slack shows at most 25 elements in one actions block. */
const MAX_BUTTONS = 25;

/** Asks which of the channel's repositories (`owner/name`) a request is for: one button each. */
export function repositoryChoiceCard(repositories: string[], thread: ThreadRef, t: ThreadStrings = en): { text: string; blocks: KnownBlock[] } {
  return {
    text: t.whichRepository,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: t.whichRepository } },
      {
        type: 'actions',
        elements: repositories.slice(0, MAX_BUTTONS).map((repository, index) => ({
          type: 'button' as const,
          action_id: `${REPOSITORY_ACTION_PREFIX}${index}`,
          text: { type: 'plain_text' as const, text: repository.slice(0, 75) },
          value: encodeRepositoryChoice({ ...thread, repository }),
        })),
      },
    ],
  };
}

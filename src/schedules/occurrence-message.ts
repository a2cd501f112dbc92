import type { WebClient } from '@slack/web-api';
import type { MessageMetadata } from '../slack/thread-poster.js';

/** The metadata event type on an occurrence's channel message: it names the schedule and the due time. */
export const OCCURRENCE_EVENT = 'wrench_schedule_occurrence';

/** How far back from the due time the channel is read for the message (hosts' clocks and Slack's may differ). */
const CLOCK_MARGIN_SECONDS = 600;
const PAGE_SIZE = 200;
const MAX_PAGES = 10;

export function occurrenceMetadata(scheduleId: string, due: number): MessageMetadata {
  return { event_type: OCCURRENCE_EVENT, event_payload: { schedule_id: scheduleId, due } };
}

interface HistoryMessage {
  ts?: string;
  bot_id?: string;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
}

/**
 * The channel message already posted for this occurrence, found by its metadata: a process that died (or lost its
 * Redis write in a failover) after Slack took the message but before the occurrence's record held it finds it here,
 * and the retry adopts it instead of posting a second one. Reads the channel from shortly before the due time (the
 * occurrence is handled once due, so its message cannot be older), newest first, at most MAX_PAGES pages.
 */
export async function findOccurrenceMessage(client: WebClient, channel: string, scheduleId: string, due: number): Promise<string | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await client.conversations.history({
      channel,
      oldest: String(Math.floor(Math.min(due, Date.now()) / 1000) - CLOCK_MARGIN_SECONDS),
      include_all_metadata: true,
      limit: PAGE_SIZE,
      ...(cursor ? { cursor } : {}),
    });
    const found = (answer.messages as HistoryMessage[] | undefined)?.find((message) => isOccurrenceMessage(message, scheduleId, due));
    if (found?.ts) return found.ts;
    cursor = answer.response_metadata?.next_cursor || undefined;
    if (!answer.has_more || !cursor) return undefined;
  }
  return undefined;
}

/** Posted by an app (people cannot set metadata) with this schedule's id and due time. */
function isOccurrenceMessage(message: HistoryMessage, scheduleId: string, due: number): boolean {
  const payload = message.metadata?.event_payload;
  return !!message.bot_id && message.metadata?.event_type === OCCURRENCE_EVENT && String(payload?.schedule_id) === scheduleId && Number(payload?.due) === due;
}

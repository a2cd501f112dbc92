import type { RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';
import { isWrenchNoteContent } from './triage-note.js';

/** The PagerDuty user Wrench writes notes as (PAGERDUTY_FROM_EMAIL's user), learnt from its first note. */
export async function rememberNoteAuthor(redis: RedisClient, prefix: string, userId: string | undefined): Promise<void> {
  if (userId) await redis.set(redisKeys(prefix).pagerDutyNoteAuthor, userId);
}

export async function knownNoteAuthor(redis: RedisClient, prefix: string): Promise<string | null> {
  return redis.get(redisKeys(prefix).pagerDutyNoteAuthor);
}

/**
 * Whether a note is Wrench's own: its author is Wrench's PagerDuty user, or (author unknown) it
 * carries Wrench's marker. Own notes are never echoed into the thread.
 */
export function isOwnNote(note: { authorId?: string | null; content: string }, wrenchUserId: string | null): boolean {
  if (note.authorId && wrenchUserId) return note.authorId === wrenchUserId;
  return isWrenchNoteContent(note.content);
}

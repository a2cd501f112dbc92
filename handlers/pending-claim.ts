import type { ThreadRef } from '../src/slack/action-ids.js';
import type { PendingInstruction } from '../src/sessions/thread-session.js';
import type { AcceptOutcome, HandlerDeps } from './handler-deps.js';

/** A claim older than this is one whose handler died while starting: the pending instruction is free again. */
const CLAIM_MS = 60_000;
export const claimed = (pending: PendingInstruction, now = Date.now()) => !!pending.claimedAt && now - Date.parse(pending.claimedAt) < CLAIM_MS;

/**
 * Runs `start` for the one press, submission or reply that takes the thread's pending instruction: two presses in a
 * row, Start anyway beside a modal submission, or a reply beside either start it once; the others get 'taken'. When
 * `start` did not queue (asked again, refused, failed), the pending instruction is free again.
 */
export async function withPendingClaimed(
  deps: HandlerDeps,
  thread: ThreadRef,
  messageTs: string,
  start: () => Promise<AcceptOutcome>,
): Promise<AcceptOutcome | 'taken'> {
  let took = false;
  const now = Date.now();
  await deps.sessions.update(thread.channel, thread.threadTs, (current) => {
    const pending = current?.pending;
    if (!current || !pending || pending.messageTs !== messageTs || claimed(pending, now)) return null;
    took = true;
    return { ...current, pending: { ...pending, claimedAt: new Date(now).toISOString() } };
  });
  if (!took) return 'taken';
  let outcome: AcceptOutcome = 'failed';
  try {
    outcome = await start();
    return outcome;
  } finally {
    if (outcome !== 'queued')
      await deps.sessions.update(thread.channel, thread.threadTs, (current) =>
        current?.pending?.messageTs === messageTs ? { ...current, pending: { ...current.pending, claimedAt: undefined } } : null,
      );
  }
}

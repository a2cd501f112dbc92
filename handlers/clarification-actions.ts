import { setTimeout as sleep } from 'node:timers/promises';
import type { WebClient } from '@slack/web-api';
import { combineInstruction } from '../src/instruction/combine-instruction.js';
import { clarifyingQuestions } from '../src/instruction/clarifying-questions.js';
import { readInstruction } from '../src/instruction/read-instruction.js';
import { canApprove } from '../src/security/authorize.js';
import { decodeThreadRef, type ThreadRef } from '../src/slack/action-ids.js';
import type { PendingInstruction } from '../src/sessions/thread-session.js';
import { clarificationModal, readClarificationSubmission } from '../src/slack/clarification-modal.js';
import { clarificationCardKey } from '../src/slack/clarification-card.js';
import { stringsFor, type ThreadStrings } from '../src/slack/strings/index.js';
import type { ThreadMessage } from '../src/slack/thread-poster.js';
import { acceptInstruction } from './accept-instruction.js';
import type { AcceptOutcome, HandlerDeps } from './handler-deps.js';
import { claimed, withPendingClaimed } from './pending-claim.js';

interface ActionInput {
  client: WebClient;
  user: string;
  value?: string;
  triggerId?: string;
  teamId?: string;
}

export const mayAct = (deps: HandlerDeps, requester: string, user: string) => requester === user || canApprove(deps.config.file.access, user).allowed;

/**
 * Starts the pending instruction for the one press or submission that claims it: `claimed` runs once it is taken (a
 * submission acks then), the card says `card`, and `text` is queued without a second round of questions. 'taken' when
 * another press or submission has it; when it did not queue (refused, failed), the pending instruction is free again.
 */
async function startPending(
  deps: HandlerDeps,
  client: WebClient,
  thread: ThreadRef,
  pending: PendingInstruction,
  start: { card: string; text: string; dedupKey: string; teamId?: string; claimed?: () => Promise<void> },
): Promise<AcceptOutcome | 'taken'> {
  return withPendingClaimed(deps, thread, pending.messageTs, async () => {
    await start.claimed?.();
    await editCard(pending, thread, { text: start.card }, deps, client);
    return acceptInstruction(
      {
        client,
        channel: thread.channel,
        threadTs: thread.threadTs,
        messageTs: pending.messageTs,
        teamId: start.teamId,
        dedupKey: start.dedupKey,
        user: pending.requester,
        text: start.text,
        force: true,
      },
      deps,
    );
  });
}

/** Why a held-back request cannot be acted on: another press, submission or reply is starting or re-reading it, or it is gone. */
const unavailable = (pending: PendingInstruction | undefined, t: ThreadStrings) => (pending && claimed(pending) ? t.requestBusy : t.requestGone);
const unavailableNow = async (deps: HandlerDeps, thread: ThreadRef, t: ThreadStrings) =>
  unavailable((await deps.sessions.get(thread.channel, thread.threadTs))?.pending, t);

/**
 * The pending instruction a clarification button acts on, when the presser may act on it; otherwise
 * an ephemeral explanation (already started or expired; not the requester or an approver) and null.
 */
type ButtonTarget = { ok: false; outcome: 'stale' | 'not_allowed' } | { ok: true; thread: ThreadRef; pending: PendingInstruction; strings: ThreadStrings };

async function pendingForButton(input: ActionInput, deps: HandlerDeps, refusal: (t: ThreadStrings) => string): Promise<ButtonTarget> {
  const thread = decodeThreadRef(input.value);
  const session = thread && (await deps.sessions.get(thread.channel, thread.threadTs));
  const poster = deps.posterFor(input.client);
  const t = stringsFor(session?.language);
  if (!thread || !session?.pending || claimed(session.pending)) {
    if (thread) await poster.ephemeral(thread.channel, input.user, thread.threadTs, unavailable(session?.pending, t));
    return { ok: false, outcome: 'stale' };
  }
  if (!mayAct(deps, session.pending.requester, input.user)) {
    await poster.ephemeral(thread.channel, input.user, thread.threadTs, refusal(t));
    return { ok: false, outcome: 'not_allowed' };
  }
  return { ok: true, thread, pending: session.pending, strings: t };
}

/** How long an edit waits for the card's ts when the card was pressed as it appeared, before its poster recorded it. */
const CARD_TS_WAIT_MS = 3000;

/**
 * Edits the card that asked: directly once its ts is known (a press can come before the card's poster recorded it, so
 * it is waited for a moment), else through the thread's outbox, which posted the card when Slack failed and knows it then.
 */
export async function editCard(pending: PendingInstruction, thread: ThreadRef, message: ThreadMessage, deps: HandlerDeps, client: WebClient): Promise<void> {
  let cardTs = pending.cardTs;
  for (const deadline = Date.now() + CARD_TS_WAIT_MS; !cardTs && Date.now() < deadline; ) {
    await sleep(100);
    const now = (await deps.sessions.get(thread.channel, thread.threadTs))?.pending;
    if (now?.messageTs !== pending.messageTs) break;
    cardTs = now.cardTs;
  }
  if (cardTs) await deps.posterFor(client).update(thread.channel, cardTs, message);
  else await deps.outbox.update(thread, clarificationCardKey(pending.messageTs), message);
}

/** "Add details": opens the modal with a field per missing element, prefilled with what was given. */
export async function handleAddDetails(input: ActionInput, deps: HandlerDeps): Promise<'opened' | 'stale' | 'not_allowed'> {
  const found = await pendingForButton(input, deps, (t) => t.onlyRequesterAddsDetails);
  if (!found.ok) return found.outcome;
  const { thread, pending, strings } = found;
  if (!input.triggerId) throw new Error('Slack sent the "Add details" press without a trigger_id, so no modal can open.');
  const view = clarificationModal(readInstruction(pending.text), pending.text, thread, strings, pending.questions);
  await input.client.views.open({ trigger_id: input.triggerId, view });
  return 'opened';
}

/** "Start anyway": the requester overrides the instruction check. */
export async function handleStartAnyway(input: ActionInput, deps: HandlerDeps): Promise<AcceptOutcome | 'stale' | 'not_allowed'> {
  const found = await pendingForButton(input, deps, (t) => t.onlyRequesterStarts);
  if (!found.ok) return found.outcome;
  const { thread, pending, strings } = found;
  const outcome = await startPending(deps, input.client, thread, pending, {
    card: strings.startingAnyway(input.user),
    text: pending.text,
    dedupKey: `anyway-${thread.threadTs}-${pending.messageTs}`,
    teamId: input.teamId,
  });
  if (outcome !== 'taken') return outcome;
  await deps.posterFor(input.client).ephemeral(thread.channel, input.user, thread.threadTs, await unavailableNow(deps, thread, strings));
  return 'stale';
}

export type ViewAck = { response_action: 'errors'; errors: Record<string, string> } | undefined;

/**
 * The modal's submission: combine, read again; still ill-formed -> errors on the fields to fill
 * (the modal stays open); well-formed -> ack and start.
 */
export async function handleClarifySubmission(
  input: {
    client: WebClient;
    user: string;
    viewId: string;
    privateMetadata: string;
    values: Record<string, Record<string, { value?: string | null }>>;
    teamId?: string;
  },
  deps: HandlerDeps,
  ack: (response?: ViewAck) => Promise<void>,
): Promise<AcceptOutcome | 'stale' | 'still_missing'> {
  const thread = decodeThreadRef(input.privateMetadata);
  const session = thread && (await deps.sessions.get(thread.channel, thread.threadTs));
  if (!thread || !session?.pending || claimed(session.pending)) {
    await ack({ response_action: 'errors', errors: { instruction: unavailable(session?.pending, stringsFor(session?.language)) } });
    return 'stale';
  }
  const { text, answers } = readClarificationSubmission(input.values);
  const combined = combineInstruction(text.trim() || session.pending.text, answers);
  const reading = readInstruction(combined);
  if (reading.verdict !== 'well-formed') {
    const asked = session.pending.questions ?? [];
    const questions = clarifyingQuestions(reading, stringsFor(session.language).clarifying).map((q) => asked.find((a) => a.element === q.element) ?? q);
    const errors: Record<string, string> = {};
    for (const q of questions) errors[input.values[`missing:${q.element}`] ? `missing:${q.element}` : 'instruction'] ??= q.question.slice(0, 150);
    await ack({ response_action: 'errors', errors });
    return 'still_missing';
  }
  const t = stringsFor(session.language);
  const outcome = await startPending(deps, input.client, thread, session.pending, {
    card: t.enoughToStart,
    text: combined,
    dedupKey: `view-${input.viewId}`,
    teamId: input.teamId,
    // The submission was checked above and the card will say it is enough: the modal closes.
    claimed: () => ack(),
  });
  if (outcome !== 'taken') return outcome;
  await ack({ response_action: 'errors', errors: { instruction: await unavailableNow(deps, thread, t) } });
  return 'stale';
}

import type { WebClient } from '@slack/web-api';
import { canStartWork } from '../src/security/authorize.js';
import type { ThreadSession, TimedOutQuestion } from '../src/sessions/thread-session.js';
import { messageText, PERSON_MESSAGE_SUBTYPES } from '../src/slack/message-text.js';
import { lateAnswerNote } from '../src/slack/question-message.js';
import { stringsFor } from '../src/slack/strings/index.js';
import { continueThread } from './continue-thread.js';
import type { AnswerOutcome } from './answer-question.js';
import { steerableRun, type SteerOutcome } from './steer-run.js';
import type { AcceptOutcome, HandlerDeps } from './handler-deps.js';

export interface ThreadMessageInput {
  eventId: string;
  teamId?: string;
  botUserId?: string;
  event: { channel: string; user?: string; text?: string | null; blocks?: unknown; ts: string; thread_ts?: string; bot_id?: string; subtype?: string };
  client: WebClient;
}

/**
 * A plain reply in a Wrench thread (no mention: mentions arrive as app_mention). It continues the
 * thread when it answers Wrench's questions (from the requester), steers the run working right now (from its
 * requester; handlers/steer-run.ts), or, with
 * `access.followUpWithoutMention`, as a follow-up from anyone allowed to start work.
 * Edits, deletions, bots and Wrench itself never start anything. A reply from whoever could have answered the
 * thread's last question after that question timed out (its run went on without it) is told so, and how to go on.
 */
export async function handleThreadMessage(
  input: ThreadMessageInput,
  deps: HandlerDeps,
): Promise<AcceptOutcome | AnswerOutcome | SteerOutcome | 'taken' | 'too_late' | 'ignored' | 'duplicate'> {
  const { event } = input;
  if ((event.subtype && !PERSON_MESSAGE_SUBTYPES.has(event.subtype)) || event.bot_id || !event.user || !event.thread_ts || !event.text?.trim())
    return 'ignored';
  if (input.botUserId && event.text.includes(`<@${input.botUserId}`)) return 'ignored';
  const session = await deps.sessions.get(event.channel, event.thread_ts);
  if (!session) return 'ignored';
  const answersQuestions = !!session.pending && session.runs.length === 0 && session.pending.requester === event.user;
  // A run whose question timed out never calls the model again: while it finishes, a reply is a late answer, not steering.
  const late = lateAnswerTo(session, event.user, deps);
  const steers = !late && !session.waiting && !!steerableRun(session, event.user, false);
  const followUp =
    !steers &&
    !session.waiting &&
    deps.config.file.access.followUpWithoutMention &&
    session.runs.length > 0 &&
    canStartWork(deps.config.file.access, event.user).allowed;
  if (!answersQuestions && !followUp && !steers && !session.waiting) {
    if (!late || !(await deps.stores.claimSlackEvent(input.eventId))) return 'ignored';
    const note = lateAnswerNote(late, input.botUserId ? `<@${input.botUserId}>` : '@Wrench', stringsFor(session.language));
    await deps.posterFor(input.client).ephemeral(event.channel, event.user, event.thread_ts, note);
    return 'too_late';
  }
  // A run paused on a question to its requester: a reply in the thread may be the answer (continueThread decides).
  if (!(await deps.stores.claimSlackEvent(input.eventId))) return 'duplicate';
  const text = await messageText(event, deps.names, input.botUserId);
  if (!text) return 'ignored';
  // Acknowledged like a mention: the person sees at once that Wrench took the reply as work.
  if (followUp) await deps.outbox.react({ channel: event.channel, threadTs: event.thread_ts }, event.ts, 'eyes');
  const outcome = await continueThread(
    {
      client: input.client,
      channel: event.channel,
      threadTs: event.thread_ts,
      messageTs: event.ts,
      teamId: input.teamId,
      dedupKey: input.eventId,
      user: event.user,
      text,
      mentioned: false,
    },
    deps,
  );
  return outcome ?? 'ignored';
}

/** The question a reply may have been meant to answer: it timed out, and its run is the thread's last. */
function lateAnswerTo(session: ThreadSession, user: string, deps: HandlerDeps): TimedOutQuestion | undefined {
  const question = session.timedOutQuestion;
  if (!question || session.runs.at(-1)?.jobId !== question.jobId) return undefined;
  return user === question.requester || deps.config.file.access.approvers.includes(user) ? question : undefined;
}

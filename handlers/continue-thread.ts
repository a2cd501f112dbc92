import { stringsFor } from '../src/slack/strings/index.js';
import type { AcceptOutcome, InstructionInput } from './handler-deps.js';
import { acceptInstruction } from './accept-instruction.js';
import { answerQuestion, type AnswerOutcome } from './answer-question.js';
import type { HandlerDeps } from './handler-deps.js';
import { withPendingClaimed } from './pending-claim.js';
import { answerRepositoryChoice } from './repository-choice.js';
import { steerableRun, steerRun, type SteerOutcome } from './steer-run.js';

/**
 * A message in a thread Wrench already works in: the answer to the question a paused run asked, the answer
 * to its clarifying questions (combined with the pending instruction and read again), a message for the run
 * working right now (steering, handlers/steer-run.ts) or, once it ended, a follow-up run on the same branch and
 * pull request; while its first request waits for the choice of a repository, a reply that names one starts it there.
 * `mentioned`: the message mentions Wrench. Returns null when the thread has no session, so the caller treats the
 * message as new work.
 */
export async function continueThread(
  input: Omit<InstructionInput, 'repo' | 'force'> & { mentioned: boolean },
  deps: HandlerDeps,
): Promise<AcceptOutcome | AnswerOutcome | SteerOutcome | 'taken' | null> {
  const session = await deps.sessions.get(input.channel, input.threadTs);
  if (!session) return null;
  if (session.waiting)
    return answerQuestion({ client: input.client, channel: input.channel, threadTs: input.threadTs, user: input.user, text: input.text, via: 'reply' }, deps);
  const steered = steerableRun(session, input.user, input.mentioned);
  if (steered) return steerRun(steered, input, deps);
  const { pending } = session;
  if (pending?.repositories && session.runs.length === 0) {
    const { mentioned: _mentioned, ...instruction } = input;
    const outcome = await answerRepositoryChoice(session, { ...pending, repositories: pending.repositories }, instruction, deps);
    if (outcome !== 'taken') return outcome;
    await deps.posterFor(input.client).ephemeral(input.channel, input.user, input.threadTs, stringsFor(session.language).replyWhileStarting);
    return 'taken';
  }
  if (session.pending && session.runs.length === 0) {
    const combined = `${session.pending.text}\n\n${input.text}`;
    const { mentioned: _mentioned, ...instruction } = input;
    const thread = { channel: input.channel, threadTs: input.threadTs };
    const outcome = await withPendingClaimed(deps, thread, session.pending.messageTs, () => acceptInstruction({ ...instruction, text: combined }, deps));
    if (outcome !== 'taken') return outcome;
    // Start anyway or a modal submission is starting the request as it stood: this message cannot join it now.
    await deps.posterFor(input.client).ephemeral(input.channel, input.user, input.threadTs, stringsFor(session.language).replyWhileStarting);
    return 'taken';
  }
  const { mentioned: _mentioned, ...instruction } = input;
  return acceptInstruction(instruction, deps);
}

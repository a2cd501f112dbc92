import { randomUUID } from 'node:crypto';
import { quoteMrkdwn, truncate } from '../src/slack/slack-escape.js';
import { unreadSteeringMessage } from '../src/slack/help-messages.js';
import { stringsFor } from '../src/slack/strings/index.js';
import type { RunRecord, ThreadSession } from '../src/sessions/thread-session.js';
import type { HandlerDeps, InstructionInput } from './handler-deps.js';

export type SteerOutcome = 'steered' | 'too-late';

/**
 * The thread's run a message steers: the newest one while it is working, for a plain reply (no mention) by its
 * requester. A mention asks for new work and queues a follow-up as before; other people's replies are their
 * conversation, not orders to someone else's run.
 */
export function steerableRun(session: ThreadSession, user: string, mentioned: boolean): RunRecord | undefined {
  const run = session.runs.at(-1);
  return !mentioned && run?.status === 'running' && run.requester === user ? run : undefined;
}

/**
 * Hands the message to the running agent (at its next model call) and says so in the thread. A message from the run
 * page (no `messageTs`) is not in the thread: the thread then reads who sent what from there.
 */
export async function steerRun(
  run: RunRecord,
  input: Pick<InstructionInput, 'channel' | 'threadTs' | 'user' | 'text'> & { messageTs?: string },
  deps: HandlerDeps,
): Promise<SteerOutcome> {
  const session = await deps.sessions.get(input.channel, input.threadTs);
  // The receipt is in the thread's language, and so is the name of someone Slack does not name.
  const t = stringsFor(session?.language);
  const from = (await deps.names.userName(input.user).catch(() => undefined)) ?? t.personInThread;
  const thread = { channel: input.channel, threadTs: input.threadTs };
  const readsSteering = (s: ThreadSession | null | undefined) => {
    const current = s?.runs.find((r) => r.jobId === run.jobId);
    return current?.status === 'running' && !current.agentDone;
  };
  const message = { from, text: input.text };
  // The agent is done (checks and publishing go on) or the run ended: nobody will read it, so say so now.
  if (!readsSteering(session)) {
    await deps.outbox.post(thread, { text: unreadSteeringMessage([message], t) });
    return 'too-late';
  }
  await deps.stores.steering.add(run.jobId, message);
  // The agent may have finished between reading the run and adding the message (the worker tells of what it left).
  if (!readsSteering(await deps.sessions.get(input.channel, input.threadTs))) {
    const unread = await deps.stores.steering.drain(run.jobId);
    if (unread.length > 0) await deps.outbox.post(thread, { text: unreadSteeringMessage(unread, t) });
    return 'too-late';
  }
  if (input.messageTs) {
    await deps.outbox.react(thread, input.messageTs, 'incoming_envelope');
    await deps.outbox.post(thread, { text: `:incoming_envelope: ${t.steered}` }, `steer:${input.messageTs}`);
  } else {
    const text = `:incoming_envelope: ${t.steeredFromPage(input.user)}\n${quoteMrkdwn(truncate(input.text, 2500))}\n${t.steered}`;
    await deps.outbox.post(thread, { text }, `steer-page:${randomUUID()}`);
  }
  return 'steered';
}

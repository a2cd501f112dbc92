import type { WebClient } from '@slack/web-api';
import type { QuestionSettlement } from '../src/questions/paused-run.js';
import { reminderSettled } from '../src/questions/question-desk.js';
import type { WaitingQuestion } from '../src/sessions/thread-session.js';
import { decodeAnswerValue } from '../src/slack/action-ids.js';
import { answeredLine, questionMessageKey, settledQuestionMessage } from '../src/slack/question-message.js';
import { runStreamKey } from '../src/slack/slack-stream-run-reporter.js';
import { stringsFor, type ThreadStrings } from '../src/slack/strings/index.js';
import type { HandlerDeps } from './handler-deps.js';

export type AnswerOutcome = 'answered' | 'not_answering' | 'stale';

export interface AnswerInput {
  client: WebClient;
  channel: string;
  threadTs: string;
  user: string;
  text: string;
  via: 'reply' | 'button';
  /** A button names the question it answers; a reply answers the thread's current one. */
  pauseId?: string;
}

/** What "Decide yourself" answers: the agent goes on with its own default and says what it chose. */
export const DECIDE_YOURSELF = 'No preference: decide yourself, go on with your own default, and say in your report what you chose and why.';

/** The requester, or someone listed in `access.approvers`, may answer (or withdraw) the agent's question. */
const mayAnswer = (deps: HandlerDeps, waiting: WaitingQuestion, user: string) => user === waiting.requester || deps.config.file.access.approvers.includes(user);

/**
 * The answer to a paused run's question (a reply in its thread, or a suggested-answer button): settled once
 * (the first answer wins over a later one and over the timeout), the thread's session no longer waits, and the
 * delayed resume job is promoted so the run goes on now. Anyone else gets a polite note only they see.
 */
export async function answerQuestion(input: AnswerInput, deps: HandlerDeps): Promise<AnswerOutcome> {
  const poster = deps.posterFor(input.client);
  const session = await deps.sessions.get(input.channel, input.threadTs);
  const waiting = session?.waiting;
  const t = stringsFor(session?.language);
  if (!waiting || (input.pauseId && waiting.pauseId !== input.pauseId)) {
    await poster.ephemeral(input.channel, input.user, input.threadTs, await staleNote(input.pauseId, deps, t));
    return 'stale';
  }
  if (!mayAnswer(deps, waiting, input.user)) {
    await poster.ephemeral(input.channel, input.user, input.threadTs, t.questionNotYours(waiting.requester));
    return 'not_answering';
  }
  const byName = await deps.names.userName(input.user).catch(() => undefined);
  const settlement: QuestionSettlement = { kind: 'answer', text: input.text, by: input.user, byName, via: input.via, at: new Date().toISOString() };
  if (!(await settle(input, waiting, settlement, answeredLine(input.user, input.text), deps, session?.language))) {
    await poster.ephemeral(input.channel, input.user, input.threadTs, await staleNote(waiting.pauseId, deps, t));
    return 'stale';
  }
  return 'answered';
}

/** To someone answering a question no longer open: what settled it (who answered what, the timeout, a cancel) while that is known. */
async function staleNote(pauseId: string | undefined, deps: HandlerDeps, t: ThreadStrings): Promise<string> {
  const settlement = pauseId ? await deps.stores.pausedRuns.settlement(pauseId) : null;
  if (!settlement) return t.questionStale;
  if (settlement.kind === 'answer') return t.questionSettled(answeredLine(settlement.by, settlement.text)(t));
  return t.questionSettled(settlement.kind === 'cancelled' ? t.cancelledBy(settlement.by.replace(/^<@|>$/g, '')) : t.noAnswerInTime);
}

/** A suggested-answer button: the answer is the button's text as the agent wrote it (read from the stored run). */
export async function handleAnswerButton(input: { client: WebClient; user: string; value?: string }, deps: HandlerDeps): Promise<AnswerOutcome> {
  const value = decodeAnswerValue(input.value);
  if (!value) {
    deps.logger.info({ value: input.value?.slice(0, 200), user: input.user }, 'answer button with an unreadable value');
    return 'stale';
  }
  const { channel, threadTs } = value;
  const run = await deps.stores.pausedRuns.load(value.pauseId);
  const answer = value.index === 'decide' ? (run ? DECIDE_YOURSELF : undefined) : run?.suggestedAnswers[value.index];
  if (answer === undefined) {
    const language = (await deps.sessions.get(channel, threadTs))?.language;
    await deps.posterFor(input.client).ephemeral(channel, input.user, threadTs, stringsFor(language).questionStale);
    return 'stale';
  }
  return answerQuestion({ client: input.client, channel, threadTs, user: input.user, text: answer, via: 'button', pauseId: value.pauseId }, deps);
}

/** "Cancel" while the run waits: the question is withdrawn and the run ends at once with what it has. */
export async function withdrawQuestion(input: { client: WebClient; channel: string; threadTs: string; user: string }, deps: HandlerDeps): Promise<boolean> {
  const session = await deps.sessions.get(input.channel, input.threadTs);
  const waiting = session?.waiting;
  if (!waiting || !mayAnswer(deps, waiting, input.user)) return false;
  const settlement: QuestionSettlement = { kind: 'cancelled', by: `<@${input.user}>`, at: new Date().toISOString() };
  return settle(input, waiting, settlement, (t) => t.cancelledBy(input.user), deps, session.language);
}

async function settle(
  input: { client: WebClient; channel: string; threadTs: string },
  waiting: WaitingQuestion,
  settlement: QuestionSettlement,
  outcomeLine: (strings: ThreadStrings) => string,
  deps: HandlerDeps,
  language: string | undefined,
): Promise<boolean> {
  const store = deps.stores.pausedRuns;
  if (!(await store.settle(waiting.pauseId, settlement))) return false;
  await deps.sessions.update(input.channel, input.threadTs, (current) =>
    current?.waiting?.pauseId === waiting.pauseId
      ? {
          ...current,
          waiting: undefined,
          runs: current.runs.map((r) => (r.jobId === waiting.jobId && r.status === 'waiting' ? { ...r, status: 'queued' as const } : r)),
        }
      : null,
  );
  const job = await deps.queues.tasks.getJob(waiting.jobId);
  const thread = { channel: input.channel, threadTs: input.threadTs };
  // A question in a streamed run's own message loses its buttons at once, before the resume job can take the message
  // over (the thread's outbox keeps this edit ahead of that job's steps); a job its timeout started already does that.
  const statusKey = job?.data.resume?.statusKey;
  if (waiting.inRunMessage && statusKey && (await job.isDelayed()))
    await deps.outbox.settleQuestion(thread, runStreamKey(statusKey), waiting.pauseId, outcomeLine(stringsFor(language)));
  // Not delayed any more means its timeout just started it: it reads the settlement itself.
  await job?.promote().catch((error: unknown) => deps.logger.info({ err: error, jobId: waiting.jobId }, 'resume job was not delayed'));
  const view = {
    ...thread,
    pauseId: waiting.pauseId,
    requester: waiting.requester,
    question: waiting.question,
    suggestedAnswers: [],
    timeoutAt: new Date(waiting.timeoutAt),
    language,
  };
  if (!waiting.inRunMessage) await deps.outbox.update(thread, questionMessageKey(waiting.pauseId), settledQuestionMessage(view, outcomeLine));
  await reminderSettled(deps.outbox, view, outcomeLine);
  deps.logger.info({ pauseId: waiting.pauseId, jobId: waiting.jobId, settled: settlement.kind, thread: input.threadTs }, 'question settled; the run goes on');
  return true;
}

import { randomUUID } from 'node:crypto';
import { readInstruction } from '../src/instruction/read-instruction.js';
import type { InstructionReading } from '../src/instruction/instruction-types.js';
import { queueRun } from '../src/queue/queue-run.js';
import { tasksAhead } from '../src/queue/queues.js';
import { jobIdFor, type TaskJob } from '../src/queue/task-job.js';
import type { RepoRef } from '../src/repository/resolve-repository.js';
import type { ThreadSession } from '../src/sessions/thread-session.js';
import { clarificationCard, clarificationCardKey } from '../src/slack/clarification-card.js';
import { notQueuedMessage } from '../src/slack/help-messages.js';
import { statusCardKey, streamsRuns } from '../src/slack/slack-reporter-factory.js';
import { notQueuedStream, queuedRunStream, type StreamTarget } from '../src/slack/slack-stream-run-reporter.js';
import { understandingCard } from '../src/slack/understanding-card.js';
import type { AcceptOutcome, HandlerDeps, InstructionInput } from './handler-deps.js';
import { stringsFor, threadLanguage } from '../src/slack/strings/index.js';
import { startManualTriage } from './manual-triage.js';
import { proposeSchedule } from './schedule-requests.js';
import { slackLocale } from './requester-language.js';

/**
 * The one path from an instruction to a queued run, shared by mentions, thread answers, the modal and
 * "Start anyway". New ill-formed work is not guessed at: Wrench asks for what is missing and keeps the
 * instruction pending in the thread's session. Follow-ups are read in the light of the thread.
 */
export async function acceptInstruction(input: InstructionInput, deps: HandlerDeps): Promise<AcceptOutcome> {
  const session = await deps.sessions.get(input.channel, input.threadTs);
  const repo = session?.repo ?? input.repo;
  if (!repo) throw new Error('acceptInstruction needs a repository for new work');
  const isFollowUp = !!session && session.runs.length > 0;
  const thread = { channel: input.channel, threadTs: input.threadTs };
  const statusLine = { ...thread, team: input.teamId ?? 'default' };
  // The fast model reads it (with the thread's earlier instructions for a follow-up); the rules when it cannot.
  // The reading starts at once; the requester's locale is looked up beside it, not before it.
  const history = session?.runs.map((run) => run.instruction) ?? [];
  const reader = deps.readInstruction
    ? deps.readInstruction(input.text, history, repo)
    : Promise.resolve({ reading: readInstruction(input.text), usage: undefined, latencyMs: 0 });
  reader.catch(() => undefined); // awaited below; a failure meanwhile is not unhandled
  // Before the reading, the thread's language or the requester's Slack locale says which words the status takes.
  const locale = session?.language || input.language ? undefined : await slackLocale(input.user, deps);
  const before = stringsFor(session?.language ?? input.language ?? threadLanguage(undefined, locale)).statusLine;
  await deps.outbox.status(statusLine, before.reading, before.readingSteps(`${repo.owner}/${repo.name}`));
  const { reading: read, usage, latencyMs } = await reader;
  // A follow-up continues the thread's task ("also add src/farewell.js; npm test passes" is more of the same
  // feature, not a testing task): read by the rules alone, it keeps the category of the thread's first task. A
  // question is none: after one, "ok, fix it" is read on its own (a change that starts from the answer).
  const firstTask = session?.runs.find((r) => r.category && r.category !== 'question')?.category;
  const threadCategory = isFollowUp && read.readBy !== 'model' ? firstTask : undefined;
  const category = input.category ?? threadCategory;
  const reading: InstructionReading = { ...(category ? { ...read, category } : read), readerUsage: usage ? { ...usage, latencyMs } : undefined };
  const poster = deps.posterFor(input.client);
  const language = session?.language ?? input.language ?? threadLanguage(reading.writtenIn, locale);
  const t = stringsFor(language);

  // Recurring work the rules did not read ("on Mondays at nine, could you…") but the model did: proposed on a card,
  // like the rules' schedules, instead of run now. Only for a new request from a mention, never a run's follow-up.
  if (reading.schedule && input.mayBeSchedule && deps.schedules && !session && !input.force) {
    await deps.outbox.status(statusLine, '');
    const scheduleInput = { client: input.client, channel: input.channel, threadTs: input.threadTs, user: input.user, teamId: input.teamId };
    const outcome = await proposeSchedule(scheduleInput, reading.schedule, { repo }, language, { ...deps, schedules: deps.schedules }, 'model');
    // No work starts now: the :eyes: ("working on it") is taken back.
    await deps.outbox.unreact(thread, input.messageTs, 'eyes');
    return outcome;
  }
  // A follow-up goes on with the thread's work, unless it asks for a whole rewrite: that is declined wherever it comes.
  if (!input.force && (!isFollowUp || reading.hold === 'whole-rewrite') && reading.verdict !== 'well-formed') {
    // The pending instruction is stored before the card is posted: its buttons may be pressed at once.
    const pending = {
      text: input.text,
      requester: input.user,
      messageTs: input.messageTs,
      verdict: reading.verdict as 'ill-formed' | 'unrealistic',
      ...(reading.questions?.length ? { questions: reading.questions } : {}),
    };
    await deps.sessions.update(input.channel, input.threadTs, (current) => ({ ...(current ?? newSession(input, repo, language)), pending }));
    const card = clarificationCard(reading, input.text, thread, t);
    const cardTs = await poster.reply(input.channel, input.threadTs, card).catch(async (error: unknown) => {
      // Slack is failing now: the thread's outbox asks as soon as it answers again.
      deps.logger.warn({ err: error, channel: input.channel, thread: input.threadTs }, 'could not post the clarification card; queued in the outbox');
      await deps.outbox.post(thread, card, clarificationCardKey(input.messageTs));
      return undefined;
    });
    await deps.sessions.update(input.channel, input.threadTs, (current) =>
      current?.pending?.messageTs === input.messageTs ? { ...current, pending: { ...current.pending, cardTs } } : null,
    );
    // The card went straight to Slack, perhaps ahead of the status still in the outbox: clear it after the status.
    await deps.outbox.status(statusLine, '');
    return reading.verdict === 'unrealistic' ? 'declined' : 'clarifying';
  }
  // "@wrench triage: ..." runs the incident investigation (runners/profiles/triage-profile.ts), not a task.
  if (reading.category === 'incident-triage' && !isFollowUp) return startManualTriage(input, repo, deps, language);
  return startRun(input, repo, reading, session, deps, language);
}

/**
 * Nothing here talks to Slack directly: the run is recorded and queued in Redis, and its status card waits in
 * the thread's outbox (ahead of everything the run will say), so a Slack outage at this moment loses nothing.
 */
async function startRun(
  input: InstructionInput,
  repo: RepoRef,
  reading: InstructionReading,
  session: ThreadSession | null,
  deps: HandlerDeps,
  language: string,
): Promise<AcceptOutcome> {
  const t = stringsFor(language);
  const outbox = deps.outbox;
  const repository = `${repo.owner}/${repo.name}`;
  const thread = { channel: input.channel, threadTs: input.threadTs };
  const jobId = jobIdFor('run', input.dedupKey);
  const busy = session?.runs.some((r) => r.status === 'queued' || r.status === 'running');
  const ahead = await tasksAhead(deps.queues).catch(() => 0);
  const status = busy ? t.queuedBehindThread : t.queued(ahead > 0 ? ahead + 1 : undefined);
  const statusKey = statusCardKey(jobId);
  // With slack.streamRuns the run's one message is a streamed plan, started here in place of the status card.
  const stream = streamsRuns(deps.config.file.slack.streamRuns, input.teamId);
  const job: TaskJob = {
    kind: 'task',
    origin: {
      type: 'slack',
      teamId: input.teamId,
      channel: input.channel,
      threadTs: input.threadTs,
      messageTs: input.messageTs,
      eventId: input.dedupKey,
      ...(stream ? { stream } : {}),
    },
    repo,
    instruction: input.text,
    category: reading.category,
    complexity: reading.complexity,
    elements: reading.elements as Record<string, unknown>,
    summary: reading.summary,
    language,
    reader: reading.readerUsage ? { model: deps.config.env.WRENCH_READER_MODEL, ...reading.readerUsage } : undefined,
    requester: { slackUserId: input.user },
    requestedAt: new Date().toISOString(),
  };
  const streamTarget: StreamTarget = {
    team: input.teamId ?? 'default',
    recipient: input.teamId ? { user: input.user, team: input.teamId } : undefined,
    ...thread,
    statusKey,
    repository,
    reading: { category: reading.category, complexity: reading.complexity, elements: reading.elements, summary: reading.summary },
    language,
  };
  const queuedDetail = busy ? t.plan.behindThreadRun : ahead > 0 ? t.plan.queuePosition(ahead + 1) : undefined;
  const run = {
    jobId,
    instruction: input.text,
    requester: input.user,
    messageTs: input.messageTs,
    status: 'queued' as const,
    category: reading.category,
    at: new Date().toISOString(),
  };
  const result = await queueRun(deps, {
    jobId,
    job,
    run,
    thread,
    newSession: () => newSession(input, repo, language),
    answersPending: true,
    announce: () =>
      stream
        ? outbox.stream(thread, queuedRunStream(streamTarget, queuedDetail))
        : outbox.post(thread, understandingCard(reading, repository, thread, status, { strings: t }), statusKey),
  });
  const statusLine = { ...thread, team: input.teamId ?? 'default' };
  if (!result.queued) {
    const text = notQueuedMessage(result.error, 'task', t);
    await (stream ? outbox.stream(thread, notQueuedStream(streamTarget, text)) : outbox.update(thread, statusKey, { text })).catch((e: unknown) =>
      deps.logger.error({ err: e, jobId }, 'could not say the task was not queued'),
    );
    await outbox.status(statusLine, '');
    return 'failed';
  }
  // After the card (which cleared the reading status): until a worker takes the run (SlackRunReporter clears it).
  await outbox.status(statusLine, t.statusLine.waitingForWorker);
  deps.logger.info({ jobId, repo: repository, category: reading.category, thread: input.threadTs }, 'task queued');
  return 'queued';
}

function newSession(input: InstructionInput, repo: RepoRef, language: string): ThreadSession {
  const now = new Date().toISOString();
  return { channel: input.channel, threadTs: input.threadTs, repo, requester: input.user, language, runs: [], createdAt: now, updatedAt: now };
}

export const newDedupKey = () => randomUUID();

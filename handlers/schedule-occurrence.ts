import type { WebClient } from '@slack/web-api';
import { isRunPending } from '../src/queue/queue-run.js';
import { jobIdFor } from '../src/queue/task-job.js';
import { findOccurrenceMessage, occurrenceMetadata } from '../src/schedules/occurrence-message.js';
import type { ScheduleBook } from '../src/schedules/schedule-queue.js';
import type { Schedule } from '../src/schedules/schedule-store.js';
import { dueTimesBetween, formatRunTime } from '../src/schedules/schedule-times.js';
import { stringsFor } from '../src/slack/strings/index.js';
import { acceptInstruction } from './accept-instruction.js';
import type { HandlerDeps } from './handler-deps.js';

/** Runs that fail in a row before their schedule pauses itself. */
export const FAILURES_BEFORE_PAUSE = 3;

export type OccurrenceOutcome = 'started' | 'skipped' | 'paused' | 'inactive' | 'duplicate' | 'not_queued';

export interface OccurrenceInput {
  scheduleId: string;
  /** When the occurrence was due (ms since epoch): with the schedule, what makes it one occurrence. */
  occurrence: number;
  /** When a worker took its job (ms; default now): the occurrences due after it and by then never got a job. */
  takenAt?: number;
  client: WebClient;
}

/**
 * How an occurrence runs: as itself, or (taken late) as the latest occurrence due by then; `skipped` occurrences since
 * the last one handled got no run, `first` the earliest of them (its own due time when none).
 */
interface OccurrencePlan {
  due: number;
  skipped: number;
  first: number;
  takenAt: number;
}

/**
 * One occurrence of a schedule, handed to one process by BullMQ's job scheduler: not a run itself. It posts the run's
 * message in the channel (the run's own thread) and queues an ordinary run there through the path a mention takes, so
 * the queue, warm trees, verification and report are the same. The occurrence (schedule + due time) is the run's
 * idempotency key: a doubled or retried occurrence finds the message it posted and the job it queued. When the previous
 * run is still going, the occurrence is skipped; after three failed runs in a row, the schedule pauses itself.
 */
export async function runScheduleOccurrence(input: OccurrenceInput, deps: HandlerDeps & { schedules: ScheduleBook }): Promise<OccurrenceOutcome> {
  // One occurrence of a schedule at a time across the fleet: BullMQ adds the next occurrence's job when this one is
  // taken, so on a short cron two processes could otherwise each find no run going and start one.
  return deps.schedules.store.inTurn(input.scheduleId, async () => {
    const plan = await planOccurrence(input, deps);
    const missed = plan.skipped > 0 ? { ...plan, taken: input.occurrence } : undefined;
    return handleOccurrence({ ...input, occurrence: plan.due }, missed, deps);
  });
}

/**
 * Occurrences no Wrench process took when due run once, never as a burst of make-up runs. A job taken after later
 * occurrences came due (no process was there to take it in time; BullMQ's scheduler keeps one job waiting and adds the
 * next one for after the moment it is taken) runs as the latest of them, late. Due times between the last occurrence
 * handled and this one (their job lost, e.g. in a Redis failover) are counted too. What was skipped is said with the
 * run. Decided once per job and kept in its record, so a retry runs as the same one.
 */
async function planOccurrence(input: OccurrenceInput, deps: HandlerDeps & { schedules: ScheduleBook }): Promise<OccurrencePlan> {
  const { store } = deps.schedules;
  const takenAt = input.takenAt ?? Date.now();
  const onTime = { due: input.occurrence, skipped: 0, first: input.occurrence, takenAt };
  const record = await store.occurrence(input.scheduleId, input.occurrence);
  if (record?.runsAs) return record.runsAs;
  if (record?.outcome) return onTime;
  const schedule = await store.get(input.scheduleId);
  if (schedule?.state !== 'active') return onTime;
  const late = dueTimesBetween(schedule.cron, schedule.timezone, input.occurrence, takenAt);
  const due = late.last ?? input.occurrence;
  let previous: number | undefined;
  await store.update(input.scheduleId, (s) => {
    previous = s.lastDue;
    return s.lastDue !== undefined && s.lastDue >= due ? null : { ...s, lastDue: due };
  });
  const lost =
    previous !== undefined && previous < input.occurrence ? dueTimesBetween(schedule.cron, schedule.timezone, previous, input.occurrence - 1) : { count: 0 };
  const plan = { due, skipped: lost.count + late.count, first: lost.first ?? input.occurrence, takenAt };
  const kept = await store.updateOccurrence(input.scheduleId, input.occurrence, (o) => (o.runsAs ? null : { ...o, runsAs: plan }));
  return kept?.runsAs ?? plan;
}

async function handleOccurrence(
  input: OccurrenceInput,
  missed: (OccurrencePlan & { taken: number }) | undefined,
  deps: HandlerDeps & { schedules: ScheduleBook },
): Promise<OccurrenceOutcome> {
  const { store } = deps.schedules;
  const { scheduleId, occurrence } = input;
  const log = deps.logger.child({ schedule: scheduleId, occurrence: new Date(occurrence).toISOString() });
  const earlier = await store.occurrence(scheduleId, occurrence);
  if (earlier?.outcome) {
    log.info({ outcome: earlier.outcome }, 'schedule occurrence already handled');
    return 'duplicate';
  }
  const settle = (outcome: 'started' | 'skipped' | 'paused' | 'inactive') => store.updateOccurrence(scheduleId, occurrence, (o) => ({ ...o, outcome }));
  let schedule = await store.get(scheduleId);
  // Paused or deleted between the fire and now: BullMQ may already have added this job.
  if (schedule?.state !== 'active') {
    await settle('inactive');
    return 'inactive';
  }
  const t = stringsFor(schedule.language).schedules;
  const due = formatRunTime(new Date(occurrence), schedule.timezone);
  const { timezone } = schedule;
  const at = (ms: number) => formatRunTime(new Date(ms), timezone);
  // Said with the run (or its skip): taken late, and the occurrences no run was made for.
  const lateLine = missed
    ? `\n:hourglass: ${missed.due === missed.taken ? '' : `${t.lateRun(due, at(missed.takenAt))} `}${t.skippedBefore(missed.skipped, at(missed.first))}`
    : '';
  const poster = deps.posterFor(input.client);
  schedule = await withThread(schedule, input.client, deps);
  const scheduleThread = { channel: schedule.channel, threadTs: schedule.threadTs as string };
  const note = (text: string, key: string) => deps.outbox.postOnce(scheduleThread, { text }, `schedule-${scheduleId}-${occurrence}-${key}`);

  if (schedule.lastRun && !schedule.lastRun.settled) {
    const previous = await previousRunState(schedule, deps);
    if (previous === 'going') {
      await note(t.skipped(due) + lateLine, 'skipped');
      await settle('skipped');
      log.info({ jobId: schedule.lastRun.jobId }, 'skipped a schedule occurrence: the previous run is still going');
      return 'skipped';
    }
    const jobId = schedule.lastRun.jobId;
    schedule =
      (await store.update(scheduleId, (s) =>
        s.lastRun?.jobId === jobId && !s.lastRun.settled
          ? { ...s, failures: previous === 'failed' ? s.failures + 1 : 0, lastRun: { ...s.lastRun, settled: true } }
          : null,
      )) ?? schedule;
  }
  if (schedule.failures >= FAILURES_BEFORE_PAUSE) {
    await pauseAfterFailures(schedule, deps);
    await note(t.pausedAfterFailures(schedule.failures), 'paused');
    await settle('paused');
    log.warn({ failures: schedule.failures }, 'paused a schedule whose runs kept failing');
    return 'paused';
  }

  // The run's own thread: posted once per occurrence. A retry finds it in the occurrence's record or, when the process
  // died (or Redis lost the write) between Slack taking it and the record holding it, in the channel by its metadata.
  let runTs = earlier?.threadTs;
  if (!runTs) {
    runTs =
      (await findOccurrenceMessage(input.client, schedule.channel, scheduleId, occurrence)) ??
      (await poster.postInChannel(
        schedule.channel,
        { text: t.runMessage(scheduleId, schedule.when, schedule.instruction) + lateLine },
        occurrenceMetadata(scheduleId, occurrence),
      ));
    const posted = runTs;
    await store.updateOccurrence(scheduleId, occurrence, (o) => ({ ...o, threadTs: posted }));
  }
  const dedupKey = `schedule-${scheduleId}-${occurrence}`;
  const outcome = await acceptInstruction(
    {
      client: input.client,
      channel: schedule.channel,
      threadTs: runTs,
      messageTs: runTs,
      teamId: schedule.teamId,
      dedupKey,
      user: schedule.creator ?? `schedule:${scheduleId}`,
      text: schedule.instruction,
      repo: schedule.repo,
      // Confirmed when the schedule was made: each run does not ask again.
      force: true,
      language: schedule.language,
    },
    deps,
  );
  const jobId = jobIdFor('run', dedupKey);
  const queued = outcome === 'queued';
  await store.update(scheduleId, (s) =>
    queued ? { ...s, lastRun: { jobId, threadTs: runTs, occurrence, settled: false } } : { ...s, failures: s.failures + 1 },
  );
  if (queued) await note(t.runStarted(due, (await poster.permalink(schedule.channel, runTs)) ?? `<#${schedule.channel}>`), 'started');
  await settle('started');
  log.info(
    {
      jobId,
      thread: runTs,
      outcome,
      ...(missed ? { skipped: missed.skipped, firstSkipped: new Date(missed.first).toISOString(), takenAt: new Date(missed.takenAt).toISOString() } : {}),
    },
    'schedule occurrence handled',
  );
  return queued ? 'started' : 'not_queued';
}

/** The schedule's own thread, where notes about it go: a config schedule gets one at its first occurrence. */
async function withThread(schedule: Schedule, client: WebClient, deps: HandlerDeps & { schedules: ScheduleBook }): Promise<Schedule> {
  if (schedule.threadTs) return schedule;
  const t = stringsFor(schedule.language).schedules;
  const threadTs = await deps
    .posterFor(client)
    .postInChannel(schedule.channel, { text: t.configIntro(schedule.id, schedule.when, schedule.timezone, schedule.instruction) });
  return (await deps.schedules.store.update(schedule.id, (s) => (s.threadTs ? null : { ...s, threadTs }))) ?? { ...schedule, threadTs };
}

/** The schedule's previous run: still going (queued, running, waiting on a question), failed, or ended otherwise. */
async function previousRunState(schedule: Schedule, deps: HandlerDeps): Promise<'going' | 'failed' | 'ended'> {
  const last = schedule.lastRun;
  if (!last) return 'ended';
  const [session, jobState] = await Promise.all([
    deps.sessions.get(schedule.channel, last.threadTs),
    deps.queues.tasks.getJobState(last.jobId).catch(() => 'unknown'),
  ]);
  const run = session?.runs.find((r) => r.jobId === last.jobId);
  const graceMs = 2 * deps.config.env.WRENCH_MENTION_CLAIM_SECONDS * 1000;
  if (run && (run.status === 'waiting' || isRunPending(run, jobState, graceMs))) return 'going';
  return run?.status === 'failed' || jobState === 'failed' ? 'failed' : 'ended';
}

async function pauseAfterFailures(schedule: Schedule, deps: HandlerDeps & { schedules: ScheduleBook }): Promise<void> {
  await deps.schedules.deactivate(schedule.id);
  await deps.schedules.store.update(schedule.id, (s) => ({ ...s, state: 'paused', pausedBecause: `the last ${s.failures} runs failed` }));
}

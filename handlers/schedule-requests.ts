import type { WebClient } from '@slack/web-api';
import type { Config } from '../src/config/load-config.js';
import { namedAmong, resolveRepository, type RepoRef } from '../src/repository/resolve-repository.js';
import { isScheduleProblem, readSchedule, type ScheduleRequest } from '../src/schedules/schedule-phrase.js';
import type { ScheduleBook } from '../src/schedules/schedule-queue.js';
import type { Schedule } from '../src/schedules/schedule-store.js';
import { formatRunTime, isTimeZone, shortestGapSeconds } from '../src/schedules/schedule-times.js';
import { noRepositoryMessage, repositoryNotAllowedMessage } from '../src/slack/help-messages.js';
import { answeredScheduleCard, decodeScheduleValue, SCHEDULE_ACTIONS, scheduleCard } from '../src/slack/schedule-card.js';
import { truncate } from '../src/slack/slack-escape.js';
import { stringsFor, type ThreadStrings } from '../src/slack/strings/index.js';
import type { HandlerDeps } from './handler-deps.js';
import { replyLanguage } from './requester-language.js';

export type ScheduleOutcome = 'proposed' | 'refused' | 'listed' | 'paused' | 'resumed' | 'deleted' | 'unchanged' | 'not_found' | 'not_allowed';

type ScheduleDeps = HandlerDeps & { schedules: ScheduleBook };

export interface ScheduleWordsInput {
  client: WebClient;
  channel: string;
  /** Where the answer goes: the mention's thread. */
  threadTs: string;
  user: string;
  teamId?: string;
  text: string;
}

const COMMAND = /^(?:(list|show)\s+(?:the\s+|all\s+)?schedules|(pause|resume|delete|remove)\s+schedule\s+#?([A-Za-z0-9-]{1,40}))\s*[.!]?$/i;

/**
 * "@wrench list schedules", "@wrench pause/resume/delete schedule N", and a request read as recurring work ("every
 * Monday at 9:00, update the dependencies"): answered here. Undefined: the message is none of these (a task).
 */
export async function handleScheduleWords(input: ScheduleWordsInput, deps: ScheduleDeps): Promise<ScheduleOutcome | undefined> {
  const command = COMMAND.exec(input.text.trim());
  if (command) {
    const t = stringsFor(await replyLanguage(input, input.user, deps));
    if (command[1]) return listSchedules(input, deps, t);
    const verb = (command[2] ?? '').toLowerCase();
    return changeSchedule(input, verb === 'remove' ? 'delete' : (verb as 'pause' | 'resume' | 'delete'), command[3] ?? '', deps, t);
  }
  const request = readSchedule(input.text);
  if (!request) return undefined;
  // Said in the language the schedule was asked in ("jeden Montag um 25 Uhr" is answered in German), English
  // phrases in the thread's or the requester's language.
  const language = request.language && request.language !== 'en' ? request.language : await replyLanguage(input, input.user, deps);
  const t = stringsFor(language);
  if (isScheduleProblem(request)) {
    await deps.posterFor(input.client).reply(input.channel, input.threadTs, { text: t.schedules.notUnderstood(t.schedules.problem(request.reason)) });
    return 'refused';
  }
  const repo = await scheduleRepository(request.instruction, input.channel, deps.config, t);
  return proposeSchedule(input, request, repo, language, deps, 'rules');
}

/**
 * The card for a schedule read from a request (by the rules, or by the model reader on the instruction path): refused
 * with the reason when it has no repository or runs more often than `WRENCH_SCHEDULE_MIN_SECONDS`; else stored as
 * proposed and shown with its next runs, waiting for Confirm.
 */
export async function proposeSchedule(
  input: Omit<ScheduleWordsInput, 'text'>,
  request: ScheduleRequest,
  repo: { repo: RepoRef } | { refusal: string },
  language: string,
  deps: ScheduleDeps,
  readBy: 'rules' | 'model',
): Promise<'proposed' | 'refused'> {
  const t = stringsFor(language);
  const reply = (text: string) => deps.posterFor(input.client).reply(input.channel, input.threadTs, { text });
  if ('refusal' in repo) {
    await reply(repo.refusal);
    return 'refused';
  }
  const zone = await deps.names.userTimeZone?.(input.user).catch(() => undefined);
  const timezone = zone && isTimeZone(zone) ? zone : 'UTC';
  const gap = shortestGapSeconds(request.cron, timezone);
  const minimum = deps.config.env.WRENCH_SCHEDULE_MIN_SECONDS;
  if (gap < minimum) {
    await reply(t.schedules.tooOften(gap, minimum));
    return 'refused';
  }
  const schedule: Schedule = {
    id: await deps.schedules.store.nextId(),
    source: 'slack',
    channel: input.channel,
    cron: request.cron,
    timezone,
    when: request.when,
    instruction: request.instruction,
    repo: repo.repo,
    creator: input.user,
    teamId: input.teamId,
    language,
    state: 'proposed',
    threadTs: input.threadTs,
    failures: 0,
    createdAt: new Date().toISOString(),
  };
  // Stored before the card is posted: its buttons may be pressed at once.
  await deps.schedules.store.save(schedule);
  const cardTs = await deps.posterFor(input.client).reply(input.channel, input.threadTs, scheduleCard(schedule, t));
  await deps.schedules.store.update(schedule.id, (s) => ({ ...s, cardTs }));
  deps.logger.info({ schedule: schedule.id, cron: schedule.cron, timezone, channel: input.channel, readBy }, 'proposed a schedule');
  return 'proposed';
}

/** The repository a schedule works on: the channel's, or the one its instruction names among the channel's several. */
export async function scheduleRepository(
  instruction: string,
  channel: string,
  config: Config,
  t: ThreadStrings,
): Promise<{ repo: RepoRef } | { refusal: string }> {
  const resolution = resolveRepository(instruction, channel, config.file);
  if (resolution.ok) return { repo: resolution.repo };
  if (resolution.reason === 'choose') {
    const [named, ...more] = namedAmong(instruction, resolution.candidates);
    if (named && more.length === 0) return { repo: named };
    return { refusal: t.nameTheRepository(resolution.candidates.map((r) => `${r.owner}/${r.name}`).join(', ')) };
  }
  return { refusal: resolution.reason === 'no_repository' ? noRepositoryMessage(channel, t) : repositoryNotAllowedMessage(resolution.named, t) };
}

/** Who may change a schedule: its creator, an admin (`access.admins`), or a config schedule's owner. */
export function mayChangeSchedule(schedule: Schedule, user: string, config: Config): boolean {
  return schedule.creator === user || config.file.access.admins.includes(user);
}

/** The next run of an active schedule, in its time zone, as its job scheduler says. */
async function nextRunText(schedule: Schedule, deps: ScheduleDeps): Promise<string | undefined> {
  if (schedule.state !== 'active') return undefined;
  const next = await deps.schedules.nextRun(schedule.id).catch(() => undefined);
  return next ? formatRunTime(new Date(next), schedule.timezone) : undefined;
}

async function listSchedules(input: ScheduleWordsInput, deps: ScheduleDeps, t: ThreadStrings): Promise<'listed'> {
  // The channel's own: a private channel's schedules are not listed in another.
  const schedules = (await deps.schedules.store.all()).filter((s) => s.channel === input.channel);
  const lines = await Promise.all(
    schedules.map(async (s) =>
      t.schedules.listLine(s.id, t.schedules.states[s.state], s.when, s.timezone, s.channel, truncate(s.instruction, 200), await nextRunText(s, deps)),
    ),
  );
  const text = lines.length ? `${t.schedules.listTitle}\n${lines.join('\n')}` : t.schedules.listEmpty;
  await deps.posterFor(input.client).reply(input.channel, input.threadTs, { text });
  return 'listed';
}

async function changeSchedule(
  input: ScheduleWordsInput,
  verb: 'pause' | 'resume' | 'delete',
  id: string,
  deps: ScheduleDeps,
  t: ThreadStrings,
): Promise<ScheduleOutcome> {
  const reply = (text: string) => deps.posterFor(input.client).reply(input.channel, input.threadTs, { text });
  const schedule = await deps.schedules.store.get(id);
  if (!schedule || schedule.state === 'proposed') {
    await reply(t.schedules.notFound(id));
    return 'not_found';
  }
  if (!mayChangeSchedule(schedule, input.user, deps.config)) {
    await deps.posterFor(input.client).ephemeral(input.channel, input.user, input.threadTs, t.schedules.notAllowed);
    return 'not_allowed';
  }
  const outcome = await applyChange(schedule, verb, input.user, deps, t);
  await reply(outcome.text);
  deps.logger.info({ schedule: id, verb, user: input.user, outcome: outcome.outcome }, 'changed a schedule');
  return outcome.outcome;
}

/** Pause (the job scheduler removed, the record kept), resume (re-upserted, failures forgotten) or delete (both gone). */
export async function applyChange(
  schedule: Schedule,
  verb: 'pause' | 'resume' | 'delete',
  user: string,
  deps: ScheduleDeps,
  t: ThreadStrings,
): Promise<{ outcome: ScheduleOutcome; text: string }> {
  const { store } = deps.schedules;
  if (verb === 'delete') {
    if (schedule.source === 'config') return { outcome: 'unchanged', text: t.schedules.configDelete };
    await deps.schedules.deactivate(schedule.id);
    await store.remove(schedule.id);
    return { outcome: 'deleted', text: t.schedules.deleted(user, schedule.id) };
  }
  if (verb === 'pause') {
    if (schedule.state === 'paused') return { outcome: 'unchanged', text: t.schedules.unchanged(schedule.id, t.schedules.states.paused) };
    await deps.schedules.deactivate(schedule.id);
    await store.update(schedule.id, (s) => ({ ...s, state: 'paused', pausedBecause: `paused by <@${user}>` }));
    return { outcome: 'paused', text: t.schedules.paused(user, schedule.id) };
  }
  if (schedule.state === 'active') return { outcome: 'unchanged', text: t.schedules.unchanged(schedule.id, t.schedules.states.active) };
  const resumed = await store.update(schedule.id, (s) => {
    const { pausedBecause: _why, lastDue: _handled, ...rest } = s;
    // The run that made it pause is counted; the next failures start from none. The occurrences of the pause were not
    // missed: counting skipped ones starts again from the next.
    return { ...rest, state: 'active', failures: 0, lastRun: s.lastRun ? { ...s.lastRun, settled: true } : undefined };
  });
  if (resumed) await deps.schedules.activate(resumed);
  const next = resumed ? await nextRunText(resumed, deps) : undefined;
  return { outcome: 'resumed', text: t.schedules.resumed(user, schedule.id, next ?? '?') };
}

/** Confirm or Cancel on a schedule's card: only its requester or an admin; a second press finds it answered. */
export async function handleScheduleButton(
  input: { client: WebClient; user: string; actionId: string; value?: string },
  deps: ScheduleDeps,
): Promise<'confirmed' | 'cancelled' | 'stale' | 'not_allowed'> {
  const id = decodeScheduleValue(input.value);
  const schedule = id ? await deps.schedules.store.get(id) : null;
  const t = stringsFor(schedule?.language);
  const poster = deps.posterFor(input.client);
  if (schedule?.state !== 'proposed') {
    if (schedule?.threadTs) await poster.ephemeral(schedule.channel, input.user, schedule.threadTs, t.schedules.proposalGone);
    return 'stale';
  }
  const thread = schedule.threadTs as string;
  if (!mayChangeSchedule(schedule, input.user, deps.config)) {
    await poster.ephemeral(schedule.channel, input.user, thread, t.schedules.onlyRequesterConfirms);
    return 'not_allowed';
  }
  const confirming = input.actionId === SCHEDULE_ACTIONS.confirm;
  // Claimed by the one press that finds it still proposed.
  let claimed = false;
  const updated = await deps.schedules.store.update(schedule.id, (s) => {
    if (s.state !== 'proposed') return null;
    claimed = true;
    return confirming ? { ...s, state: 'active' } : s;
  });
  if (!claimed || !updated) {
    await poster.ephemeral(schedule.channel, input.user, thread, t.schedules.proposalGone);
    return 'stale';
  }
  if (confirming) await deps.schedules.activate(updated);
  else await deps.schedules.store.remove(schedule.id);
  const outcome = confirming ? t.schedules.confirmed(input.user, schedule.id) : t.schedules.cancelled(input.user);
  if (schedule.cardTs) await poster.update(schedule.channel, schedule.cardTs, answeredScheduleCard(updated, outcome, t));
  else await poster.reply(schedule.channel, thread, { text: outcome });
  deps.logger.info({ schedule: schedule.id, user: input.user, confirmed: confirming }, 'schedule answered');
  return confirming ? 'confirmed' : 'cancelled';
}

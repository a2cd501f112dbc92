import type { WebClient } from '@slack/web-api';
import { resolveRepository } from '../src/repository/resolve-repository.js';
import { canStartWork } from '../src/security/authorize.js';
import { helpMessage, noRepositoryMessage, notAuthorizedMessage, repositoryNotAllowedMessage } from '../src/slack/help-messages.js';
import { messageText } from '../src/slack/message-text.js';
import type { ThreadPoster } from '../src/slack/thread-poster.js';
import { stringsFor } from '../src/slack/strings/index.js';
import { acceptInstruction } from './accept-instruction.js';
import { cancelThreadRuns } from './cancel-run.js';
import type { AnswerOutcome } from './answer-question.js';
import { continueThread } from './continue-thread.js';
import { askForRepository, pickRepository } from './repository-choice.js';
import type { SteerOutcome } from './steer-run.js';
import type { AcceptOutcome, HandlerDeps, InstructionInput } from './handler-deps.js';
import { replyLanguage } from './requester-language.js';
import { handleScheduleWords, type ScheduleOutcome } from './schedule-requests.js';

export interface MentionInput {
  eventId: string;
  teamId?: string;
  botUserId?: string;
  /** `text` in Slack's wire format and the rich_text `blocks`, as the event carries them. */
  event: { channel: string; user?: string; text?: string | null; blocks?: unknown; ts: string; thread_ts?: string; bot_id?: string };
  client: WebClient;
  /** A Slack Connect channel (shared with another organisation). */
  sharedChannel?: boolean;
}

/** The handler's input from an `app_mention` envelope, as Bolt delivers it or as it was stored before its acknowledgement. */
export function mentionInputOf(body: Record<string, unknown>, client: WebClient, botUserId: string | undefined): MentionInput {
  const event = (body.event ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    eventId: text(body.event_id) ?? '',
    teamId: text(body.team_id) || undefined,
    botUserId,
    event: {
      channel: text(event.channel) ?? '',
      user: text(event.user),
      text: text(event.text),
      blocks: event.blocks,
      ts: text(event.ts) ?? '',
      thread_ts: text(event.thread_ts),
      bot_id: text(event.bot_id),
    },
    client,
    sharedChannel: body.is_ext_shared_channel === true,
  };
}

/** Longer instructions are refused with a clear message rather than sent to the model. */
export const MAX_INSTRUCTION_CHARS = 20_000;

export type MentionOutcome =
  | AcceptOutcome
  | AnswerOutcome
  | SteerOutcome
  | 'taken'
  | 'duplicate'
  | 'ignored'
  | 'help'
  | 'no_repository'
  | 'choosing'
  | 'not_allowed'
  | 'unauthorized'
  | 'cancel'
  | ScheduleOutcome;

/**
 * @wrench <task>: after Bolt has acknowledged the event, claim it once, authorize, resolve the
 * repository (or the thread's session) and hand the instruction on. Only Redis and Slack calls here.
 */
export async function handleAppMention(input: MentionInput, deps: HandlerDeps): Promise<MentionOutcome> {
  const { intake } = deps.stores;
  if (!input.eventId || !(await intake.claim(input.eventId))) {
    deps.logger.info({ eventId: input.eventId }, 'duplicate event: already handled');
    return 'duplicate';
  }
  let outcome: MentionOutcome;
  try {
    outcome = await handleClaimedMention(input, deps);
  } catch (error) {
    // Not handled: the stored mention is tried again (up to a limit) instead of being lost.
    await intake.release(input.eventId);
    throw error;
  }
  await intake.finish(input.eventId);
  return outcome;
}

async function handleClaimedMention(input: MentionInput, deps: HandlerDeps): Promise<MentionOutcome> {
  const { event } = input;
  if (!event.user || event.bot_id) return 'ignored';

  const poster = deps.posterFor(input.client);
  const threadTs = event.thread_ts ?? event.ts;
  const log = deps.logger.child({ eventId: input.eventId, channel: event.channel, thread: threadTs });
  const text = await messageText(event, deps.names, input.botUserId);
  // From the message's Slack timestamp to Wrench's first answer to it (a reply, or the :eyes: queued).
  const acknowledged = () => deps.metrics?.timeToAcknowledge.observe(Math.max(0, Date.now() / 1000 - Number(event.ts)));
  const user = event.user;
  /** A reply before any reading: in the thread's language, else the requester's Slack locale. */
  const replyStrings = async () => stringsFor(await replyLanguage({ channel: event.channel, threadTs }, user, deps));

  const permission = canStartWork(deps.config.file.access, event.user);
  if (!permission.allowed) {
    log.warn({ user: event.user, reason: permission.reason }, 'refused: user may not start work');
    await poster.ephemeral(event.channel, event.user, threadTs, notAuthorizedMessage(await replyStrings()));
    acknowledged();
    return 'unauthorized';
  }
  if (input.sharedChannel && !deps.config.file.access.sharedChannels) {
    log.warn({ user: event.user }, 'refused: Slack Connect channel');
    await poster.ephemeral(event.channel, event.user, threadTs, (await replyStrings()).sharedChannel);
    return 'unauthorized';
  }
  if (!text) {
    await poster.reply(event.channel, threadTs, { text: helpMessage(input.botUserId, await replyStrings()) });
    acknowledged();
    return 'help';
  }
  if (text.length > MAX_INSTRUCTION_CHARS) {
    const t = await replyStrings();
    await poster.reply(event.channel, threadTs, {
      text: t.instructionTooLong(text.length.toLocaleString('en'), MAX_INSTRUCTION_CHARS.toLocaleString('en')),
    });
    acknowledged();
    return 'ignored';
  }
  if (event.thread_ts && /^(stop|cancel)\b[.!]?$/i.test(text)) {
    const outcome = await cancelThreadRuns({ client: input.client, channel: event.channel, threadTs, user: event.user }, deps);
    if (outcome === 'cancelled') await poster.react(event.channel, event.ts, 'white_check_mark');
    return 'cancel';
  }
  // "every Monday at 9:00, ...", "list schedules", "pause schedule 2": answered here, no run.
  const schedules = deps.schedules;
  const scheduled =
    schedules &&
    (await handleScheduleWords({ client: input.client, channel: event.channel, threadTs, user, teamId: input.teamId, text }, { ...deps, schedules }));
  if (scheduled) {
    acknowledged();
    return scheduled;
  }
  // Best effort, after the fact: the outbox adds it when Slack answers; the work never waits on it.
  await deps.outbox.react({ channel: event.channel, threadTs }, event.ts, 'eyes');
  acknowledged();

  const common = {
    client: input.client,
    channel: event.channel,
    threadTs,
    messageTs: event.ts,
    teamId: input.teamId,
    dedupKey: input.eventId,
    user: event.user,
  };
  try {
    return await startWork(input, common, text, deps, poster, log);
  } catch (error) {
    // After the :eyes: the person is waiting: say so in the thread rather than only in the log.
    log.error({ err: error }, 'could not take the mention');
    await deps.outbox.post({ channel: event.channel, threadTs }, { text: (await replyStrings()).takingFailed });
    return 'failed';
  }
}

async function startWork(
  input: MentionInput,
  common: Omit<InstructionInput, 'text' | 'repo'>,
  text: string,
  deps: HandlerDeps,
  poster: ThreadPoster,
  log: HandlerDeps['logger'],
): Promise<MentionOutcome> {
  const { event } = input;
  const threadTs = common.threadTs;
  const continued = await continueThread({ ...common, text, mentioned: true }, deps);
  // Not added to the request being started (its author was told why): the :eyes: does not say it is being worked on.
  if (continued === 'taken') await deps.outbox.unreact({ channel: event.channel, threadTs }, event.ts, 'eyes');
  if (continued) return continued;

  const resolution = resolveRepository(text, event.channel, deps.config.file);
  if (!resolution.ok && resolution.reason === 'choose') {
    // A channel with several repositories: a path or symbol only one of them has tells; else the requester chooses.
    const picked = await pickRepository(text, resolution.candidates, deps);
    if (picked) return acceptInstruction({ ...common, text, repo: picked, mayBeSchedule: true }, deps);
    return askForRepository({ ...common, text }, resolution.candidates, deps);
  }
  if (!resolution.ok) {
    const t = stringsFor(await replyLanguage({ channel: event.channel, threadTs }, common.user, deps));
    const message = resolution.reason === 'no_repository' ? noRepositoryMessage(event.channel, t) : repositoryNotAllowedMessage(resolution.named, t);
    log.info({ reason: resolution.reason }, 'refused: no usable repository');
    await poster.reply(event.channel, threadTs, { text: message });
    // Refused: the :eyes: ("working on it") gives way to a plain no.
    const outbox = deps.outbox;
    await outbox.unreact({ channel: event.channel, threadTs }, event.ts, 'eyes');
    await outbox.react({ channel: event.channel, threadTs }, event.ts, 'no_entry_sign');
    return resolution.reason === 'no_repository' ? 'no_repository' : 'not_allowed';
  }
  return acceptInstruction({ ...common, text, repo: resolution.repo, mayBeSchedule: true }, deps);
}

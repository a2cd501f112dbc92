import { MentionIntake } from '../src/slack/mention-intake.js';
import type { IntakeJournal } from '../src/slack/intake-journal.js';
import type { WebClient } from '@slack/web-api';
import type { RedisClient } from '../src/redis/redis-connection.js';
import type { Category } from '../src/categories.js';
import type { RepoRef } from '../src/repository/resolve-repository.js';
import type { Config } from '../src/config/load-config.js';
import type { ReadingOutcome } from '../src/instruction/model-reader.js';
import type { Logger } from '../src/logging/logger.js';
import type { Queues } from '../src/queue/queues.js';
import type { RunLinks } from '../src/run-log/run-links.js';
import type { RunLogStore } from '../src/run-log/run-log-store.js';
import type { Redactor } from '../src/security/redact.js';
import type { ThreadSessionStore } from '../src/sessions/thread-session-store.js';
import type { SlackNames } from '../src/slack/message-text.js';
import type { ThreadOutbox } from '../src/slack/thread-outbox.js';
import { ThreadPoster } from '../src/slack/thread-poster.js';
import { claimEvent } from '../src/slack/event-dedup.js';
import { Cancellation } from '../src/sessions/cancellation.js';
import { SteeringInbox } from '../src/sessions/steering-inbox.js';
import { WebhookClaims } from '../src/pagerduty/webhook-claims.js';
import { IncidentThreadStore } from '../src/pagerduty/incident-thread-store.js';
import { TriageRecordStore } from '../src/triage/triage-record.js';
import { PausedRunStore } from '../src/questions/paused-run-store.js';
import type { Metrics } from '../src/metrics/metrics.js';
import type { ScheduleBook } from '../src/schedules/schedule-queue.js';

/** What every handler needs; handlers are plain functions of (input, deps) so tests need no App. */
export interface HandlerDeps {
  config: Config;
  queues: Queues;
  redis: RedisClient;
  sessions: ThreadSessionStore;
  redact: Redactor;
  logger: Logger;
  /**
   * Reads an instruction with the fast model (with a view of the repository when its mirror is cached), the rules
   * deciding when it cannot; absent: the rules alone.
   */
  readInstruction?: (text: string, history: string[], repo?: RepoRef) => Promise<ReadingOutcome>;
  /**
   * The one candidate (of a channel with several repositories) whose tree at its base branch's head holds a path or
   * symbol of the instruction the others do not (src/repository/pick-by-tree.ts); absent: names alone pick.
   */
  pickRepository?: (text: string, candidates: RepoRef[]) => Promise<RepoRef | undefined>;
  /** Display names for mentions in people's messages (cached). */
  names: SlackNames;
  /** Run records and their signed links (App Home). Absent in tests that do not need them. */
  runLog?: RunLogStore;
  runLinks?: RunLinks;
  /** Where replies to a thread wait until Slack takes them (shared with the runners). */
  outbox: ThreadOutbox;
  /** Where the time to acknowledge a mention is measured; absent in tests that do not need it. */
  metrics?: Metrics;
  /** Recurring work: schedule records and their BullMQ job schedulers. Absent: schedules are not offered. */
  schedules?: ScheduleBook;
  /** Redis-backed collaborators, made once by `createHandlerDeps`. */
  stores: HandlerStores;
  /** The poster of a Slack client (the event's), made once per client. */
  posterFor: (client: WebClient) => ThreadPoster;
}

export interface HandlerStores {
  /** Claims a Slack event id once across web processes; false for a redelivery. */
  claimSlackEvent: (eventId: string) => Promise<boolean>;
  /** Mentions stored before their acknowledgement, claimed while handled, resumed when their process died. */
  intake: MentionIntake;
  /** Mentions kept on the local disk before their acknowledgement (the web process's); absent in tests that do not need it. */
  journal?: IntakeJournal;
  cancellation: Cancellation;
  webhookClaims: WebhookClaims;
  incidentThreads: IncidentThreadStore;
  triageRecords: TriageRecordStore;
  pausedRuns: PausedRunStore;
  steering: SteeringInbox;
}

/**
 * The handlers' deps with their stores and posters built once, at start (or once per test); `shared` are the stores the
 * runners use too, built once by the service.
 */
export function createHandlerDeps(
  core: Omit<HandlerDeps, 'stores' | 'posterFor'>,
  shared: Partial<Pick<HandlerStores, 'pausedRuns' | 'steering' | 'journal'>> = {},
): HandlerDeps {
  const { redis } = core;
  const prefix = core.config.env.WRENCH_QUEUE_PREFIX;
  const posters = new WeakMap<WebClient, ThreadPoster>();
  return {
    ...core,
    stores: {
      claimSlackEvent: (eventId) => claimEvent(redis, prefix, eventId),
      intake: new MentionIntake(redis, prefix, { claimSeconds: core.config.env.WRENCH_MENTION_CLAIM_SECONDS }),
      journal: shared.journal,
      cancellation: new Cancellation(redis, prefix),
      webhookClaims: new WebhookClaims(redis, prefix),
      incidentThreads: new IncidentThreadStore(redis, prefix),
      triageRecords: new TriageRecordStore(redis, prefix),
      pausedRuns: shared.pausedRuns ?? new PausedRunStore(redis, prefix),
      steering: shared.steering ?? new SteeringInbox(redis, prefix),
    },
    posterFor: (client) => {
      let poster = posters.get(client);
      if (!poster) posters.set(client, (poster = new ThreadPoster(client, core.redact)));
      return poster;
    },
  };
}

/** An instruction on its way to a run: from a mention, a thread answer, the modal or "Start anyway". */
export interface InstructionInput {
  client: WebClient;
  channel: string;
  threadTs: string;
  messageTs: string;
  teamId?: string;
  /** Makes the job id: a Slack event id, a view id... so a redelivery never makes a second job. */
  dedupKey: string;
  user: string;
  text: string;
  /** The repository for new work; follow-ups use the session's. */
  repo?: RepoRef;
  /** "Start anyway": skip the instruction check. */
  force?: boolean;
  /** Overrides the category read from the text (e.g. "Open fix PR" on a triage is always bug-fixing). */
  category?: Category;
  /** The thread's language when the text is not the person's own words (a triage's fix instruction): the triage's. */
  language?: string;
  /** A new request from a mention: a schedule the model reader recognises in it is proposed (handlers/schedule-requests.ts). */
  mayBeSchedule?: boolean;
}

/** `proposed`/`refused`: the model reader read recurring work; its card (or why not) was posted instead of a run. */
export type AcceptOutcome = 'queued' | 'clarifying' | 'declined' | 'failed' | 'proposed' | 'refused';

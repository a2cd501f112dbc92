import { createHash, randomUUID } from 'node:crypto';
import { redisKeys } from '../redis/redis-keys.js';
import type { AnyChunk, KnownBlock } from '@slack/types';
import { ErrorCode, WebClient } from '@slack/web-api';
import type { Result } from 'ioredis';
import type { RedisClient } from '../redis/redis-connection.js';
import type { Logger } from '../logging/logger.js';
import { AgentSurfaces, isChannelRefusal, isRefusal } from './agent-surfaces.js';
import type { Redactor } from '../security/redact.js';
import { truncate } from './slack-escape.js';
import type { ThreadMessage } from './thread-poster.js';
import type { JobClaim } from '../queue/job-claim.js';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    outboxPush(
      queue: string,
      due: string,
      once: string,
      fenceKey: string,
      thread: string,
      item: string,
      now: number,
      coalesceKey: string,
      onceKey: string,
      fenceToken: string,
    ): Result<number, Context>;
    outboxPop(queue: string, head: string): Result<number, Context>;
    outboxQuarantine(queue: string, quarantine: string, count: string, head: string, record: string): Result<number, Context>;
    outboxSettle(queue: string, due: string, thread: string): Result<number, Context>;
  }
}

export interface ThreadRef {
  channel: string;
  /** '' for the channel itself: its outbox posts top-level messages (e.g. an incident's card). */
  threadTs: string;
}

export interface OutboxFile {
  filename: string;
  title?: string;
  /** An image's description for screen readers. */
  altText?: string;
  /** The file's bytes, base64 (already redacted when it is text). */
  base64: string;
}

/**
 * One Slack call waiting in a thread's outbox; texts are redacted before they are stored. `settles`: the job id of the
 * run whose last word this is: once it is delivered the run watchdog (src/slack/run-watchdog.ts) forgets the run.
 * `unless`: a Redis key whose existence, when the post comes to be delivered, makes it moot (it is dropped unsent).
 * `ifPosted`: an edit of a message that was never posted is dropped, not posted instead.
 */
type OutboxItem = { id: string; at: number; attempts: number; settles?: string } & (
  | { op: 'post'; message: ThreadMessage; key?: string; once?: boolean; unless?: string }
  | { op: 'update'; message: ThreadMessage; key: string; ifPosted?: boolean }
  | { op: 'react'; ts: string; name: string; remove?: boolean }
  | { op: 'upload'; files: OutboxFile[]; comment?: string }
  | { op: 'status'; team: string; status: string; loadingMessages?: string[]; key: typeof STATUS_KEY }
  | ({ op: 'stream' } & StreamStep)
);

/**
 * One step of a streamed message (`chat.startStream` / `appendStream` / `stopStream`) under `key`, with `fallback`: the
 * whole message as it should read at that point, posted or edited instead wherever Slack does not stream.
 */
export interface StreamStep {
  step: 'start' | 'append' | 'stop';
  key: string;
  team: string;
  /** Who the stream is for (required by Slack outside direct messages). */
  recipient?: { user: string; team: string };
  chunks: AnyChunk[];
  fallback: ThreadMessage;
  /** The same message in Slack's own blocks (a plan of task cards), edited into a stream Slack ended instead of `fallback`. */
  ended?: ThreadMessage;
  /**
   * A start that continues a message an earlier job of the same run began (the run resumed after its question, or
   * restarted): whatever state that message is in, it is shown whole from now on. A stream cannot drop the tasks it
   * showed, so one still going is stopped, and the message is edited (`chat.update`) into `ended` (else `fallback`)
   * by this step and every later one.
   */
  takeOver?: boolean;
  /**
   * The last step's plain, short form (the outcome and the pull request's link): when Slack refuses the step as written
   * (`invalid_blocks`, `msg_too_long`...), the stream is ended as it stands and this is posted in the thread instead.
   */
  short?: string;
  /** The job id of the run whose last word this step is (see OutboxItem). */
  settles?: string;
  /** Blocks a stop step ends the stream with, below what it streamed (a paused run's buttons that answer its question). */
  closing?: KnownBlock[];
  /**
   * A paused run's stop step: the message as it reads once its question is settled, without the buttons (as `ended`
   * and `fallback` are to the step), which `settleQuestion` edits in with a line saying what settled it; `pauseId`: its question.
   */
  settledForm?: { pauseId: string; ended?: ThreadMessage; fallback: ThreadMessage };
}

/** Slack's answers that a stream is over (stopped by the person, expired, deleted): what is left is posted normally. */
const STREAM_ENDED = new Set(['message_not_in_streaming_state', 'stopped_by_user', 'message_not_found', 'message_not_owned_by_app']);
/** Answers meaning this conversation or person cannot get a stream (while the workspace can): the card is used here. */
const STREAM_UNAVAILABLE_HERE = new Set([
  'missing_recipient_user_id',
  'missing_recipient_team_id',
  'user_not_found',
  'team_not_found',
  'messages_tab_disabled',
]);

/** Every status item carries this key, so a newer status waiting behind the last one replaces it. */
const STATUS_KEY = '~status';
type NewItem = DistributiveOmit<OutboxItem, 'id' | 'at' | 'attempts'>;
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

export interface UndeliverableMessage {
  channel: string;
  threadTs: string;
  op: OutboxItem['op'];
  text?: string;
  error: string;
  attempts: number;
  queuedAt: string;
  givenUpAt: string;
}

/** An item the outbox could not read or keep track of (its bookkeeping in Redis kept failing): set aside, kept for people. */
export interface QuarantinedMessage {
  channel: string;
  threadTs: string;
  op?: string;
  text?: string;
  /** The stored item as it was (cut at 2,000 characters). */
  stored: string;
  /** Whether Slack had taken it before its bookkeeping failed (so it may show in the thread). */
  delivered: boolean;
  error: string;
  failures: number;
  quarantinedAt: string;
}

export interface ThreadOutboxOptions {
  /** First retry delay; doubles per attempt up to `maxDelayMs`. Default 1 s. */
  baseDelayMs?: number;
  /** Default 60 s. */
  maxDelayMs?: number;
  /** A message not delivered this long after it was queued is given up on. Default 24 h. */
  deadlineMs?: number;
  /** How often every process looks for threads whose retry is due. Default 1 s. */
  pollMs?: number;
  /** The time (tests). */
  now?: () => number;
  /** Told of every message given up on (metrics). */
  onUndeliverable?: (message: UndeliverableMessage) => void;
  /** Told of every failed attempt that will be retried (metrics). */
  onRetry?: () => void;
  /** An item whose bookkeeping (reading it, removing it once delivered) fails this many times is quarantined. Default 3. */
  maxBookkeepingFailures?: number;
  /** Told of every item set aside (metrics). */
  onQuarantine?: (message: QuarantinedMessage) => void;
}

/*
 * Appends an item; an update of the same message as the last waiting item replaces it (the newest state wins), and so
 * does a status after a status.
 * A post queued once under a key (ARGV[5]) is not queued again: returns -1.
 * Fenced (ARGV[6], a job attempt's lock token): queued only while the job's BullMQ lock (KEYS[4]) holds it, else -2.
 */
const PUSH = `
if ARGV[6] ~= '' and redis.call('GET', KEYS[4]) ~= ARGV[6] then return -2 end
if ARGV[5] ~= '' then
  if redis.call('HSETNX', KEYS[3], ARGV[5], 'queued') == 0 then return -1 end
  redis.call('EXPIRE', KEYS[3], 2592000)
end
local len = redis.call('LLEN', KEYS[1])
if ARGV[4] ~= '' and len >= 2 then
  local readable, last = pcall(cjson.decode, redis.call('LINDEX', KEYS[1], -1))
  if readable and type(last) == 'table' and (last.op == 'update' or last.op == 'status') and last.key == ARGV[4] then
    redis.call('LSET', KEYS[1], -1, ARGV[2])
    return 0
  end
end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], 'NX', ARGV[3], ARGV[1])
return 1
`;
/* Removes the head if it is still the item read (compared as stored: nothing is decoded, so no content can fail it). */
const POP = `
if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then redis.call('LPOP', KEYS[1]) return 1 end
return 0
`;
/* Moves the head, if it is still the item read, to the quarantine list (the newest 100 kept) and counts it. */
const QUARANTINE = `
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then return 0 end
redis.call('LPOP', KEYS[1])
redis.call('LPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], 0, 99)
redis.call('INCR', KEYS[3])
return 1
`;
/* A thread with nothing left leaves the schedule; returns how many items remain. */
const SETTLE = `
local len = redis.call('LLEN', KEYS[1])
if len == 0 then redis.call('ZREM', KEYS[2], ARGV[1]) end
return len
`;

/** Slack's answers that no retry can change: the message itself is wrong, or gone. */
const PERMANENT = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_too_long',
  'msg_blocks_too_long',
  'no_text',
  'invalid_arguments',
  'message_not_found',
  'cant_update_message',
  'edit_window_closed',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'missing_scope',
  'invalid_chunks',
  'streaming_mode_mismatch',
]);

/** Slack's answers that refuse a message as it is written (its blocks, chunks or length): its short form may still go. */
const REFUSED_AS_WRITTEN = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_too_long',
  'msg_blocks_too_long',
  'msg_blocks_too_many',
  'invalid_chunks',
  'no_text',
]);

/**
 * One outbox per Slack thread, in Redis: every message a run sends is stored first and delivered in order
 * by whichever process gets to it. A message Slack refuses for now (429 with Retry-After, 5xx, `ratelimited`,
 * a channel it cannot see yet) is retried with backoff, holding back only the messages after it in the same
 * thread, until it is delivered or `deadlineMs` passes; then it is logged and listed as undeliverable
 * (`wrench doctor`). Messages that are updated later (the status card) are posted under a key; the outbox
 * remembers the ts Slack gave them and edits that message in place. An item whose own bookkeeping fails (it cannot
 * be read, or removed once delivered) `maxBookkeepingFailures` times is quarantined (kept in Redis, listed by
 * `wrench doctor`, counted in metrics), so one bad item cannot hold its thread or channel up for good.
 */
export class ThreadOutbox {
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly deadlineMs: number;
  private readonly pollMs: number;
  private readonly now: () => number;
  private readonly onUndeliverable?: (message: UndeliverableMessage) => void;
  private readonly onRetry?: () => void;
  private readonly maxBookkeepingFailures: number;
  private readonly onQuarantine?: (message: QuarantinedMessage) => void;
  private readonly draining = new Map<string, Promise<void>>();
  private readonly surfaces: AgentSurfaces;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Set on a view made by `fencedBy`: the job attempt whose messages these are. */
  private claim: JobClaim | undefined;

  /** `client` must surface failures at once (no retries of its own, rate-limited calls rejected): see `outboxSlackClient`. */
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly client: WebClient,
    private readonly redact: Redactor,
    private readonly log: Logger,
    options: ThreadOutboxOptions = {},
  ) {
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 60_000;
    this.deadlineMs = options.deadlineMs ?? 24 * 3600_000;
    this.pollMs = options.pollMs ?? 1000;
    this.now = options.now ?? Date.now;
    this.onUndeliverable = options.onUndeliverable;
    this.onRetry = options.onRetry;
    this.maxBookkeepingFailures = options.maxBookkeepingFailures ?? 3;
    this.onQuarantine = options.onQuarantine;
    this.surfaces = new AgentSurfaces(redis, prefix);
    redis.defineCommand('outboxPush', { numberOfKeys: 4, lua: PUSH });
    redis.defineCommand('outboxPop', { numberOfKeys: 1, lua: POP });
    redis.defineCommand('outboxQuarantine', { numberOfKeys: 3, lua: QUARANTINE });
    redis.defineCommand('outboxSettle', { numberOfKeys: 2, lua: SETTLE });
  }

  /**
   * This outbox for one attempt of a job: each of its messages is queued only while the attempt still holds the job,
   * checked in the script that queues it (the job's lock key shares the queue prefix, so one Redis Cluster slot). A
   * message refused so throws `LostClaimError`: an attempt that lost its job to another says nothing more. The view
   * shares everything else with this outbox (delivery, bookkeeping); start and stop the outbox itself, not a view.
   */
  fencedBy(claim: JobClaim): ThreadOutbox {
    const view = Object.create(this) as ThreadOutbox;
    view.claim = claim;
    return view;
  }

  /** Queues a reply; `key` names it for later `update`s (e.g. `status:<jobId>`). */
  post(thread: ThreadRef, message: ThreadMessage, key?: string): Promise<void> {
    return this.push(thread, { op: 'post', message: this.redacted(message), key });
  }

  /**
   * Queues a message under `key` unless one was ever queued under it (a retried job posts it once), then waits
   * for this process's first delivery attempt. `keyState` tells whether it got through. `unless`: a Redis key that,
   * once it exists, makes the message moot: if it exists when the message's turn comes, the message is not sent.
   */
  async postOnce(thread: ThreadRef, message: ThreadMessage, key: string, options: { unless?: string } = {}): Promise<void> {
    await this.push(thread, { op: 'post', message: this.redacted(message), key, once: true, ...(options.unless ? { unless: options.unless } : {}) });
    if (!this.stopped) await this.drain(threadMember(thread));
  }

  /** A message posted with `postOnce`: delivered (its ts), still waiting, or given up on (or never queued). */
  async keyState(thread: ThreadRef, key: string): Promise<{ ts: string } | 'waiting' | 'given-up' | 'unknown'> {
    const [ts, once] = await Promise.all([this.tsOf(thread, key), this.redis.hget(this.onceKey(thread), key)]);
    if (ts) return { ts };
    return once === 'queued' ? 'waiting' : once === 'given-up' ? 'given-up' : 'unknown';
  }

  /** Edits the message posted under `key`; posts it when that message never got through. `settles`: see OutboxItem. */
  update(thread: ThreadRef, key: string, message: ThreadMessage, settles?: string): Promise<void> {
    return this.push(thread, { op: 'update', message: this.redacted(message), key, ...(settles ? { settles } : {}) });
  }

  /** Edits the message posted under `key` if it ever got through (in order with the thread's messages); nothing otherwise. */
  updateIfPosted(thread: ThreadRef, key: string, message: ThreadMessage): Promise<void> {
    return this.push(thread, { op: 'update', message: this.redacted(message), key, ifPosted: true });
  }

  react(thread: ThreadRef, ts: string, name: string): Promise<void> {
    return this.push(thread, { op: 'react', ts, name });
  }

  /** Takes a reaction of Wrench's away (the :eyes: once a request is done or refused). */
  unreact(thread: ThreadRef, ts: string, name: string): Promise<void> {
    return this.push(thread, { op: 'react', ts, name, remove: true });
  }

  /**
   * Shows `status` under the thread (Slack's "is working…" line, `assistant.threads.setStatus`), in order with the
   * thread's messages; '' clears it (so does Wrench's next message, on Slack's side). A status is a passing courtesy:
   * one Slack refuses is skipped, never retried (Slack drops a status after two minutes anyway, and the next status or
   * message replaces it), so it never holds the thread's messages back. A workspace that refuses the method for good
   * (`not_allowed`, `missing_scope`, ...) is remembered, and its statuses are not tried again for a day.
   */
  status(thread: ThreadRef & { team: string }, status: string, loadingMessages?: string[]): Promise<void> {
    if (!thread.threadTs) return Promise.resolve();
    const ref = { channel: thread.channel, threadTs: thread.threadTs };
    const text = truncate(this.redact(status), 100);
    const loading = loadingMessages?.slice(0, 10).map((m) => truncate(this.redact(m), 100));
    return this.push(ref, { op: 'status', team: thread.team, status: text, ...(loading ? { loadingMessages: loading } : {}), key: STATUS_KEY });
  }

  /**
   * Queues a step of a streamed message, in order with the thread's other messages and retried through outages like
   * them. Where the workspace refuses streaming (remembered per workspace) or the conversation cannot take it, the
   * step's `fallback` is posted under `key` and edited from then on. A stream Slack ended before its stop is not
   * resumed: one that expired (`message_not_in_streaming_state`) is edited into the step's `ended` blocks (else its
   * `fallback`) and goes on as an ordinary message in the same place; one the person stopped (or that cannot be edited) gets the rest as a new message. A step delivered again after
   * a restart changes nothing: a start whose message exists goes on in it, task updates replace themselves, and the stop
   * (the only step carrying text) is recorded as begun before it is sent, so it is never repeated as a new message.
   */
  async stream(thread: ThreadRef, step: StreamStep): Promise<void> {
    const { settledForm, ...rest } = step;
    if (settledForm) {
      const form = {
        pauseId: settledForm.pauseId,
        team: step.team,
        fallback: this.redacted(settledForm.fallback),
        ...(settledForm.ended ? { ended: this.redacted(settledForm.ended) } : {}),
      };
      const forms = redisKeys(this.prefix).outbox.settledForms(threadMember(thread));
      await this.redis
        .multi()
        .hset(forms, step.key, JSON.stringify(form))
        .expire(forms, 30 * 24 * 3600)
        .exec();
    }
    return this.push(thread, {
      op: 'stream',
      ...rest,
      chunks: this.redact.deep(step.chunks),
      fallback: this.redacted(step.fallback),
      ...(step.ended ? { ended: this.redacted(step.ended) } : {}),
      ...(step.short !== undefined ? { short: this.redact(step.short) } : {}),
      ...(step.closing ? { closing: this.redact.deep(step.closing) } : {}),
    });
  }

  /**
   * A paused run's question was settled: its message (the stream under `key`) is edited at once into its settled form
   * with `line` below (who answered what, say), so its buttons are gone before the resumed run takes it over. Once per
   * pause; false when the message holds no form of question `pauseId` (its stop step not queued yet, another question's
   * form, or settled already): the resumed run then takes the message over as before.
   */
  async settleQuestion(thread: ThreadRef, key: string, pauseId: string, line: string): Promise<boolean> {
    const forms = redisKeys(this.prefix).outbox.settledForms(threadMember(thread));
    const stored = await this.redis.hget(forms, key);
    const form = stored ? (JSON.parse(stored) as { pauseId?: string; team: string; ended?: ThreadMessage; fallback: ThreadMessage }) : undefined;
    if (!form || form.pauseId !== pauseId || (await this.redis.hdel(forms, key)) === 0) return false;
    const withLine = (message: ThreadMessage): ThreadMessage => ({
      text: `${message.text}\n\n${line}`,
      blocks: [...(message.blocks ?? []), { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(line, 2900) }] }],
    });
    // Taken over as a later job's first step would be: a stopped stream is edited from then on, an ordinary message as before.
    await this.stream(thread, {
      step: 'start',
      takeOver: true,
      key,
      team: form.team,
      chunks: [],
      fallback: withLine(form.fallback),
      ...(form.ended ? { ended: withLine(form.ended) } : {}),
    });
    return true;
  }

  get agentSurfaces(): AgentSurfaces {
    return this.surfaces;
  }

  /** Shares files in the thread; text files are redacted, images go as they are. */
  upload(
    thread: ThreadRef,
    files: { filename: string; title?: string; altText?: string; content: Buffer; kind: 'text' | 'image' | string }[],
    comment?: string,
  ): Promise<void> {
    if (files.length === 0) return Promise.resolve();
    const stored = files.map((file) => ({
      filename: this.redact(file.filename),
      title: this.redact(file.title ?? file.filename),
      altText: file.altText ? this.redact(file.altText) : undefined,
      base64: (file.kind === 'text' ? Buffer.from(this.redact(file.content.toString('utf8'))) : file.content).toString('base64'),
    }));
    return this.push(thread, { op: 'upload', files: stored, comment: comment ? this.redact(comment) : undefined });
  }

  /** Remembers the ts of a message posted elsewhere (e.g. by an older version), so `update(key)` edits it. */
  async remember(thread: ThreadRef, key: string, ts: string): Promise<void> {
    await this.redis.hsetnx(this.tsKey(thread), key, ts);
    await this.redis.expire(this.tsKey(thread), 30 * 24 * 3600);
  }

  /** The ts Slack gave the message posted under `key`, once it is delivered. */
  async tsOf(thread: ThreadRef, key: string): Promise<string | undefined> {
    return (await this.redis.hget(this.tsKey(thread), key)) ?? undefined;
  }

  /** How many messages wait in a thread's outbox. */
  waiting(thread: ThreadRef): Promise<number> {
    return this.redis.llen(this.queueKey(thread));
  }

  /** The newest messages given up on, newest first, and how many there have been in all. */
  undeliverable(limit = 20): Promise<{ total: number; recent: UndeliverableMessage[] }> {
    return readUndeliverable(this.redis, this.prefix, limit);
  }

  /** The newest items set aside because their bookkeeping kept failing, newest first, and how many there have been. */
  quarantined(limit = 20): Promise<{ total: number; recent: QuarantinedMessage[] }> {
    return readQuarantined(this.redis, this.prefix, limit);
  }

  /** Delivers whatever is due now and from then on every `pollMs`, including outboxes left by other processes. */
  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      void this.deliverDue()
        .catch((error) => this.log.warn({ err: error }, 'outbox: could not read the due threads'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.pollMs);
        });
    };
    tick();
  }

  /** Stops polling and waits for deliveries under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.all(this.draining.values());
  }

  /** Delivers every thread whose next attempt is due; resolves when those attempts are over. */
  async deliverDue(): Promise<void> {
    const due = await this.redis.zrangebyscore(this.dueKey(), '-inf', this.now(), 'LIMIT', 0, 50);
    await Promise.all(due.map((member) => this.drain(member)));
  }

  private async push(thread: ThreadRef, item: NewItem): Promise<void> {
    const full = { ...item, id: randomUUID(), at: this.now(), attempts: 0 } as OutboxItem;
    const member = threadMember(thread);
    const coalesceKey = item.op === 'update' || item.op === 'status' ? item.key : '';
    const onceKey = item.op === 'post' && item.once && item.key ? item.key : '';
    const queue = this.queueKey(thread);
    const { claim } = this;
    if (claim?.lost) throw claim.lost;
    const fence = claim?.fence;
    const queued = await this.redis.outboxPush(
      queue,
      this.dueKey(),
      this.onceKey(thread),
      fence?.key ?? queue,
      member,
      storedItem(full),
      this.now(),
      coalesceKey,
      onceKey,
      fence?.token ?? '',
    );
    if (queued === -2 && claim) throw claim.lose(`a Slack ${item.op}`);
    if (!this.stopped) void this.drain(member);
  }

  /**
   * One delivery pass per thread per process at a time; a Redis lock keeps other processes out. Asked while a pass runs,
   * another pass follows it: the running one may already have found the queue empty before this caller's item came.
   */
  private drain(member: string): Promise<void> {
    const running = this.draining.get(member);
    if (running) return running.then(() => (this.stopped ? undefined : this.drain(member)));
    const pass = this.deliverThread(member)
      .catch((error) => this.log.warn({ err: error, thread: member }, 'outbox: delivery pass failed'))
      .finally(() => this.draining.delete(member));
    this.draining.set(member, pass);
    return pass;
  }

  private async deliverThread(member: string): Promise<void> {
    const thread = parseMember(member);
    const lock = redisKeys(this.prefix).outbox.lock(member);
    const owner = randomUUID();
    if ((await this.redis.set(lock, owner, 'PX', 60_000, 'NX')) !== 'OK') return;
    const queue = this.queueKey(thread);
    const log = this.log.child({ channel: thread.channel, thread: thread.threadTs });
    try {
      const nextAttempt = await this.redis.zscore(this.dueKey(), member);
      if (nextAttempt !== null && Number(nextAttempt) > this.now()) return;
      for (;;) {
        const head = await this.redis.lindex(queue, 0);
        if (!head) {
          if ((await this.redis.outboxSettle(queue, this.dueKey(), member)) === 0) return;
          continue;
        }
        await this.redis.pexpire(lock, 60_000);
        const trouble = await this.troubleOf(member, head);
        if (trouble.failures >= this.maxBookkeepingFailures) {
          await this.quarantine(thread, head, trouble, log);
          continue;
        }
        let delivered = trouble.delivered;
        try {
          const item = readItem(head);
          if (!delivered) {
            const failure = await this.attempt(thread, item).then(
              () => undefined,
              (error: unknown) => error,
            );
            if (failure !== undefined) {
              if ((await this.settleFailure(thread, member, head, item, failure, log)) === 'retry-later') return;
              continue;
            }
            delivered = true;
          }
          await this.redis.outboxPop(queue, head);
          if (trouble.failures > 0) await this.redis.hdel(this.troubleKey(), trouble.field);
          if (item.settles) {
            const watch = redisKeys(this.prefix).runWatch;
            await this.redis.multi().zrem(watch.due, item.settles).hdel(watch.runs, item.settles).exec();
          }
        } catch (error) {
          // The item itself, or Redis keeping track of it, failed (not Slack): try again later, then set it aside.
          const failures = await this.bookkeepingFailed(trouble, delivered, error);
          log.warn({ err: error, failures, delivered }, 'outbox: could not keep track of a message');
          if (failures < this.maxBookkeepingFailures) {
            await this.redis.zadd(this.dueKey(), this.now() + Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (failures - 1)), member);
            return;
          }
        }
      }
    } finally {
      if ((await this.redis.get(lock)) === owner) await this.redis.del(lock);
    }
  }

  /** A Slack call that failed: given up on (and removed) when it is permanent or past the deadline, else retried later. */
  private async settleFailure(
    thread: ThreadRef,
    member: string,
    head: string,
    item: OutboxItem,
    failure: unknown,
    log: Logger,
  ): Promise<'given-up' | 'retry-later'> {
    const reason = slackFailure(failure);
    const attempts = item.attempts + 1;
    if (reason.permanent || this.now() - item.at >= this.deadlineMs) {
      await this.giveUp(thread, item, reason.text, attempts, log);
      await this.redis.outboxPop(this.queueKey(thread), head);
      return 'given-up';
    }
    const delay = reason.retryAfterMs ?? Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** item.attempts);
    await this.redis.lset(this.queueKey(thread), 0, storedItem({ ...item, attempts }));
    await this.redis.zadd(this.dueKey(), this.now() + delay, member);
    log.warn({ op: item.op, error: reason.text, attempts, retryInMs: delay }, 'Slack refused a message; retrying later');
    this.onRetry?.();
    return 'retry-later';
  }

  /** How often the bookkeeping of the thread's head item failed so far, and whether Slack had taken it. */
  private async troubleOf(member: string, head: string): Promise<Trouble> {
    const field = `${member} ${createHash('sha256').update(head).digest('hex')}`;
    const stored = await this.redis.hget(this.troubleKey(), field);
    const parsed = stored ? (JSON.parse(stored) as { failures: number; delivered: boolean; error: string }) : undefined;
    return { member, head, field, failures: parsed?.failures ?? 0, delivered: parsed?.delivered ?? false, error: parsed?.error ?? '' };
  }

  private async bookkeepingFailed(trouble: Trouble, delivered: boolean, error: unknown): Promise<number> {
    const failures = trouble.failures + 1;
    const text = error instanceof Error ? error.message : String(error);
    await this.redis.hset(this.troubleKey(), trouble.field, JSON.stringify({ failures, delivered, error: text }));
    await this.redis.expire(this.troubleKey(), 7 * 24 * 3600);
    Object.assign(trouble, { failures, delivered, error: text });
    return failures;
  }

  private async quarantine(thread: ThreadRef, head: string, trouble: Trouble, log: Logger): Promise<void> {
    const item = tryReadItem(head);
    const record: QuarantinedMessage = {
      ...thread,
      op: typeof item?.op === 'string' ? item.op : undefined,
      text: item && 'message' in item && typeof item.message?.text === 'string' ? truncate(item.message.text, 500) : undefined,
      stored: truncate(head, 2000),
      delivered: trouble.delivered,
      error: trouble.error,
      failures: trouble.failures,
      quarantinedAt: new Date(this.now()).toISOString(),
    };
    const { quarantine, quarantineCount } = redisKeys(this.prefix).outbox;
    await this.redis.outboxQuarantine(this.queueKey(thread), quarantine, quarantineCount, head, JSON.stringify(record));
    await this.redis.hdel(this.troubleKey(), trouble.field);
    log.error(
      { op: record.op, error: record.error, failures: record.failures, delivered: record.delivered },
      'outbox: message quarantined, the thread goes on',
    );
    this.onQuarantine?.(record);
  }

  private async attempt(thread: ThreadRef, item: OutboxItem): Promise<void> {
    switch (item.op) {
      case 'post':
        if (item.unless && (await this.redis.exists(item.unless))) {
          this.log.info({ channel: thread.channel, thread: thread.threadTs, key: item.key }, 'a message made moot before its turn was not sent');
          return;
        }
        return this.sayOrShort(thread, item.message, async (message) => {
          const result = await this.client.chat.postMessage({
            channel: thread.channel,
            thread_ts: thread.threadTs || undefined,
            text: message.text,
            blocks: message.blocks,
            unfurl_links: false,
            unfurl_media: false,
          });
          if (item.key && result.ts) await this.redis.hset(this.tsKey(thread), item.key, result.ts);
          await this.redis.expire(this.tsKey(thread), 30 * 24 * 3600);
        });
      case 'update': {
        const ts = await this.tsOf(thread, item.key);
        if (!ts && item.ifPosted) return;
        if (!ts) return this.attempt(thread, { ...item, op: 'post' });
        return this.sayOrShort(thread, item.message, async (message) => {
          await this.client.chat.update({ channel: thread.channel, ts, text: message.text, blocks: message.blocks ?? [] });
        });
      }
      case 'react':
        try {
          if (item.remove) await this.client.reactions.remove({ channel: thread.channel, timestamp: item.ts, name: item.name });
          else await this.client.reactions.add({ channel: thread.channel, timestamp: item.ts, name: item.name });
        } catch (error) {
          // A reaction is a courtesy: one on a message that is gone, or already there (or not), is done with.
          if (!['already_reacted', 'no_reaction', 'message_not_found'].includes(slackFailure(error).text)) throw error;
        }
        return;
      case 'status':
        return this.setStatus(thread, item);
      case 'stream':
        return this.deliverStream(thread, item);
      case 'upload':
        await this.client.filesUploadV2({
          channel_id: thread.channel,
          thread_ts: thread.threadTs,
          initial_comment: item.comment,
          file_uploads: item.files.map((file) => ({
            file: Buffer.from(file.base64, 'base64'),
            filename: file.filename,
            title: file.title,
            ...(file.altText ? { alt_text: file.altText } : {}),
          })),
        });
    }
  }

  private async setStatus(thread: ThreadRef, item: Extract<OutboxItem, { op: 'status' }>): Promise<void> {
    const method = 'assistant.threads.setStatus';
    if (await this.surfaces.refusal(item.team, method)) return;
    try {
      await this.client.assistant.threads.setStatus({
        channel_id: thread.channel,
        thread_ts: thread.threadTs,
        status: item.status,
        ...(item.loadingMessages ? { loading_messages: item.loadingMessages } : {}),
      });
    } catch (error) {
      const reason = slackFailure(error).text;
      if (isRefusal(reason)) await this.surfaces.rememberRefusal(item.team, method, reason);
      const level = isRefusal(reason) || isChannelRefusal(reason) ? 'info' : 'warn';
      this.log[level]({ channel: thread.channel, thread: thread.threadTs, error: reason }, 'thread status skipped');
    }
  }

  /**
   * A stream's step; its last, when Slack refuses it as written and it has a short form, ends the stream as it stands and
   * posts the short form in the thread (mode `short` until that is done, so a retry neither loses nor repeats it).
   */
  private async deliverStream(thread: ThreadRef, item: Extract<OutboxItem, { op: 'stream' }>): Promise<void> {
    if (item.step !== 'stop' || item.short === undefined) return this.deliverStreamStep(thread, item);
    const modes = redisKeys(this.prefix).outbox.streams(threadMember(thread));
    if ((await this.redis.hget(modes, item.key)) !== 'short') {
      try {
        return await this.deliverStreamStep(thread, item);
      } catch (error) {
        const reason = slackFailure(error).text;
        if (!REFUSED_AS_WRITTEN.has(reason)) throw error;
        this.log.warn(
          { channel: thread.channel, thread: thread.threadTs, error: reason },
          "Slack refused the stream's last step as written: its short form is posted instead",
        );
        await this.redis
          .multi()
          .hset(modes, item.key, 'short')
          .expire(modes, 30 * 24 * 3600)
          .exec();
      }
    }
    const ts = await this.tsOf(thread, item.key);
    if (ts) {
      // Ended as it stands (its plan so far); a stream Slack ended already, or will not stop, is left as it is.
      await this.client.chat.stopStream({ channel: thread.channel, ts }).catch((error: unknown) => {
        const reason = slackFailure(error);
        if (!reason.permanent && !STREAM_ENDED.has(reason.text)) throw error;
      });
    }
    await this.client.chat.postMessage({ channel: thread.channel, thread_ts: thread.threadTs, text: item.short, unfurl_links: false, unfurl_media: false });
    await this.redis
      .multi()
      .hset(modes, item.key, 'stopped')
      .expire(modes, 30 * 24 * 3600)
      .exec();
  }

  private async deliverStreamStep(thread: ThreadRef, item: Extract<OutboxItem, { op: 'stream' }>): Promise<void> {
    const modes = redisKeys(this.prefix).outbox.streams(threadMember(thread));
    const mode = await this.redis.hget(modes, item.key);
    // 'ended': a stream Slack ended, edited into the step's blocks (`ended`) and edited so from then on.
    const setMode = async (next: 'stream' | 'stopping' | 'stopped' | 'message' | 'ended') => {
      await this.redis
        .multi()
        .hset(modes, item.key, next)
        .expire(modes, 30 * 24 * 3600)
        .exec();
    };
    const asMessage = async (fresh = false, message = item.fallback, next: 'message' | 'ended' = 'message') => {
      if (fresh) await this.redis.hdel(this.tsKey(thread), item.key);
      await this.attempt(thread, { id: '', at: 0, attempts: 0, op: 'update', key: item.key, message });
      await setMode(next);
    };
    if (item.step === 'start') {
      if (item.takeOver && mode) return this.takeOverStream(thread, item, mode, setMode);
      // Started already (a start delivered again): its chunks go on in the same message.
      if (mode === 'stream' || mode === 'message' || mode === 'ended') return this.deliverStreamStep(thread, { ...item, step: 'append' });
      if (mode) return;
      if (await this.surfaces.refusal(item.team, 'chat.startStream')) return asMessage();
      try {
        const started = await this.client.chat.startStream({
          channel: thread.channel,
          thread_ts: thread.threadTs,
          task_display_mode: 'plan',
          ...(item.recipient ? { recipient_user_id: item.recipient.user, recipient_team_id: item.recipient.team } : {}),
          ...(item.chunks.length ? { chunks: item.chunks } : {}),
        });
        if (started.ts)
          await this.redis
            .multi()
            .hset(this.tsKey(thread), item.key, started.ts)
            .expire(this.tsKey(thread), 30 * 24 * 3600)
            .exec();
        await setMode('stream');
      } catch (error) {
        const reason = slackFailure(error).text;
        if (isRefusal(reason)) await this.surfaces.rememberRefusal(item.team, 'chat.startStream', reason);
        if (!isRefusal(reason) && !isChannelRefusal(reason) && !STREAM_UNAVAILABLE_HERE.has(reason)) throw error;
        this.log.info({ channel: thread.channel, thread: thread.threadTs, error: reason }, 'no stream here: the card stands in');
        await asMessage();
      }
      return;
    }
    if (mode === 'stopped') return;
    if (mode === 'ended' && item.ended) {
      // Blocks Slack will not take (this step's are too long, say) give way to the plain form, not to a lost step.
      const refused = await asMessage(false, item.ended, 'ended').then(
        () => false,
        (error: unknown) => {
          if (!slackFailure(error).permanent) throw error;
          return true;
        },
      );
      if (refused) await asMessage();
      return;
    }
    if (mode !== 'stream' && mode !== 'stopping') return asMessage();
    const ts = await this.tsOf(thread, item.key);
    if (!ts) return asMessage();
    try {
      if (item.step === 'append') {
        if (item.chunks.length) await this.client.chat.appendStream({ channel: thread.channel, ts, chunks: item.chunks });
        return;
      }
      await setMode('stopping');
      await this.client.chat.stopStream({
        channel: thread.channel,
        ts,
        ...(item.chunks.length ? { chunks: item.chunks } : {}),
        ...(item.closing?.length ? { blocks: item.closing } : {}),
      });
      await setMode('stopped');
    } catch (error) {
      const reason = slackFailure(error).text;
      if (!STREAM_ENDED.has(reason)) throw error;
      // Stopped already by an earlier attempt of this stop (its answer lost): nothing is posted twice.
      if (item.step === 'stop' && mode === 'stopping') return setMode('stopped');
      if (reason === 'message_not_in_streaming_state') {
        // Edited in place: as blocks like the stream's own where Slack takes them, else as the plain fallback.
        if (item.ended && (await this.editEndedStream(thread, ts, item.ended))) return setMode('ended');
        if (await this.editEndedStream(thread, ts, item.fallback)) return setMode('message');
      }
      this.log.info({ channel: thread.channel, thread: thread.threadTs, error: reason }, 'the stream ended early: the rest is posted normally');
      await asMessage(true);
    }
  }

  /**
   * An earlier job's message taken over (see `StreamStep.takeOver`): an ordinary message is edited as before; a stream,
   * going, stopped or ended, is stopped if need be and edited from now on, this step first.
   */
  private async takeOverStream(
    thread: ThreadRef,
    item: Extract<OutboxItem, { op: 'stream' }>,
    mode: string,
    setMode: (next: 'ended') => Promise<void>,
  ): Promise<void> {
    const ts = await this.tsOf(thread, item.key);
    if (mode !== 'message' && ts) {
      if (mode === 'stream' || mode === 'stopping')
        await this.client.chat.stopStream({ channel: thread.channel, ts }).catch((error: unknown) => {
          const reason = slackFailure(error);
          if (!reason.permanent && !STREAM_ENDED.has(reason.text)) throw error;
        });
      await setMode('ended');
    }
    return this.deliverStreamStep(thread, { ...item, step: 'append', takeOver: false });
  }

  /**
   * A stream Slack ended by itself (streams last minutes, a run often longer) goes on as an ordinary message in the same
   * place: edited with `chat.update` (Slack's SDKs name it the way on for an expired stream), so the run keeps one
   * message. False when Slack will not edit it (gone, or not editable): the rest is then posted as a new message.
   */
  private async editEndedStream(thread: ThreadRef, ts: string, message: ThreadMessage): Promise<boolean> {
    try {
      await this.client.chat.update({ channel: thread.channel, ts, text: message.text, blocks: message.blocks ?? [] });
    } catch (error) {
      if (!slackFailure(error).permanent) throw error;
      return false;
    }
    this.log.info({ channel: thread.channel, thread: thread.threadTs }, 'Slack ended the stream: the same message goes on as an ordinary one');
    return true;
  }

  private async giveUp(thread: ThreadRef, item: OutboxItem, error: string, attempts: number, log: Logger): Promise<void> {
    const record: UndeliverableMessage = {
      ...thread,
      op: item.op,
      text: 'message' in item ? truncate(item.message.text, 500) : undefined,
      error,
      attempts,
      queuedAt: new Date(item.at).toISOString(),
      givenUpAt: new Date(this.now()).toISOString(),
    };
    log.error({ op: item.op, error, attempts, queuedAt: record.queuedAt }, 'undeliverable Slack message: given up');
    const { undeliverable, undeliverableCount } = redisKeys(this.prefix).outbox;
    await this.redis.multi().lpush(undeliverable, JSON.stringify(record)).ltrim(undeliverable, 0, 99).incr(undeliverableCount).exec();
    if (item.op === 'post' && item.once && item.key) await this.redis.hset(this.onceKey(thread), item.key, 'given-up');
    this.onUndeliverable?.(record);
  }

  private redacted(message: ThreadMessage): ThreadMessage {
    return {
      text: this.redact(message.text),
      blocks: message.blocks ? this.redact.deep(message.blocks) : undefined,
      ...(message.short !== undefined ? { short: this.redact(message.short) } : {}),
    };
  }

  /**
   * Sends `message`; when Slack refuses it as written and it has a short form, sends that instead (plain text, no
   * blocks), so a final reply Slack will not take in full still says the outcome and the link.
   */
  private async sayOrShort(thread: ThreadRef, message: ThreadMessage, send: (message: ThreadMessage) => Promise<void>): Promise<void> {
    try {
      await send(message);
    } catch (error) {
      const reason = slackFailure(error).text;
      if (message.short === undefined || !REFUSED_AS_WRITTEN.has(reason)) throw error;
      this.log.warn({ channel: thread.channel, thread: thread.threadTs, error: reason }, 'Slack refused a message as written: its short form is said instead');
      await send({ text: message.short });
    }
  }

  private queueKey(thread: ThreadRef): string {
    return redisKeys(this.prefix).outbox.queue(threadMember(thread));
  }

  private tsKey(thread: ThreadRef): string {
    return redisKeys(this.prefix).outbox.delivered(threadMember(thread));
  }

  private onceKey(thread: ThreadRef): string {
    return redisKeys(this.prefix).outbox.once(threadMember(thread));
  }

  private dueKey(): string {
    return redisKeys(this.prefix).outbox.due;
  }

  private troubleKey(): string {
    return redisKeys(this.prefix).outbox.trouble;
  }
}

interface Trouble {
  member: string;
  head: string;
  /** Its field in the trouble hash: the thread and a hash of the item as stored. */
  field: string;
  failures: number;
  delivered: boolean;
  error: string;
}

/** An item as stored: JSON whose every string is well-formed (Redis's Lua cjson refuses lone surrogates' escapes). */
function storedItem(item: OutboxItem): string {
  return JSON.stringify(item, (_key, value: unknown) => (typeof value === 'string' ? value.toWellFormed() : value));
}

class UnreadableItemError extends Error {
  override readonly name = 'UnreadableItemError';
}

function readItem(stored: string): OutboxItem {
  let item: unknown;
  try {
    item = JSON.parse(stored);
  } catch (error) {
    throw new UnreadableItemError(`the stored item is not JSON: ${(error as Error).message}`);
  }
  const candidate = item as Partial<OutboxItem> | null;
  if (
    !candidate ||
    typeof candidate !== 'object' ||
    typeof candidate.id !== 'string' ||
    !['post', 'update', 'react', 'upload', 'status', 'stream'].includes(String(candidate.op))
  )
    throw new UnreadableItemError('the stored item is not an outbox item (no id, or an unknown op)');
  return candidate as OutboxItem;
}

function tryReadItem(stored: string): (Partial<OutboxItem> & { message?: { text?: unknown } }) | undefined {
  try {
    const item = JSON.parse(stored) as unknown;
    return item && typeof item === 'object' ? (item as Partial<OutboxItem>) : undefined;
  } catch {
    return undefined;
  }
}

/** The newest messages any outbox under `prefix` gave up on, newest first, and how many there have been in all. */
export async function readUndeliverable(redis: RedisClient, prefix: string, limit = 20): Promise<{ total: number; recent: UndeliverableMessage[] }> {
  const keys = redisKeys(prefix).outbox;
  const [total, recent] = await Promise.all([redis.get(keys.undeliverableCount), redis.lrange(keys.undeliverable, 0, limit - 1)]);
  return { total: Number(total ?? 0), recent: recent.map((line) => JSON.parse(line) as UndeliverableMessage) };
}

/** The newest items any outbox under `prefix` quarantined, newest first, and how many there have been in all. */
export async function readQuarantined(redis: RedisClient, prefix: string, limit = 20): Promise<{ total: number; recent: QuarantinedMessage[] }> {
  const keys = redisKeys(prefix).outbox;
  const [total, recent] = await Promise.all([redis.get(keys.quarantineCount), redis.lrange(keys.quarantine, 0, limit - 1)]);
  return { total: Number(total ?? 0), recent: recent.map((line) => JSON.parse(line) as QuarantinedMessage) };
}

/** A Slack client for the outbox: it answers at once, failures included, and leaves retrying to the outbox. */
export function outboxSlackClient(token: string | undefined, slackApiUrl: string): WebClient {
  return new WebClient(token, { slackApiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true, timeout: 15_000 });
}

const threadMember = (thread: ThreadRef) => `${thread.channel}:${thread.threadTs}`;

function parseMember(member: string): ThreadRef {
  const split = member.indexOf(':');
  return { channel: member.slice(0, split), threadTs: member.slice(split + 1) };
}

/** What Slack said, whether a retry can help, and how long Slack asked us to wait. */
function slackFailure(error: unknown): { text: string; permanent: boolean; retryAfterMs?: number } {
  const e = error as { code?: string; data?: { error?: string }; retryAfter?: number; statusCode?: number; message?: string };
  if (e.code === ErrorCode.RateLimitedError) return { text: 'HTTP 429', permanent: false, retryAfterMs: (e.retryAfter ?? 1) * 1000 };
  if (e.code === ErrorCode.PlatformError) {
    const text = e.data?.error ?? 'unknown_error';
    return { text, permanent: PERMANENT.has(text) };
  }
  if (e.code === ErrorCode.HTTPError) return { text: `HTTP ${e.statusCode}`, permanent: false };
  return { text: e.message ?? String(error), permanent: false };
}

import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { JsonDocumentStore } from '../redis/json-document-store.js';
import type { RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';

export const SCHEDULE_STATES = ['proposed', 'active', 'paused'] as const;

/** A schedule as Wrench keeps it in Redis: paused or not, it stays here; only an active one has a BullMQ job scheduler. */
export const scheduleSchema = z.object({
  /** `1`, `2`… for schedules made in Slack; `config-<hash>` for those of wrench.config.yml. */
  id: z.string().min(1),
  source: z.enum(['slack', 'config']),
  channel: z.string().min(1),
  cron: z.string().min(1),
  timezone: z.string().min(1),
  /** The words that said when ("every Monday at 9:00"), or the cron pattern for a config schedule. */
  when: z.string(),
  instruction: z.string().min(1),
  repo: z.object({ owner: z.string(), name: z.string(), baseBranch: z.string().optional() }),
  /** Who asked for it in Slack; for a config schedule, its owner (when the file names one). */
  creator: z.string().optional(),
  teamId: z.string().optional(),
  language: z.string().default('en'),
  state: z.enum(SCHEDULE_STATES),
  /** Why it is paused, as said in its thread. */
  pausedBecause: z.string().optional(),
  /** The schedule's own thread: where it was asked for (Slack), or its first message (config). */
  threadTs: z.string().optional(),
  /** The confirmation card, edited when it is confirmed or cancelled. */
  cardTs: z.string().optional(),
  /** The latest occurrence that started a run: its job, its thread and when it was due (ms). */
  lastRun: z.object({ jobId: z.string(), threadTs: z.string(), occurrence: z.number(), settled: z.boolean().default(false) }).optional(),
  /** The latest due time an occurrence was handled as (ms): the due times between it and the next one handled were missed. */
  lastDue: z.number().optional(),
  /** Runs that failed in a row; three pause the schedule. */
  failures: z.number().int().min(0).default(0),
  createdAt: z.string(),
});

export type Schedule = z.infer<typeof scheduleSchema>;

/** What happened to one occurrence: claimed once by the process that handles it, kept a week. */
export const occurrenceSchema = z.object({
  /** The message Wrench posted in the channel for its run (a retried occurrence posts no second one). */
  threadTs: z.string().optional(),
  outcome: z.enum(['started', 'skipped', 'paused', 'inactive']).optional(),
  /**
   * Decided by the first attempt at this occurrence's job, kept so a retry decides the same: the due time it runs as
   * (itself when taken on time; the latest one come due by then when it was taken late), how many occurrences no job
   * ran for since the last one handled (those after it, and this one when taken late), and the first of them.
   */
  runsAs: z.object({ due: z.number(), skipped: z.number().int().min(0), first: z.number(), takenAt: z.number() }).optional(),
});
export type Occurrence = z.infer<typeof occurrenceSchema>;

/** Schedules are kept until deleted; ten years stands for "no expiry" in a store that sets one on every write. */
const KEEP_SECONDS = 10 * 365 * 24 * 3600;
const OCCURRENCE_SECONDS = 7 * 24 * 3600;
const RELEASE_TURN = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export class ScheduleStore {
  private readonly documents: JsonDocumentStore<typeof scheduleSchema>;
  private readonly occurrences: JsonDocumentStore<typeof occurrenceSchema>;
  private readonly keys: ReturnType<typeof redisKeys>;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix);
    this.documents = new JsonDocumentStore(redis, scheduleSchema, KEEP_SECONDS);
    this.occurrences = new JsonDocumentStore(redis, occurrenceSchema, OCCURRENCE_SECONDS);
  }

  close(): void {
    this.documents.close();
    this.occurrences.close();
  }

  /** The next number for a schedule made in Slack (`1`, `2`…): what people type in "pause schedule 2". */
  async nextId(): Promise<string> {
    return String(await this.redis.incr(this.keys.scheduleNumbers));
  }

  get(id: string): Promise<Schedule | null> {
    return this.documents.get(this.keys.schedule(id));
  }

  async save(schedule: Schedule): Promise<void> {
    await this.documents.update(this.keys.schedule(schedule.id), () => schedule);
    await this.redis.sadd(this.keys.schedules, schedule.id);
  }

  /** Changes a schedule atomically; `change` returns null to leave it. Null when there is none. */
  update(id: string, change: (current: Schedule) => Schedule | null): Promise<Schedule | null> {
    return this.documents.update(this.keys.schedule(id), (current) => (current ? change(current) : null));
  }

  /**
   * Runs `work` while holding the schedule's turn (a Redis key with a random owner, released only by its owner): an
   * occurrence taken while an earlier one is still being handled on another process waits for it, so it sees the run
   * that one started. Waits up to `waitMs`, then throws, and BullMQ retries the occurrence's job.
   */
  async inTurn<T>(id: string, work: () => Promise<T>, { holdMs = 120_000, waitMs = 60_000 } = {}): Promise<T> {
    const key = this.keys.scheduleTurn(id);
    const owner = randomUUID();
    const until = Date.now() + waitMs;
    while ((await this.redis.set(key, owner, 'PX', holdMs, 'NX')) !== 'OK') {
      if (Date.now() > until) throw new Error(`schedule ${id}: another process kept its turn for over ${Math.round(waitMs / 1000)} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    try {
      return await work();
    } finally {
      await this.redis.eval(RELEASE_TURN, 1, key, owner);
    }
  }

  async remove(id: string): Promise<void> {
    await this.redis.del(this.keys.schedule(id));
    await this.redis.srem(this.keys.schedules, id);
  }

  /** Every schedule, numbered ones first in their order, then config ones by id. */
  async all(): Promise<Schedule[]> {
    const ids = await this.redis.smembers(this.keys.schedules);
    const found = await Promise.all(ids.map((id) => this.get(id)));
    const order = (id: string) => (/^\d+$/.test(id) ? Number(id) : Number.MAX_SAFE_INTEGER);
    return found.filter((s): s is Schedule => !!s).sort((a, b) => order(a.id) - order(b.id) || a.id.localeCompare(b.id));
  }

  /** One occurrence's record, created empty by the first to ask. */
  occurrence(id: string, occurrence: number): Promise<Occurrence | null> {
    return this.occurrences.get(this.keys.scheduleOccurrence(id, occurrence));
  }

  updateOccurrence(id: string, occurrence: number, change: (current: Occurrence) => Occurrence | null): Promise<Occurrence | null> {
    return this.occurrences.update(this.keys.scheduleOccurrence(id, occurrence), (current) => change(current ?? {}));
  }
}

import type { RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';

/** One mention as Slack sent it, stored before Slack is acknowledged and kept until Wrench has handled it. */
export interface IntakeRecord {
  eventId: string;
  /** The signed event body, as received. */
  body: Record<string, unknown>;
  receivedAt: string;
  /** How many times handling it was started and did not finish (a crash, or a failure). */
  attempts: number;
}

export interface MentionIntakeOptions {
  /** How long a process holds a mention it is handling before another may take it over. Default 60 s. */
  claimSeconds?: number;
  /** A mention whose handling was started this often without finishing is dropped (logged). Default 3. */
  maxAttempts?: number;
}

const FINISHED_SECONDS = 24 * 3600;

/**
 * Mentions survive the web process: each signed `app_mention` is written to Redis before Slack gets its 200
 * (one HSETNX), claimed for `claimSeconds` while it is handled, and removed once it is handled (its claim is
 * then kept 24 h, so Slack's retries are duplicates). A process that dies in between leaves the record and
 * a claim that expires: `unfinished` hands such records to whoever resumes them (at start-up, then on a timer).
 */
export class MentionIntake {
  readonly claimSeconds: number;
  readonly maxAttempts: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    options: MentionIntakeOptions = {},
  ) {
    this.claimSeconds = options.claimSeconds ?? 60;
    this.maxAttempts = options.maxAttempts ?? 3;
  }

  /** Stores a signed Events API body when it is a mention; anything else is left alone. */
  async record(rawBody: string): Promise<void> {
    const body = parseMention(rawBody);
    if (!body) return;
    const record: IntakeRecord = { eventId: body.event_id as string, body, receivedAt: new Date().toISOString(), attempts: 0 };
    await this.redis.hsetnx(this.key(), record.eventId, JSON.stringify(record));
  }

  /** Claims a mention for handling: false when another process handles or handled it. */
  async claim(eventId: string): Promise<boolean> {
    return (await this.redis.set(this.claimKey(eventId), 'handling', 'EX', this.claimSeconds, 'NX')) === 'OK';
  }

  /** Handled (answered, queued or refused): Slack's retries are duplicates from now on, and nothing is resumed. */
  async finish(eventId: string): Promise<void> {
    await this.redis.multi().set(this.claimKey(eventId), 'handled', 'EX', FINISHED_SECONDS).hdel(this.key(), eventId).exec();
  }

  /** Handled (answered, queued or refused) within the last day. */
  async isHandled(eventId: string): Promise<boolean> {
    return (await this.redis.get(this.claimKey(eventId))) === 'handled';
  }

  /** Handling failed: the claim goes, so the next sweep tries again (up to `maxAttempts`). */
  async release(eventId: string): Promise<void> {
    await this.redis.del(this.claimKey(eventId));
  }

  /**
   * The mentions nobody finished and nobody is handling now, each claimed for the caller with its attempt
   * counted; those started `maxAttempts` times already are dropped and returned apart.
   */
  async takeUnfinished(): Promise<{ resume: IntakeRecord[]; dropped: IntakeRecord[] }> {
    const stored = await this.redis.hgetall(this.key());
    const resume: IntakeRecord[] = [];
    const dropped: IntakeRecord[] = [];
    for (const [eventId, line] of Object.entries(stored)) {
      const record = parseRecord(line);
      if (!record) {
        await this.redis.hdel(this.key(), eventId);
        continue;
      }
      // A retry of a mention already handled stores it again: its long claim says so.
      if ((await this.redis.get(this.claimKey(eventId))) === 'handled') {
        await this.redis.hdel(this.key(), eventId);
        continue;
      }
      if (!(await this.claim(eventId))) continue;
      if (record.attempts >= this.maxAttempts) {
        await this.finish(eventId);
        dropped.push(record);
        continue;
      }
      const next = { ...record, attempts: record.attempts + 1 };
      await this.redis.hset(this.key(), eventId, JSON.stringify(next));
      resume.push(next);
    }
    return { resume, dropped };
  }

  private key(): string {
    return redisKeys(this.prefix).slackIntake;
  }

  private claimKey(eventId: string): string {
    return redisKeys(this.prefix).slackEvent(eventId);
  }
}

/** The body of a signed Events API `app_mention` (with its event id), else undefined. */
export function parseMention(raw: string): Record<string, unknown> | undefined {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const b = body as { type?: unknown; event_id?: unknown; event?: { type?: unknown } } | null;
  if (b?.type !== 'event_callback' || typeof b.event_id !== 'string' || b.event?.type !== 'app_mention') return undefined;
  return body as Record<string, unknown>;
}

function parseRecord(line: string): IntakeRecord | undefined {
  try {
    const record = JSON.parse(line) as IntakeRecord;
    return typeof record.eventId === 'string' && record.body && typeof record.body === 'object' ? record : undefined;
  } catch {
    return undefined;
  }
}

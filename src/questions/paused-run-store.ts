import type { RedisClient } from '../redis/redis-connection.js';
import { WrenchError } from '../errors.js';
import { redisKeys, type RedisKeys } from '../redis/redis-keys.js';
import { pausedRunSchema, questionSettlementSchema, type PausedRun, type QuestionSettlement } from './paused-run.js';

/**
 * Paused runs in Redis: the conversation under `question:<id>` (kept a little longer than the question's
 * timeout), and how the question was settled under `question:<id>:settled`, written once (SET NX): an answer,
 * the timeout and a cancel race for it, and exactly one wins.
 */
export class PausedRunStore {
  private readonly keys: RedisKeys;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix);
  }

  key(pauseId: string): string {
    return this.keys.pausedRun(pauseId);
  }

  /** The key that exists once the question is settled (a message made moot by the settlement names it). */
  settledKey(pauseId: string): string {
    return this.keys.questionSettled(pauseId);
  }

  async save(run: PausedRun, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.key(run.pauseId), JSON.stringify(pausedRunSchema.parse(run)), 'EX', Math.max(1, Math.ceil(ttlSeconds)));
  }

  async load(pauseId: string): Promise<PausedRun | null> {
    const raw = await this.redis.get(this.key(pauseId));
    if (!raw) return null;
    const parsed = pausedRunSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) throw new WrenchError('paused_run_invalid', `The stored conversation of question ${pauseId} is not readable: ${parsed.error.message}`);
    return parsed.data;
  }

  /** Settles the question unless something settled it first (or it expired); true when this settlement won. */
  async settle(pauseId: string, settlement: QuestionSettlement): Promise<boolean> {
    const ttl = await this.redis.pttl(this.key(pauseId));
    if (ttl <= 0) return false;
    const written = await this.redis.set(this.keys.questionSettled(pauseId), JSON.stringify(questionSettlementSchema.parse(settlement)), 'PX', ttl, 'NX');
    return written === 'OK';
  }

  async settlement(pauseId: string): Promise<QuestionSettlement | null> {
    const raw = await this.redis.get(this.keys.questionSettled(pauseId));
    return raw ? questionSettlementSchema.parse(JSON.parse(raw)) : null;
  }

  async remove(pauseId: string): Promise<void> {
    await this.redis.del(this.key(pauseId), this.keys.questionSettled(pauseId));
  }
}

/** How long the conversation is kept: the timeout and a margin (a tenth of it, at least ten minutes). */
export function pausedRunTtlSeconds(timeoutMs: number): number {
  return Math.ceil(timeoutMs / 1000 + Math.max(600, timeoutMs / 10_000));
}

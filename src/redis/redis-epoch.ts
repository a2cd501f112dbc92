import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logging/logger.js';
import type { RedisClient } from './redis-connection.js';

/** Redis came back without the data Wrench had written there: when it was noticed, and why it is believed. */
export interface DataLoss {
  detectedAt: string;
  reason: string;
}

export interface RedisEpochOptions {
  /** How often the epoch is checked besides each reconnection. @default 30_000 ms */
  checkMs?: number;
  /** How long /healthz says `degraded` after a loss. @default one hour */
  noticeMs?: number;
  /** What else to do once a loss is noticed (tell the threads Wrench can still find). */
  onLoss?: (loss: DataLoss) => Promise<void>;
}

/** How many losses `wrench doctor` can list. */
const LOSSES_KEPT = 20;

/** The Redis keys of the epoch, under the queue prefix. */
export function epochKeys(prefix: string) {
  return { epoch: `${prefix}:epoch`, losses: `${prefix}:epoch:losses` };
}

/** Where a data dir remembers the epoch it last saw for a prefix (a Redis emptied while Wrench was stopped is noticed at start). */
export function epochFile(dataDir: string, prefix: string): string {
  return path.join(dataDir, 'redis-epoch', `${prefix.replace(/[^A-Za-z0-9_-]/g, '_')}.txt`);
}

/**
 * Notices a Redis that lost its data (restarted without persistence, flushed, failed over to an empty replica, or
 * REDIS_URL pointed elsewhere): a random epoch is written under the prefix at start (SET NX) and remembered in memory
 * and in the data dir; it is read again on every reconnection and every `checkMs`. Gone or changed means every queued
 * job, thread session and stored mention went with it: logged at error, listed for `wrench doctor`
 * (`<prefix>:epoch:losses`), /healthz says `degraded` for `noticeMs`, and `onLoss` tells the threads Wrench can still find.
 */
export class RedisEpoch {
  private epoch: string | undefined;
  private loss: DataLoss | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly onReady = () => void this.check();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly dataDir: string,
    private readonly logger: Logger,
    private readonly options: RedisEpochOptions = {},
  ) {}

  /** Checks once (a Redis emptied while Wrench was stopped is noticed here), then on every reconnection and on a timer. */
  async start(): Promise<void> {
    await this.check();
    this.redis.on('ready', this.onReady);
    const tick = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.check().finally(tick), this.options.checkMs ?? 30_000);
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.redis.off('ready', this.onReady);
    await this.checking;
  }

  /** The last loss noticed, while it is recent enough to report. */
  lost(): DataLoss | undefined {
    if (!this.loss) return undefined;
    return Date.now() - Date.parse(this.loss.detectedAt) < (this.options.noticeMs ?? 3_600_000) ? this.loss : undefined;
  }

  /** One check at a time; a failure (Redis away) waits for the next reconnection. */
  check(): Promise<void> {
    this.checking = this.checking.then(() =>
      this.checkOnce().catch((error: unknown) => this.logger.debug({ err: error }, 'could not check the Redis epoch; checked again on reconnection')),
    );
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    const keys = epochKeys(this.prefix);
    const known =
      this.epoch ??
      (await readFile(epochFile(this.dataDir, this.prefix), 'utf8').then(
        (text) => text.trim() || undefined,
        () => undefined,
      ));
    let current = await this.redis.get(keys.epoch);
    let reason: string | undefined;
    if (current === null) {
      await this.redis.set(keys.epoch, randomUUID(), 'NX');
      current = await this.redis.get(keys.epoch);
      if (known)
        reason = `Redis answered without Wrench's epoch key ${keys.epoch} (it was ${known}): it restarted without its data, was flushed, or REDIS_URL now points to another Redis. Queued jobs, thread sessions and stored mentions written before are gone.`;
    } else if (known && current !== known) {
      reason = `Wrench's epoch key ${keys.epoch} changed from ${known} to ${current}: Redis lost its data and another Wrench process noticed it first. Queued jobs, thread sessions and stored mentions written before are gone.`;
    }
    if (current === null) return;
    if (current !== this.epoch) {
      this.epoch = current;
      await this.remember(current);
    }
    if (!reason) return;
    const loss: DataLoss = { detectedAt: new Date().toISOString(), reason };
    this.loss = loss;
    this.logger.error({ epoch: current, previous: known }, `Redis lost its data: ${reason}`);
    await this.redis
      .multi()
      .lpush(keys.losses, JSON.stringify(loss))
      .ltrim(keys.losses, 0, LOSSES_KEPT - 1)
      .exec()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not record the Redis data loss for wrench doctor'));
    await this.options.onLoss?.(loss).catch((error: unknown) => this.logger.error({ err: error }, 'could not tell the threads about the Redis data loss'));
  }

  private async remember(epoch: string): Promise<void> {
    const file = epochFile(this.dataDir, this.prefix);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${epoch}\n`);
    await rename(temporary, file);
  }
}

/** The losses recorded under a prefix, newest first (for `wrench doctor`). */
export async function recordedLosses(redis: RedisClient, prefix: string): Promise<DataLoss[]> {
  const lines = await redis.lrange(epochKeys(prefix).losses, 0, LOSSES_KEPT - 1);
  return lines.flatMap((line) => {
    try {
      const loss = JSON.parse(line) as DataLoss;
      return typeof loss.detectedAt === 'string' && typeof loss.reason === 'string' ? [loss] : [];
    } catch {
      return [];
    }
  });
}

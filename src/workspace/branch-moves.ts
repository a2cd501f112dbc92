import type { RedisClient } from '../redis/redis-connection.js';
import { z } from 'zod';
import { duplicateConnection } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';

/** A branch of a repository that now points at `after` (from a push webhook). */
export const branchMove = z.object({ owner: z.string(), repo: z.string(), branch: z.string(), after: z.string() });
export type BranchMove = z.infer<typeof branchMove>;

/**
 * Branch moves cross processes as pub/sub messages: the web process that received the push webhook announces it, and
 * every worker process (each with its own pooled trees) hears it. A worker that is down misses it and loses nothing:
 * its next job fetches as it would have anyway.
 */
export class BranchMoves {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private get channel() {
    return redisKeys(this.prefix).branchMovedChannel;
  }

  /** How many worker processes heard it. */
  announce(move: BranchMove): Promise<number> {
    return this.redis.publish(this.channel, JSON.stringify(move));
  }

  /** Calls `onMove` for every announcement that parses; returns the unsubscribe function. */
  async subscribe(onMove: (move: BranchMove) => void): Promise<() => Promise<void>> {
    const subscriber = duplicateConnection(this.redis);
    await subscriber.subscribe(this.channel);
    subscriber.on('message', (_channel: string, message: string) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(message);
      } catch {
        return;
      }
      const move = branchMove.safeParse(parsed);
      if (move.success) onMove(move.data);
    });
    return async () => {
      await subscriber.unsubscribe().catch(() => undefined);
      subscriber.disconnect();
    };
  }
}

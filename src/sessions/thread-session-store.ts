import type { RedisClient } from '../redis/redis-connection.js';
import { JsonDocumentStore } from '../redis/json-document-store.js';
import { redisKeys } from '../redis/redis-keys.js';
import { threadSessionSchema, type ThreadSession } from './thread-session.js';

/** WRENCH_THREAD_RETENTION_DAYS' default. */
export const DEFAULT_THREAD_RETENTION_DAYS = 90;

/**
 * Thread sessions in Redis: one JSON document per thread, updated atomically across processes. A session, its pull
 * request's way back to the thread and a closed thread's copy expire `retentionDays` after the thread's last change.
 */
export class ThreadSessionStore {
  private readonly documents: JsonDocumentStore<typeof threadSessionSchema>;
  private readonly ttlSeconds: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    options: { retentionDays?: number } = {},
  ) {
    this.ttlSeconds = Math.ceil((options.retentionDays ?? DEFAULT_THREAD_RETENTION_DAYS) * 24 * 3600);
    this.documents = new JsonDocumentStore(redis, threadSessionSchema, this.ttlSeconds);
  }

  close(): void {
    this.documents.close();
  }

  key(channel: string, threadTs: string): string {
    return redisKeys(this.prefix).threadSession(channel, threadTs);
  }

  get(channel: string, threadTs: string): Promise<ThreadSession | null> {
    return this.documents.get(this.key(channel, threadTs));
  }

  /** `change` gets null when the thread has no session yet and returns the new value (or null to leave it). */
  async update(channel: string, threadTs: string, change: (current: ThreadSession | null) => ThreadSession | null): Promise<ThreadSession | null> {
    const updated = await this.documents.update(this.key(channel, threadTs), (current) => {
      const next = change(current);
      if (next) next.updatedAt = new Date().toISOString();
      return next;
    });
    // A pull request leads back to its thread (GitHub events: review comments, failing checks, merge).
    if (updated?.pullRequest && updated.repo) {
      const key = this.pullRequestKey(updated.repo.owner, updated.repo.name, updated.pullRequest.number);
      await this.redis.set(key, JSON.stringify({ channel, threadTs }), 'EX', this.ttlSeconds);
      if (updated.branch)
        await this.redis.set(
          redisKeys(this.prefix).branchPullRequest(updated.repo.owner, updated.repo.name, updated.branch),
          String(updated.pullRequest.number),
          'EX',
          this.ttlSeconds,
        );
    }
    return updated;
  }

  pullRequestKey(owner: string, repo: string, number: number): string {
    return redisKeys(this.prefix).pullRequestThread(owner, repo, number);
  }

  /** The Slack thread of a pull request Wrench opened, or null for any other pull request. */
  async threadOfPullRequest(owner: string, repo: string, number: number): Promise<{ channel: string; threadTs: string } | null> {
    const raw = await this.redis.get(this.pullRequestKey(owner, repo, number));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { channel: string; threadTs: string };
    return (await this.get(parsed.channel, parsed.threadTs))?.pullRequest?.number === number ? parsed : null;
  }

  /** The number of the pull request Wrench opened from this branch, while its thread goes on. */
  async pullRequestOfBranch(owner: string, repo: string, branch: string): Promise<number | null> {
    const raw = await this.redis.get(redisKeys(this.prefix).branchPullRequest(owner, repo, branch));
    return raw ? Number(raw) : null;
  }

  /**
   * The thread's work is over (its pull request was merged or closed): later messages start new work. With
   * `reopenable` (closed without merging) the session is kept aside, so a reopened pull request resumes it.
   */
  async end(channel: string, threadTs: string, options: { reopenable?: boolean } = {}): Promise<void> {
    const session = await this.get(channel, threadTs);
    const keys = redisKeys(this.prefix);
    const live = [this.key(channel, threadTs)];
    const repo = session?.repo;
    if (session?.pullRequest && repo) live.push(this.pullRequestKey(repo.owner, repo.name, session.pullRequest.number));
    if (session?.pullRequest && repo && session.branch) live.push(keys.branchPullRequest(repo.owner, repo.name, session.branch));
    const transaction = this.redis.multi();
    if (options.reopenable && session?.pullRequest && session.repo) {
      const { owner, name } = session.repo;
      transaction.set(keys.closedThreadSession(channel, threadTs), JSON.stringify(session), 'EX', this.ttlSeconds);
      transaction.set(keys.closedPullRequestThread(owner, name, session.pullRequest.number), JSON.stringify({ channel, threadTs }), 'EX', this.ttlSeconds);
    }
    await transaction.del(...live).exec();
  }

  /** The Slack thread of a pull request Wrench opened that was closed without merging, or null. */
  async threadOfClosedPullRequest(owner: string, repo: string, number: number): Promise<{ channel: string; threadTs: string } | null> {
    const raw = await this.redis.get(redisKeys(this.prefix).closedPullRequestThread(owner, repo, number));
    return raw ? (JSON.parse(raw) as { channel: string; threadTs: string }) : null;
  }

  /**
   * A closed pull request was reopened: its thread's session comes back as it was (its branch and pull request),
   * unless the thread started other work since ('busy'). Null when nothing was kept (merged, expired, never Wrench's).
   */
  async reopen(owner: string, repo: string, number: number): Promise<ThreadSession | 'busy' | null> {
    const keys = redisKeys(this.prefix);
    const thread = await this.threadOfClosedPullRequest(owner, repo, number);
    const raw = thread ? await this.redis.get(keys.closedThreadSession(thread.channel, thread.threadTs)) : null;
    if (!thread || !raw) return null;
    const kept = threadSessionSchema.parse(JSON.parse(raw));
    if (kept.pullRequest?.number !== number) return null;
    let busy = false;
    const restored = await this.update(thread.channel, thread.threadTs, (current) => {
      busy = current !== null;
      return busy ? null : kept;
    });
    if (busy || !restored) return 'busy';
    await this.redis.del(keys.closedThreadSession(thread.channel, thread.threadTs), keys.closedPullRequestThread(owner, repo, number));
    return restored;
  }
}

import type { RedisClient } from '../src/redis/redis-connection.js';
import { type BranchMove, BranchMoves } from '../src/workspace/branch-moves.js';
import { refreshPooledTrees } from './pipeline/open-workspace.js';
import type { RunnerDeps } from './runner-deps.js';

/**
 * Keeps this worker's pooled trees current between jobs: each push to a base branch that the web process announces
 * (handlers/github-webhook.ts) fetches the repository's mirror and its free trees now, so the next job there only
 * switches. One refresh per repository at a time; pushes arriving meanwhile make one more. Returns the stop function,
 * which waits for refreshes under way.
 */
export function refreshTreesOnPush(deps: RunnerDeps, redis: RedisClient, prefix: string): () => Promise<void> {
  const running = new Map<string, Promise<void>>();
  const pending = new Map<string, BranchMove>();
  const refresh = (move: BranchMove) => {
    const repository = `${move.owner}/${move.repo}`.toLowerCase();
    pending.set(repository, move);
    if (running.has(repository)) return;
    const log = deps.logger.child({ component: 'refresh-on-push', repository });
    const run = (async () => {
      for (let next = pending.get(repository); next; next = pending.get(repository)) {
        pending.delete(repository);
        const started = Date.now();
        try {
          const trees = await refreshPooledTrees(next, deps, log);
          log.info({ branch: next.branch, after: next.after, trees, ms: Date.now() - started }, 'pooled working trees brought up to date after a push');
        } catch (error) {
          log.warn({ err: error, branch: next.branch }, 'could not bring the pooled working trees up to date after a push; the next job fetches');
        }
      }
    })().finally(() => running.delete(repository));
    running.set(repository, run);
  };
  // Subscribed in the background: start-up does not wait for one more connection (a TLS handshake, an outage).
  const subscribed = new BranchMoves(redis, prefix).subscribe(refresh).catch((error: unknown) => {
    deps.logger.warn({ err: error }, 'could not listen for pushes; pooled trees are refreshed after each job only');
    return undefined;
  });
  return async () => {
    await (await subscribed)?.();
    await Promise.allSettled(running.values());
  };
}

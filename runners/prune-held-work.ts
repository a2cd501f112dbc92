import type { Logger } from '../src/logging/logger.js';
import { heldWorkDir, pruneHeldWork } from '../src/workspace/hold-refused-work.js';

const DAY_MS = 86_400_000;

/**
 * Bundles of refused pushes (src/workspace/hold-refused-work.ts) kept longer than `retentionDays` are removed when the
 * worker starts and then once a day. Returns what stops it, once the prune under way has finished.
 */
export function pruneHeldWorkDaily(dataDir: string, retentionDays: number, logger: Logger): () => Promise<void> {
  let underWay: Promise<void> = Promise.resolve();
  const prune = () => {
    underWay = pruneHeldWork(heldWorkDir(dataDir), retentionDays * DAY_MS).then(
      (removed) => {
        if (removed.length === 0) return;
        logger.info({ removed: removed.map((bundle) => bundle.id) }, `removed ${removed.length} held bundle(s) kept longer than ${retentionDays} days`);
      },
      (error: unknown) => logger.warn({ err: error }, 'could not prune held bundles'),
    );
  };
  prune();
  const timer = setInterval(prune, DAY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await underWay;
  };
}

import type { Logger } from '../src/logging/logger.js';

/* Work a job leaves to finish after its reply (its tree readied for the next job, a note on GitHub): the job's worker
   slot is free meanwhile, and shutdown waits for it. */

const underWay = new Set<Promise<void>>();

/** Runs `work` after the job; a failure is logged with `what`, never thrown. */
export function afterTheJob(work: Promise<unknown>, log: Logger, what: string): void {
  const settled = work.then(
    () => undefined,
    (error: unknown) => log.warn({ err: error }, what),
  );
  underWay.add(settled);
  void settled.finally(() => underWay.delete(settled));
}

/** Resolves once everything handed to `afterTheJob` in this process has finished. */
export async function backgroundSettled(): Promise<void> {
  while (underWay.size > 0) await Promise.allSettled([...underWay]);
}

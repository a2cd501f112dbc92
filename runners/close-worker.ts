import type { Worker } from 'bullmq';

/**
 * Graceful shutdown of a BullMQ worker: stop taking jobs, let running ones finish for `graceMs`,
 * then cancel them (their work is kept and reported) and wait until they have ended.
 */
export async function closeWorker(worker: Worker, running: Map<string, AbortController>, graceMs: number): Promise<void> {
  const closing = worker.close();
  const timer = setTimeout(() => {
    for (const controller of running.values()) controller.abort(new Error('Wrench is shutting down'));
  }, graceMs);
  await closing;
  clearTimeout(timer);
}

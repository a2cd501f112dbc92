import type { Worker } from 'bullmq';

/** The abort reason of runs stopped because the process is shutting down (not cancelled by a person). */
export class ShutdownSignal extends Error {
  constructor() {
    super('Wrench is shutting down');
    this.name = 'ShutdownSignal';
  }
}

/**
 * Graceful shutdown of a BullMQ worker: stop taking jobs, let running ones finish for `graceMs`,
 * then cancel them (their work is kept and reported) and wait until they have ended.
 */
export async function closeWorker(worker: Worker, running: Map<string, AbortController>, graceMs: number): Promise<void> {
  const closing = worker.close();
  const timer = setTimeout(() => {
    for (const controller of running.values()) controller.abort(new ShutdownSignal());
  }, graceMs);
  await closing;
  clearTimeout(timer);
}

import type { Logger } from '../../src/logging/logger.js';

/**
 * Last-resort handling for errors nothing else caught. A rejected promise nobody awaited is logged
 * and the service keeps serving (one request's failure must not take down the others). An uncaught
 * exception leaves the process in an unknown state: it is logged, the service stops gracefully and
 * the process exits with code 1 so a supervisor restarts it; never silently.
 */
export function installProcessGuards(logger: Logger, stop: () => Promise<unknown>): () => void {
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection; still serving');
  };
  let exiting = false;
  const onException = (error: Error) => {
    logger.fatal({ err: error }, 'uncaught exception; stopping so the service can be restarted');
    if (exiting) return;
    exiting = true;
    const exit = () => {
      logger.flush();
      process.exit(1);
    };
    setTimeout(exit, 10_000).unref();
    stop().then(exit, exit);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}

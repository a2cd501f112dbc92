/** A process with Wrench's process guards that fails in the way argv[2] names (see process-guards.test.ts). */
import { createLogger } from '../../../src/logging/logger.js';
import { installProcessGuards } from '../../../app/service/process-guards.js';

const logger = createLogger({ destination: process.stdout });
installProcessGuards(logger, async () => {
  process.stdout.write('service stopped\n');
});
const server = setInterval(() => {}, 1000);

if (process.argv[2] === 'rejection') {
  void Promise.reject(new Error('a promise nobody awaited'));
  // The next turn of the event loop still runs: the process kept serving.
  setTimeout(() => {
    process.stdout.write('still serving\n');
    clearInterval(server);
  }, 20);
} else {
  setTimeout(() => {
    throw new Error('kaboom');
  }, 0);
}

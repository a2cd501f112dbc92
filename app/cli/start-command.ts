import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/load-config.js';
import { WrenchError } from '../../src/errors.js';
import { installProcessGuards } from '../service/process-guards.js';
import { type RunningService, StoppedWhileStarting, startService } from '../service/start-service.js';
import type { CliIo } from './cli-io.js';

const ROLES = ['all', 'web', 'worker'] as const;

/** `wrench start [--role all|web|worker]`: runs until SIGTERM or SIGINT, then shuts down gracefully (also while starting). */
export async function startCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { role: { type: 'string', default: 'all' } }, strict: true });
  const role = values.role as (typeof ROLES)[number];
  if (!ROLES.includes(role)) throw new WrenchError('bad_role', `--role must be one of ${ROLES.join(', ')}; got "${values.role}".`);
  // Listen before starting: /healthz answers before the workers are up, and a signal in that window must still
  // stop the service: start-up is given up and what it opened is closed (a second signal kills, as Node's default does).
  const signalled = new AbortController();
  process.once('SIGTERM', () => signalled.abort('SIGTERM'));
  process.once('SIGINT', () => signalled.abort('SIGINT'));
  let service: RunningService;
  try {
    service = await startService(loadConfig(), role, signalled.signal);
  } catch (error) {
    if (!(error instanceof StoppedWhileStarting)) throw error;
    io.stderr(`wrench: stopped by ${error.signal} while starting${error.cut.length > 0 ? `; left waiting: ${error.cut.join(', ')}` : ''}.`);
    // Stopping was asked for: a clean exit, unless a step had to be cut short.
    return exitSoon(error.cut.length > 0 ? 1 : 0);
  }
  installProcessGuards(service.logger, service.stop);
  io.stdout(`Wrench started (role ${role}). Press Ctrl-C to stop.`);
  const signal = await new Promise<string>((resolve) => {
    if (signalled.signal.aborted) resolve(String(signalled.signal.reason));
    else signalled.signal.addEventListener('abort', () => resolve(String(signalled.signal.reason)), { once: true });
  });
  service.logger.info({ signal }, 'received signal');
  const { cut } = await service.stop().catch((error: unknown) => {
    service.logger.error({ err: error }, 'shutdown did not finish cleanly');
    return { cut: ['shutdown'] };
  });
  // A step cut short (logged by name) is an unclean exit.
  return exitSoon(cut.length > 0 ? 1 : 0);
}

/** Should a library still hold the event loop open, or a step that was cut a connection, do not hang the deploy. */
function exitSoon(code: number): number {
  setTimeout(() => process.exit(code), 2000).unref();
  return code;
}

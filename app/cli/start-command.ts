import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/load-config.js';
import { WrenchError } from '../../src/errors.js';
import { installProcessGuards } from '../service/process-guards.js';
import { startService } from '../service/start-service.js';
import type { CliIo } from './cli-io.js';

const ROLES = ['all', 'web', 'worker'] as const;

/** `wrench start [--role all|web|worker]`: runs until SIGTERM or SIGINT, then shuts down gracefully. */
export async function startCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { role: { type: 'string', default: 'all' } }, strict: true });
  const role = values.role as (typeof ROLES)[number];
  if (!ROLES.includes(role)) throw new WrenchError('bad_role', `--role must be one of ${ROLES.join(', ')}; got "${values.role}".`);
  // Listen before starting: /healthz answers before the workers are up, and a signal in that window must still
  // stop the service gracefully (a second one kills, as Node's default does).
  const signalled = new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  const service = await startService(loadConfig(), role);
  installProcessGuards(service.logger, service.stop);
  io.stdout(`Wrench started (role ${role}). Press Ctrl-C to stop.`);
  const signal = await signalled;
  service.logger.info({ signal }, 'received signal');
  const { cut } = await service.stop().catch((error: unknown) => {
    service.logger.error({ err: error }, 'shutdown did not finish cleanly');
    return { cut: ['shutdown'] };
  });
  // A step cut short (logged by name) is an unclean exit. Should a library still hold the event loop open, or a cut
  // step a connection, do not hang the deploy.
  const code = cut.length > 0 ? 1 : 0;
  setTimeout(() => process.exit(code), 2000).unref();
  return code;
}

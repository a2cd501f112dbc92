import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load-config.js';
import { WrenchError } from '../errors.js';
import { installProcessGuards } from '../service/process-guards.js';
import { startService } from '../service/start-service.js';
import type { CliIo } from './cli-io.js';

const ROLES = ['all', 'web', 'worker'] as const;

/** `wrench start [--role all|web|worker]`: runs until SIGTERM or SIGINT, then shuts down gracefully. */
export async function startCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { role: { type: 'string', default: 'all' } }, strict: true });
  const role = values.role as (typeof ROLES)[number];
  if (!ROLES.includes(role)) throw new WrenchError('bad_role', `--role must be one of ${ROLES.join(', ')}; got "${values.role}".`);
  const service = await startService(loadConfig(), role);
  installProcessGuards(service.logger, service.stop);
  io.stdout(`Wrench started (role ${role}). Press Ctrl-C to stop.`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      service.logger.info({ signal }, 'received signal');
      service.stop().then(resolve, resolve);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  // Everything is closed; should a library still hold the event loop open, do not hang the deploy.
  setTimeout(() => process.exit(0), 2000).unref();
  return 0;
}

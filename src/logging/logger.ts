import { pino, type Logger } from 'pino';
import type { Redactor } from '../security/redact.js';

export type { Logger };

/** Structured JSON logs; every string that reaches a log line passes through the redactor. */
export function createLogger(options: { level?: string; redact?: Redactor; destination?: NodeJS.WritableStream } = {}): Logger {
  const redact = options.redact;
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'wrench' },
      formatters: redact ? { log: (object) => redact.deep(object) } : {},
      hooks: redact
        ? {
            logMethod(args, method) {
              method.apply(this, args.map((a) => (typeof a === 'string' ? redact(a) : a)) as Parameters<typeof method>);
            },
          }
        : {},
    },
    (options.destination as pino.DestinationStream | undefined) ?? pino.destination({ fd: 2, sync: false }),
  );
}

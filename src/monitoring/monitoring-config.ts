import { z } from 'zod';
import { WrenchError } from '../errors.js';

const stringMap = z.record(z.string(), z.string());
const toolAllowlist = z.array(z.string().min(1)).min(1, { message: 'list the tools the triage agent may call' });

const stdioServer = z.object({ command: z.string().min(1), args: z.array(z.string()).default([]), env: stringMap.default({}), tools: toolAllowlist }).strict();
const httpServer = z.object({ url: z.url({ protocol: /^https?$/ }), headers: stringMap.default({}), tools: toolAllowlist }).strict();

/** One named evidence source under `monitoring:`; values may hold `${VAR}` taken from the environment. */
export const monitoringSourceSchema = z
  .object({
    prometheus: z
      .object({ url: z.url({ protocol: /^https?$/ }), headers: stringMap.default({}), queries: stringMap.default({}) })
      .strict()
      .optional(),
    mcpServers: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/, { message: 'must be letters, digits, - or _' }), z.union([stdioServer, httpServer])).default({}),
  })
  .strict();

export type MonitoringSource = z.infer<typeof monitoringSourceSchema>;

/** Replaces every `${VAR}` in the source's strings with the environment's value; a missing variable is an error. */
export function expandMonitoringSource(name: string, source: MonitoringSource, env: Readonly<Record<string, string | undefined>>): MonitoringSource {
  const expand = (value: unknown, where: string): unknown => {
    if (typeof value === 'string') {
      return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, variable: string) => {
        const found = env[variable];
        if (found === undefined) {
          throw new WrenchError(
            'monitoring_missing_variable',
            `monitoring.${name}${where} uses \${${variable}}, which is not set; set ${variable} in the environment.`,
          );
        }
        return found;
      });
    }
    if (Array.isArray(value)) return value.map((item, index) => expand(item, `${where}[${index}]`));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item, `${where}.${key}`)]));
    }
    return value;
  };
  return expand(source, '') as MonitoringSource;
}

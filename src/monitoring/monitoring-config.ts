import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { WrenchError } from '../errors.js';

const stringMap = z.record(z.string(), z.string());
const PLACEHOLDER = /\$\{(?:file:[^}]+|[A-Za-z_][A-Za-z0-9_]*)\}/;

/** An http(s) URL, or a string holding `${VAR}` / `${file:…}` (checked once substituted, when the source is used). */
const httpUrl = z.string().refine((value) => PLACEHOLDER.test(value) || isHttpUrl(value), { message: 'must be an http(s) URL or hold ${VAR}' });

export function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}
const toolAllowlist = z.array(z.string().min(1)).min(1, { message: 'list the tools the triage agent may call' });

const stdioServer = z.object({ command: z.string().min(1), args: z.array(z.string()).default([]), env: stringMap.default({}), tools: toolAllowlist }).strict();
const httpServer = z.object({ url: httpUrl, headers: stringMap.default({}), tools: toolAllowlist }).strict();

/** One named evidence source under `monitoring:`; values may hold `${VAR}` taken from the environment. */
export const monitoringSourceSchema = z
  .object({
    prometheus: z
      .object({ url: httpUrl, headers: stringMap.default({}), queries: stringMap.default({}) })
      .strict()
      .optional(),
    window: z
      .object({
        minutesBefore: z.number().int().min(5).max(1440).default(60),
        minutesAfter: z.number().int().min(0).max(720).default(30),
        compareWeekEarlier: z.boolean().default(true),
      })
      .strict()
      .optional(),
    mcpServers: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/, { message: 'must be letters, digits, - or _' }), z.union([stdioServer, httpServer])).default({}),
  })
  .strict();

export type MonitoringSource = z.infer<typeof monitoringSourceSchema>;

/**
 * Replaces every `${VAR}` in the source's strings with the environment's value, and every `${file:PATH}` with
 * the file's content (trimmed; for mounted secrets). A missing variable or unreadable file is an error naming it.
 * `onSecret` receives each substituted value, so callers can keep them out of what the agent sees.
 */
export function expandMonitoringSource(
  name: string,
  source: MonitoringSource,
  env: Readonly<Record<string, string | undefined>>,
  onSecret?: (value: string) => void,
): MonitoringSource {
  const expand = (value: unknown, where: string): unknown => {
    if (typeof value === 'string') {
      return value.replace(/\$\{(?:file:([^}]+)|([A-Za-z_][A-Za-z0-9_]*))\}/g, (_match, file: string | undefined, variable: string | undefined) => {
        const found = file ? readSecretFile(name, where, file) : env[variable!];
        if (found === undefined) {
          throw new WrenchError(
            'monitoring_missing_variable',
            `monitoring.${name}${where} uses \${${variable}}, which is not set; set ${variable} in the environment.`,
          );
        }
        onSecret?.(found);
        return found;
      });
    }
    if (Array.isArray(value)) return value.map((item, index) => expand(item, `${where}[${index}]`));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item, `${where}.${key}`)]));
    }
    return value;
  };
  const expanded = expand(source, '') as MonitoringSource;
  const urls: [string, string][] = [];
  if (expanded.prometheus) urls.push(['.prometheus.url', expanded.prometheus.url]);
  for (const [server, config] of Object.entries(expanded.mcpServers)) if ('url' in config) urls.push([`.mcpServers.${server}.url`, config.url]);
  for (const [where, url] of urls) {
    if (!isHttpUrl(url)) {
      throw new WrenchError(
        'monitoring_bad_url',
        `monitoring.${name}${where} is not an http(s) URL once its \${…} are substituted; check the variable's value.`,
      );
    }
  }
  return expanded;
}

function readSecretFile(name: string, where: string, file: string): string {
  try {
    return readFileSync(file.trim(), 'utf8').trim();
  } catch (error) {
    throw new WrenchError(
      'monitoring_missing_file',
      `monitoring.${name}${where} reads \${file:${file}}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); check the path and its permissions.`,
    );
  }
}

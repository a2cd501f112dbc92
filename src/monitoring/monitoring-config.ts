import { readFileSync } from 'node:fs';
import { WrenchError } from '../errors.js';
import { isHttpUrl, type MonitoringSource } from '../config/monitoring-source.js';

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
        const found = file ? readSecretFile(name, where, file) : variable === undefined ? undefined : env[variable];
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

import { readFileSync } from 'node:fs';
import { WrenchError } from '../errors.js';
import { isHttpUrl, type MonitoringSource } from '../config/monitoring-source.js';

/**
 * Replaces every `${VAR}` in the source's strings with the environment's value, and every `${file:PATH}` with
 * the file's content (trimmed; for mounted secrets). A missing variable or unreadable file is an error naming it.
 * `onSecret` receives each value to keep out of what the agent sees: every substituted value, except in a URL, which is
 * an address and not a secret (its graph links are for people and the agent); what a URL carries as credentials (the
 * user and password before `@`, the values of its query) is passed instead, substituted or written in the file.
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
        if (!isUrlField(where)) onSecret?.(found);
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
    for (const part of urlCredentials(url)) onSecret?.(part);
    if (!isHttpUrl(url)) {
      throw new WrenchError(
        'monitoring_bad_url',
        `monitoring.${name}${where} is not an http(s) URL once its \${…} are substituted; check the variable's value.`,
      );
    }
  }
  return expanded;
}

/** `.prometheus.url`, `.mcpServers.<name>.url`: the fields that hold an address. */
function isUrlField(where: string): boolean {
  return where === '.prometheus.url' || /^\.mcpServers\.[^.]+\.url$/.test(where);
}

/** What a URL carries as credentials: its user and password, and its query's values (as written and decoded). */
export function urlCredentials(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL (refused just after): the whole value stays hidden.
    return [url];
  }
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const written = [
    parsed.username,
    parsed.password,
    ...parsed.search
      .replace(/^\?/, '')
      .split('&')
      .map((pair) => pair.slice(pair.indexOf('=') + 1)),
  ];
  const parts = [...written, ...written.map(decode), ...parsed.searchParams.values()];
  return [...new Set(parts.filter(Boolean))];
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

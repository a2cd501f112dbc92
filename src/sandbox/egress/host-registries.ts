import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { EgressAllowEntry } from './egress-policy.js';

export interface HostRegistries {
  /** One entry per registry URL the host is configured with, host and port exactly (a local mirror included). */
  allow: EgressAllowEntry[];
  /** The settings a sandboxed install needs to use the same registries (the sandbox hides the host's HOME and its .npmrc). */
  env: Record<string, string>;
  /** Host files those settings name (npm's `cafile`), to be shown read-only to the commands that get them. */
  files: string[];
  /** The npm registry an install goes to: the configured one, else registry.npmjs.org:443. */
  npm: { host: string; port: number };
}

const NPM_DEFAULT = 'https://registry.npmjs.org/';

/**
 * The package registries the host itself is set up to use, so that an install in the sandbox goes where an install on
 * the host would (a company mirror, a local registry): npm (`npm_config_registry`, the user's, Node's and the system's
 * npmrc, scoped registries included), yarn (`YARN_NPM_REGISTRY_SERVER`), pip (`PIP_INDEX_URL`, `PIP_EXTRA_INDEX_URL`,
 * pip.conf) and Go (`GOPROXY`). Only http(s) URLs count.
 */
export async function hostRegistries(env: NodeJS.ProcessEnv = process.env, home = homedir()): Promise<HostRegistries> {
  const npmrcs = await Promise.all(
    [path.join(home, '.npmrc'), path.join(path.dirname(path.dirname(process.execPath)), 'etc', 'npmrc'), '/etc/npmrc'].map(readOptional),
  );
  const npmRegistry = envValue(env, 'npm_config_registry') ?? npmrcs.map((text) => iniValue(text, 'registry')).find(Boolean);
  // npm's `cafile` (a TLS-intercepting proxy's CA): the sandbox hides the .npmrc that names it, so it is passed on.
  const cafile = envValue(env, 'npm_config_cafile') ?? npmrcs.map((text) => iniValue(text, 'cafile')).find(Boolean);
  const scoped = npmrcs.flatMap((text) => [...text.matchAll(/^\s*@[^:\s]+:registry\s*=\s*(\S+)/gm)].map((match) => match[1]));
  const pipConfs = await Promise.all([path.join(home, '.config', 'pip', 'pip.conf'), path.join(home, '.pip', 'pip.conf'), '/etc/pip.conf'].map(readOptional));
  const pipIndex = envValue(env, 'PIP_INDEX_URL');
  const pipExtra = envValue(env, 'PIP_EXTRA_INDEX_URL');
  const pipFromConf = pipConfs.flatMap((text) => [...pipUrls(text, 'index-url'), ...pipUrls(text, 'extra-index-url')]);
  const goProxy = envValue(env, 'GOPROXY');
  const yarn = envValue(env, 'YARN_NPM_REGISTRY_SERVER');

  const urls = [npmRegistry, ...scoped, yarn, pipIndex, ...(pipExtra?.split(/\s+/) ?? []), ...pipFromConf, ...(goProxy?.split(/[,|]/) ?? [])];
  const allow = uniqueEntries(urls.flatMap((url) => entryOf(url) ?? []));
  const passed: Record<string, string> = {};
  if (npmRegistry && entryOf(npmRegistry) && npmRegistry !== NPM_DEFAULT) passed.npm_config_registry = npmRegistry;
  if (yarn && entryOf(yarn)) passed.YARN_NPM_REGISTRY_SERVER = yarn;
  if (pipIndex && entryOf(pipIndex)) passed.PIP_INDEX_URL = pipIndex;
  if (pipExtra?.split(/\s+/).every((url) => entryOf(url))) passed.PIP_EXTRA_INDEX_URL = pipExtra;
  if (goProxy) passed.GOPROXY = goProxy;
  const files: string[] = [];
  if (cafile && path.isAbsolute(cafile)) {
    passed.npm_config_cafile = cafile;
    files.push(cafile);
  }
  return { allow, env: passed, files, npm: entryOf(npmRegistry) ?? { host: 'registry.npmjs.org', port: 443 } };
}

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name] ?? env[name.toUpperCase()] ?? env[name.toLowerCase()];
  return value?.trim() || undefined;
}

function readOptional(file: string): Promise<string> {
  return readFile(file, 'utf8').catch(() => '');
}

function iniValue(text: string, key: string): string | undefined {
  return new RegExp(`^\\s*${key}\\s*=\\s*(\\S+)`, 'm').exec(text)?.[1];
}

/** pip.conf values may continue on indented lines: `extra-index-url = a\n    b`. */
function pipUrls(text: string, key: string): string[] {
  const value = new RegExp(`^\\s*${key}\\s*[=:]\\s*(.*(?:\\n[ \\t]+.*)*)`, 'm').exec(text)?.[1];
  return value === undefined ? [] : value.split(/\s+/).filter(Boolean);
}

function entryOf(url: string | undefined): { host: string; port: number } | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
    return { host: parsed.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1'), port };
  } catch {
    return undefined;
  }
}

function uniqueEntries(entries: EgressAllowEntry[]): EgressAllowEntry[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = `${entry.host}:${entry.port}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

import { isIP } from 'node:net';

/**
 * What a sandboxed step with network may reach through the egress proxy:
 * - `registries` (the setup step): only the hosts of the allow list;
 * - `public` (the agent's commands under network policy `on`): any host on the public internet.
 * Either way no loopback, private, link-local or metadata address, unless the allow list names it with a port.
 */
export type EgressScope = 'registries' | 'public';

export interface EgressAllowEntry {
  /** Lower-case host name or IP literal; `*.example.com` matches every subdomain of example.com. */
  host: string;
  /**
   * Only this port. An entry with a port is the operator naming one service exactly: it is honoured even when the
   * name resolves to a loopback or private address (a registry mirror on 127.0.0.1:4873). Without a port: 443 and 80,
   * public addresses only.
   */
  port?: number;
}

export interface EgressPolicy {
  scope: EgressScope;
  allow: readonly EgressAllowEntry[];
}

/** The package registries each ecosystem's installs download from: all of them are allowed to every setup step. */
export const DEFAULT_REGISTRIES: Readonly<Record<string, readonly string[]>> = {
  npm: ['registry.npmjs.org', 'registry.yarnpkg.com', 'repo.yarnpkg.com'],
  python: ['pypi.org', 'files.pythonhosted.org'],
  go: ['proxy.golang.org', 'sum.golang.org'],
  rust: ['crates.io', 'index.crates.io', 'static.crates.io'],
  // Git dependencies (npm's github:owner/repo, Go modules without a proxy copy).
  git: ['github.com', 'codeload.github.com'],
};

const NAME_PORTS = [443, 80];
const HOST_PATTERN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

export class EgressAllowEntryError extends Error {
  override name = 'EgressAllowEntryError';
}

/** `registry.example.com`, `*.example.com`, `mirror.internal:4873`, `127.0.0.1:4873` or `[::1]:4873`. */
export function parseAllowEntry(text: string): EgressAllowEntry {
  const trimmed = text.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d+))?$/.exec(trimmed);
  const [host = '', portText] = bracketed ? [bracketed[1], bracketed[2]] : splitPort(trimmed);
  const port = portText === undefined ? undefined : Number(portText);
  const validHost = bracketed ? isIP(host) === 6 : isIP(host) === 4 || HOST_PATTERN.test(host);
  if (!validHost || (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)))
    throw new EgressAllowEntryError(`"${text}" is not a host, *.domain or host:port (for example registry.example.com or 127.0.0.1:4873)`);
  return port === undefined ? { host } : { host, port };
}

function splitPort(text: string): [string, string | undefined] {
  const colon = text.lastIndexOf(':');
  return colon > 0 && text.indexOf(':') === colon ? [text.slice(0, colon), text.slice(colon + 1)] : [text, undefined];
}

/** Every default registry host, as allow entries. */
export function defaultRegistryEntries(): EgressAllowEntry[] {
  return Object.values(DEFAULT_REGISTRIES)
    .flat()
    .map((host) => ({ host }));
}

/** How a destination stands before its name is resolved: named exactly (any address), listed or public (public addresses only), or refused. */
export type EgressMatch = 'named-with-port' | 'public-only' | 'not-allowed';

export function matchDestination(policy: EgressPolicy, host: string, port: number): EgressMatch {
  const name = normaliseHost(host);
  if (policy.allow.some((entry) => entry.port === port && hostMatches(entry.host, name))) return 'named-with-port';
  if (policy.scope === 'public') return 'public-only';
  const listed = policy.allow.some((entry) => entry.port === undefined && NAME_PORTS.includes(port) && hostMatches(entry.host, name));
  return listed ? 'public-only' : 'not-allowed';
}

export function normaliseHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

function hostMatches(pattern: string, host: string): boolean {
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
  return pattern === host;
}

/** The host loopback services the allow list names, as `host:port` (`127.0.0.1:4873`, `localhost:4873`). */
export function loopbackServices(allow: readonly EgressAllowEntry[]): string[] {
  const named = allow.filter((entry) => entry.port !== undefined && (entry.host === 'localhost' || entry.host === '127.0.0.1'));
  const byPort = new Map(named.map((entry) => [entry.port, `${entry.host}:${entry.port}`]));
  return [...byPort.values()];
}

import { maskCredentials } from './mask-credentials.js';
import { GitError, runGit } from './run-git.js';

export interface RemoteRefs {
  /** Branches and tags (not their peeled lines), as sorted `<sha> <refname>` lines. */
  refs: string;
  /** The default branch (HEAD), when the remote has one. */
  head?: string;
}

export interface ListRemoteRefsOptions {
  url: string;
  /** GitHub token, sent as the Basic password (`x-access-token:<token>`), as git sends it. */
  credential?: string;
  /** Default 10 minutes. */
  timeoutMs?: number;
  /** Runs git with the credential in its environment: `git ls-remote` when the listing is not asked in process. */
  git(args: string[]): Promise<string>;
}

/**
 * The remote's branches, tags and default branch, in one round trip. Over http(s) it is asked in process: one Git
 * protocol v2 `ls-refs` request on a kept-alive connection, after one capability advertisement per URL and process
 * (the discovery git's own client makes before every command). `git ls-remote` answers instead, with its own
 * settings, whenever git could reach the URL differently (a proxy variable; an `http.*`, `url.*`, `credential.*` or
 * `core.askpass` setting of git's that applies to the URL), and when the server does not speak protocol v2 or cannot
 * be reached in process (git then gives the authoritative error).
 */
export async function listRemoteRefs(options: ListRemoteRefsOptions): Promise<RemoteRefs> {
  if (/^https?:\/\//i.test(options.url) && !gitReachesDifferently(options.url, await networkConfig())) {
    const listing = await lsRefsOverHttp(options);
    if (listing) return listing;
  }
  const answer = await options.git(['ls-remote', '--symref', '--', options.url, 'HEAD', 'refs/heads/*', 'refs/tags/*']);
  const lines = answer.split('\n').map((line) => line.replace('\t', ' '));
  const head = /^ref: refs\/heads\/(\S+) HEAD$/m.exec(lines.join('\n'))?.[1];
  return { refs: sortedRefs(lines.filter((line) => /^[0-9a-f]+ refs\/(heads|tags)\//.test(line) && !line.endsWith('^{}'))), head };
}

/** `<sha> <refname>` lines (a listing's or the pool's) as a map from each ref's name to its sha. */
export function refsByName(refs: string): Map<string, string> {
  return new Map(
    refs
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(line.indexOf(' ') + 1), line.slice(0, line.indexOf(' '))] as const),
  );
}

/** Sorted by ref name, one `<sha> <refname>` per line, each ending in a newline. */
export function sortedRefs(lines: string[]): string {
  const name = (line: string) => line.slice(line.indexOf(' ') + 1);
  const refs = lines.filter(Boolean).sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  return refs.length ? `${refs.join('\n')}\n` : '';
}

/** Variables (of those `runGit` passes on) that send git through a proxy. */
const PROXY_ENV = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'];

/**
 * `http.*` settings that cannot change where git connects or what it sends. Certificate settings are among them: a
 * server Node's TLS does not trust fails the request in process, and git then asks it with its own settings.
 */
const HARMLESS_HTTP_SETTINGS = new Set([
  'sslverify',
  'sslcainfo',
  'sslcapath',
  'sslbackend',
  'sslversion',
  'sslcipherlist',
  'postbuffer',
  'lowspeedlimit',
  'lowspeedtime',
  'maxrequests',
  'minsessions',
  'version',
]);

let gitNetworkConfig: Promise<string[]> | undefined;

/** git's global and system `http.*`, `url.*`, `credential.*` and `core.askpass` settings, read once per process. */
function networkConfig(): Promise<string[]> {
  gitNetworkConfig ??= runGit(['config', '--get-regexp', '^(http|url|credential)\\.|^core\\.askpass$'], { cwd: '/' }).then(
    (found) => found.split('\n').filter(Boolean),
    (error: unknown) => (error instanceof GitError && error.exitCode === 1 ? [] : ['unreadable']),
  );
  return gitNetworkConfig;
}

/**
 * Whether git could reach `url` differently from a plain request: a proxy variable, or one of git's settings (lines of
 * `git config --get-regexp`) that applies to it.
 */
export function gitReachesDifferently(url: string, settings: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  if (PROXY_ENV.some((name) => env[name])) return true;
  const target = new URL(url);
  const appliesTo = (scope: string) => {
    if (!scope) return true;
    const scoped = URL.canParse(scope) ? new URL(scope) : undefined;
    return !scoped || scoped.hostname.includes('*') || (scoped.protocol === target.protocol && scoped.host === target.host);
  };
  return settings.some((line) => {
    const [key = '', value = ''] = line.split(/ (.*)/s);
    const url = /^url\.(.*)\.insteadof$/.exec(key);
    if (url) return target.href.startsWith(value);
    if (key.startsWith('url.')) return false;
    const setting = /^(http|credential)\.(?:(.*)\.)?([^.]+)$/.exec(key);
    if (!setting) return true;
    const [, section, scope = '', name = ''] = setting;
    return appliesTo(scope) && !(section === 'http' && HARMLESS_HTTP_SETTINGS.has(name));
  });
}

/** URLs whose server advertised protocol v2 with `ls-refs` (true) or did not (false), this process. */
const speaksLsRefs = new Map<string, boolean>();

const USER_AGENT = 'git/2.0 (wrench)';

/** undefined when the server should be asked by git instead. */
async function lsRefsOverHttp(options: ListRemoteRefsOptions): Promise<RemoteRefs | undefined> {
  const { url } = options;
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, 'git-protocol': 'version=2' };
  if (options.credential) headers.authorization = `Basic ${Buffer.from(`x-access-token:${options.credential}`).toString('base64')}`;
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const ask = async (path: string, init: RequestInit): Promise<Buffer | undefined> => {
    let status: number;
    let body: Buffer;
    try {
      const response = await fetch(`${url}/${path}`, {
        ...init,
        headers: { ...headers, ...init.headers },
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      body = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      if (error instanceof DOMException && error.name === 'TimeoutError') {
        throw new GitError(`Listing the branches of ${url} timed out after ${timeoutMs} ms.`, null, '', '', true);
      }
      return undefined;
    }
    if (status === 401 || status === 403 || status === 404 || status >= 500) {
      const said = maskCredentials(body.toString('utf8').trim().slice(0, 300), options.credential ? [options.credential] : []);
      // Git says a 404 is a repository not found, whatever the body: GitHub's for one that is gone or unreadable alike.
      const stderr = status === 404 ? `repository '${url}' not found${said ? `\n${said}` : ''}` : said;
      throw new GitError(`Listing the branches of ${url} failed: HTTP ${status}${said ? `: ${said}` : ''}`, null, '', stderr, false);
    }
    return status === 200 ? body : undefined;
  };

  if (!speaksLsRefs.has(url)) {
    const advertisement = await ask('info/refs?service=git-upload-pack', { method: 'GET' });
    if (!advertisement) return undefined;
    const lines = pktLines(advertisement);
    speaksLsRefs.set(url, !!lines?.includes('version 2') && lines.some((line) => line === 'ls-refs' || line.startsWith('ls-refs=')));
  }
  if (!speaksLsRefs.get(url)) return undefined;

  const request = Buffer.concat([
    pktLine('command=ls-refs\n'),
    Buffer.from('0001'),
    ...['symrefs\n', 'ref-prefix HEAD\n', 'ref-prefix refs/heads/\n', 'ref-prefix refs/tags/\n'].map(pktLine),
    Buffer.from('0000'),
  ]);
  const answer = await ask('git-upload-pack', {
    method: 'POST',
    headers: { 'content-type': 'application/x-git-upload-pack-request', accept: 'application/x-git-upload-pack-result' },
    body: request,
  });
  const lines = answer && pktLines(answer);
  const listing = lines && parseLsRefs(lines, url);
  if (!listing) speaksLsRefs.delete(url);
  return listing;
}

function pktLine(text: string): Buffer {
  const payload = Buffer.from(text);
  return Buffer.concat([Buffer.from((payload.length + 4).toString(16).padStart(4, '0')), payload]);
}

/** The data lines of a pkt-line stream that ends with a flush packet; undefined when it is not one. */
function pktLines(stream: Buffer): string[] | undefined {
  const lines: string[] = [];
  let at = 0;
  let length = -1;
  while (at < stream.length) {
    const size = stream.subarray(at, at + 4).toString('latin1');
    if (!/^[0-9a-f]{4}$/.test(size)) return undefined;
    length = Number.parseInt(size, 16);
    if (length >= 4) {
      if (at + length > stream.length) return undefined;
      lines.push(
        stream
          .subarray(at + 4, at + length)
          .toString('utf8')
          .replace(/\n$/, ''),
      );
    }
    at += Math.max(length, 4);
  }
  return length === 0 ? lines : undefined;
}

/** `<oid> <refname>[ symref-target:<target>]` lines; an `ERR` line is the server's refusal. */
function parseLsRefs(lines: string[], url: string): RemoteRefs | undefined {
  const refs: string[] = [];
  let head: string | undefined;
  for (const line of lines) {
    if (line.startsWith('ERR ')) throw new GitError(`Listing the branches of ${url} failed: ${line.slice(4)}`, null, '', line.slice(4), false);
    const [oid, name, ...attributes] = line.split(' ');
    if (!oid || !name || !/^([0-9a-f]{40}|[0-9a-f]{64}|unborn)$/.test(oid)) return undefined;
    if (name === 'HEAD') {
      head = /^symref-target:refs\/heads\/(.+)$/.exec(attributes.find((a) => a.startsWith('symref-target:')) ?? '')?.[1];
    } else if (oid !== 'unborn' && /^refs\/(heads|tags)\//.test(name)) refs.push(`${oid} ${name}`);
  }
  return { refs: sortedRefs(refs), head };
}

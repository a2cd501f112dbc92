import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { flatHeaders } from '../shared/http.js';
import type { GitHubRequest, GitHubState } from './state.js';

/** `/{owner}/{repo}.git/...` paths of Git's smart HTTP protocol, as github.com serves them. */
const GIT_PATH = /^\/([^/]+)\/([^/]+)\.git\/(info\/refs|git-upload-pack|git-receive-pack)$/;

export interface GitHttpDeps {
  state: GitHubState;
  requests: GitHubRequest[];
  /** The login a token acts as for this repository; undefined when GitHub would refuse it. */
  login(token: string, owner: string, repo: string): string | undefined;
}

/**
 * Git's smart HTTP protocol (v0 and v2) served by the real `git http-backend`: clones and fetches of public
 * repositories need no credentials; private ones and every push need a token in Basic auth, any user name with the
 * token as password (`x-access-token:<token>`), as GitHub takes it. Refusals are GitHub's: 401 with a Basic
 * challenge, 403 for a login given only read or triage access, 404 for an unknown repository. false when the path is not git's.
 */
export async function serveGitHttp(req: IncomingMessage, res: ServerResponse, deps: GitHttpDeps): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://github.invalid');
  const match = GIT_PATH.exec(url.pathname);
  if (!match) return false;
  const [, owner, repo, endpoint] = match as unknown as [string, string, string, string];
  const headers = flatHeaders(req);
  const token = basicToken(headers.authorization);
  const service = endpoint === 'info/refs' ? url.searchParams.get('service') : endpoint;
  const record: GitHubRequest = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body: {},
    token,
    status: 0,
    at: Date.now(),
  };
  deps.requests.push(record);
  const refuse = (status: number, message: string, extra: Record<string, string> = {}) => {
    record.status = status;
    req.resume();
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...extra });
    res.end(`${message}\n`);
    return true;
  };
  const challenge = { 'www-authenticate': 'Basic realm="GitHub"' };
  if (service !== 'git-upload-pack' && service !== 'git-receive-pack') return refuse(403, 'Unsupported service');
  if (!deps.state.repoExists(owner, repo)) return refuse(404, 'Repository not found.');
  const login = token === undefined ? undefined : deps.login(token, owner, repo);
  if (token !== undefined && login === undefined) return refuse(401, 'Invalid username or token.', challenge);
  const pushing = service === 'git-receive-pack';
  if (login === undefined && (pushing || deps.state.settings(owner, repo).private)) return refuse(401, 'Authentication required.', challenge);
  const role = login === undefined ? undefined : deps.state.collaborators.get(`${owner}/${repo}`)?.get(login);
  if (pushing && (role === 'read' || role === 'triage')) {
    return refuse(403, `Permission to ${owner}/${repo}.git denied to ${login}.`);
  }

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GIT_PROJECT_ROOT: deps.state.root,
    GIT_HTTP_EXPORT_ALL: '1',
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: deps.state.root,
    REQUEST_METHOD: record.method,
    PATH_INFO: url.pathname,
    QUERY_STRING: url.search.slice(1),
    CONTENT_TYPE: headers['content-type'] ?? '',
    REMOTE_ADDR: '127.0.0.1',
    ...(login ? { REMOTE_USER: login } : {}),
    ...(headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: headers['content-encoding'] } : {}),
    ...(headers['git-protocol'] ? { GIT_PROTOCOL: headers['git-protocol'] } : {}),
    ...(headers['content-length'] ? { CONTENT_LENGTH: headers['content-length'] } : {}),
  };
  const backend = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  // Protocol v2 names its command first (`command=ls-refs`, `command=fetch`): recorded, so tests see what was asked.
  req.once('data', (chunk: Buffer) => {
    const command = /command=([a-z-]+)/.exec(chunk.subarray(0, 64).toString('latin1'))?.[1];
    if (command) record.body = { command };
  });
  req.pipe(backend.stdin);
  backend.stdin.on('error', () => undefined);
  let stderr = '';
  backend.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  await new Promise<void>((resolve, reject) => {
    let head = Buffer.alloc(0);
    let started = false;
    backend.stdout.on('data', (chunk: Buffer) => {
      if (started) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      started = true;
      const { status, cgiHeaders } = parseCgiHeaders(head.subarray(0, end).toString('latin1'));
      record.status = status;
      res.writeHead(status, cgiHeaders);
      res.write(head.subarray(end + 4));
    });
    backend.on('error', reject);
    backend.on('close', (code) => {
      if (!started) {
        record.status = 500;
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`git http-backend exited with ${code}: ${stderr}`);
      } else res.end();
      resolve();
    });
  });
  return true;
}

/** The token of a Basic `Authorization` header: its password, or its user name when the password is empty or `x-oauth-basic`. */
function basicToken(authorization: string | undefined): string | undefined {
  const encoded = /^basic\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon < 0 ? decoded : decoded.slice(0, colon);
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  return password && password !== 'x-oauth-basic' ? password : user || undefined;
}

function parseCgiHeaders(text: string): { status: number; cgiHeaders: Record<string, string> } {
  let status = 200;
  const cgiHeaders: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'status') status = Number.parseInt(value, 10) || 200;
    else cgiHeaders[name] = value;
  }
  return { status, cgiHeaders };
}

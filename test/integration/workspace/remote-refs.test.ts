import { execFile } from 'node:child_process';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialEnv } from '../../../src/workspace/credential-env.js';
import { updateMirror } from '../../../src/workspace/mirror-cache.js';
import { listRemoteRefs } from '../../../src/workspace/remote-refs.js';
import { runGit } from '../../../src/workspace/run-git.js';
import { type GitHubFake, startGitHubFake } from '../../fakes/github-fake.js';
import { isolateGitConfig, testGit } from './helpers/git-sandbox.js';

isolateGitConfig();

const TOKEN = 'ghp_listinglistinglistinglisting1234';

/** What `git ls-remote` answers, by git itself over HTTP (not blocking the fake in this process), in the shape `listRemoteRefs` returns. */
async function byGit(url: string): Promise<{ refs: string; head: string }> {
  const header = `http.extraHeader=Authorization: Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`;
  const lines = (await promisify(execFile)('git', ['-c', header, 'ls-remote', '--symref', url], { env: process.env })).stdout.split('\n');
  const refs = lines
    .map((line) => line.replace('\t', ' '))
    .filter((line) => /^[0-9a-f]{40} refs\/(heads|tags)\//.test(line) && !line.endsWith('^{}'))
    .sort((a, b) => (a.split(' ')[1]! < b.split(' ')[1]! ? -1 : 1));
  return { refs: `${refs.join('\n')}\n`, head: /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(lines.join('\n'))![1]! };
}

/** An HTTP server in front of `target`: a forward proxy (absolute-form requests) and a reverse one alike. */
async function startRelay(target: string, rewrite: (req: IncomingMessage, headers: Record<string, string>) => void = () => undefined) {
  const seen: Array<{ method: string; path: string; userAgent: string }> = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', target);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    rewrite(req, headers);
    seen.push({ method: req.method ?? '', path: url.pathname, userAgent: headers['user-agent'] ?? '' });
    const upstream = request(
      new URL(`${url.pathname}${url.search}`, target),
      { method: req.method, headers: { ...headers, host: new URL(target).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, stop: () => new Promise((resolve) => server.close(resolve)) };
}

describe('listRemoteRefs', () => {
  let github: GitHubFake;
  let url: string;
  const gitWith = (repoUrl: string, credential?: string) => (args: string[]) => {
    const { env, secrets } = credentialEnv(repoUrl, credential);
    return runGit(args, { cwd: '/', env, secrets });
  };
  const list = (repoUrl = url, credential: string | undefined = TOKEN) => listRemoteRefs({ url: repoUrl, credential, git: gitWith(repoUrl, credential) });
  const gitRequests = (path = '/acme/private.git/') =>
    github.requests
      .filter((r) => r.path.startsWith(path))
      .map((r) => `${r.method} ${r.path.split('.git/')[1]} ${(r.body as { command?: string }).command ?? ''}`.trim());

  beforeAll(async () => {
    github = await startGitHubFake({ strictTokens: true, users: { [TOKEN]: 'wrench-bot' } });
    await github.createRepo('acme', 'private', { 'README.md': 'hi\n' }, { private: true });
    await github.commit('acme', 'private', 'feature/x', { message: 'Feature', files: { 'f.txt': 'f\n' } });
    testGit(['tag', '-a', 'v1.0', '-m', 'Release', 'main'], github.gitDir('acme', 'private'));
    testGit(['tag', 'light', 'feature/x'], github.gitDir('acme', 'private'));
    url = github.cloneUrl('acme', 'private');
  });
  afterAll(async () => {
    await github.stop();
  });

  it('lists what git ls-remote lists, in process: one capability request per URL, then one ls-refs request per listing', async () => {
    github.requests.length = 0;
    expect(await list()).toEqual(await byGit(url));
    github.requests.length = 0;

    const sha = await github.commit('acme', 'private', 'main', { message: 'More', files: { 'g.txt': 'g\n' } });
    const again = await list();
    expect(again.refs).toContain(`${sha} refs/heads/main\n`);
    expect(again).toEqual(await byGit(url));
    expect(gitRequests()[0]).toBe('POST git-upload-pack ls-refs');
    const asked = github.requests.find((r) => r.path === '/acme/private.git/git-upload-pack');
    expect(asked?.token).toBe(TOKEN);
    expect(asked?.headers['git-protocol']).toBe('version=2');
  });

  it('fails with git_failed, the token masked, on a wrong token or a missing repository', async () => {
    const wrong = list(url, 'ghp_wrongwrongwrongwrongwrongwrong12');
    await expect(wrong).rejects.toMatchObject({ code: 'git_failed', message: expect.stringContaining('HTTP 401') });
    await expect(wrong).rejects.not.toMatchObject({ message: expect.stringContaining('ghp_wrong') });
    await expect(list(github.cloneUrl('acme', 'missing'))).rejects.toMatchObject({ code: 'git_failed', message: expect.stringContaining('HTTP 404') });
  });

  it('a mirror whose repository is gone (any 404 body) is repository_not_found, as git says for a 404, not a git failure to retry', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wrench-gone-'));
    const notFound = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not Found');
    });
    await new Promise<void>((resolve) => notFound.listen(0, '127.0.0.1', resolve));
    try {
      await updateMirror({ dataDir, gitBaseUrl: github.gitBaseUrl, owner: 'acme', repo: 'private', credential: TOKEN });
      const gone = updateMirror({
        dataDir,
        gitBaseUrl: `http://127.0.0.1:${(notFound.address() as AddressInfo).port}`,
        owner: 'acme',
        repo: 'private',
        credential: TOKEN,
      });
      await expect(gone).rejects.toMatchObject({ code: 'repository_not_found', message: expect.stringContaining('acme/private') });
    } finally {
      await new Promise((resolve) => notFound.close(resolve));
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('leaves the listing to git, through the proxy, when a proxy is set', async () => {
    const expected = await byGit(url);
    const proxy = await startRelay(github.gitBaseUrl);
    process.env.http_proxy = proxy.url;
    try {
      expect(await list()).toEqual(expected);
      expect(proxy.seen.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /acme/private.git/info/refs', 'POST /acme/private.git/git-upload-pack']);
      expect(proxy.seen.every((r) => r.userAgent.startsWith('git/2.') && !r.userAgent.includes('wrench'))).toBe(true);
    } finally {
      delete process.env.http_proxy;
      await proxy.stop();
    }
  });

  it('leaves the listing to git when the server does not speak protocol v2 to it', async () => {
    // A server that ignores the Git-Protocol header of Wrench's own requests answers them in protocol v0.
    const server = await startRelay(github.gitBaseUrl, (_req, headers) => {
      if (headers['user-agent']?.includes('wrench')) delete headers['git-protocol'];
    });
    try {
      const relayed = `${server.url}/acme/private.git`;
      expect(await list(relayed)).toEqual(await byGit(url));
      expect(await list(relayed)).toEqual(await byGit(url));
      const fromWrench = server.seen.filter((r) => r.userAgent.includes('wrench'));
      expect(fromWrench.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /acme/private.git/info/refs']);
      expect(server.seen.filter((r) => !r.userAgent.includes('wrench')).length).toBeGreaterThanOrEqual(4);
    } finally {
      await server.stop();
    }
  });
});

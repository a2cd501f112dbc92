import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitAll } from '../../../src/workspace/commit-changes.js';
import { prepareWorkspace } from '../../../src/workspace/job-workspace.js';
import { mirrorDir } from '../../../src/workspace/mirror-cache.js';
import { pushBranch } from '../../../src/workspace/push-branch.js';
import { runGit } from '../../../src/workspace/run-git.js';
import { credentialEnv } from '../../../src/workspace/credential-env.js';
import { type BareRemote, createBareRemote } from './helpers/bare-remote.js';
import { createGitArgvShim } from './helpers/git-argv-shim.js';
import { isolateGitConfig, makeScratchDir, testGit } from './helpers/git-sandbox.js';
import { type HttpGitServer, startHttpGitServer } from './helpers/http-git-server.js';

isolateGitConfig();

const TOKEN = 'FAKE_TOKEN_wrench_7c1d';
const ENCODED = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
const requester = { name: 'Ada', slackUserId: 'U1' };

function filesContaining(text: string, dir: string): string[] {
  try {
    return execFileSync('grep', ['-rlF', text, dir], { encoding: 'utf8' }).trim().split('\n');
  } catch {
    return [];
  }
}

describe('the credential', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let remote: BareRemote;
  let server: HttpGitServer;
  let dataDir: string;
  let restorePath: () => void;
  let shim: ReturnType<typeof createGitArgvShim>;
  let tmp: string;
  const previousTmpdir = process.env.TMPDIR;

  beforeEach(async () => {
    scratch = await makeScratchDir();
    remote = createBareRemote(join(scratch.path, 'remotes'));
    server = await startHttpGitServer(remote.root, `Basic ${ENCODED}`);
    dataDir = join(scratch.path, 'data');
    shim = createGitArgvShim(join(scratch.path, 'shim'));
    restorePath = shim.install();
    tmp = join(scratch.path, 'tmp');
    mkdirSync(tmp);
    process.env.TMPDIR = tmp;
  });
  afterEach(async () => {
    restorePath();
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
    await server.close();
    await scratch.remove();
  });

  it('is sent as a header over HTTP but never lands in argv, config, mirror, workspace or remote', async () => {
    const target = { gitBaseUrl: server.url, owner: 'acme', repo: 'web', credential: TOKEN };
    const ws = await prepareWorkspace({ ...target, dataDir, branch: 'wrench/secret-1', jobId: 'job-1' });
    writeFileSync(join(ws.dir, 'a.txt'), 'a');
    const commit = await commitAll({ dir: ws.dir, message: 'Add a', requester });
    await pushBranch({ ...target, guard: { secrets: [] }, dir: ws.dir, branch: ws.branch });
    await prepareWorkspace({ ...target, dataDir, branch: 'wrench/secret-1', existingBranch: true, jobId: 'job-2' });

    expect(remote.sha('refs/heads/wrench/secret-1')).toBe(commit!.sha);
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.every((r) => r.authorized)).toBe(true);
    expect(server.requests.some((r) => r.path.endsWith('/git-receive-pack'))).toBe(true);

    const argv = shim.log();
    expect(argv).toContain(' push ');
    expect(argv).not.toContain(TOKEN);
    expect(argv).not.toContain(ENCODED);
    for (const secret of [TOKEN, ENCODED]) {
      expect(filesContaining(secret, scratch.path)).toEqual([]);
    }
    expect(testGit(['remote', 'get-url', 'origin'], ws.dir)).toBe(`${server.url}/acme/web.git`);
    expect(testGit(['config', 'remote.origin.url'], mirrorDir(dataDir, 'acme', 'web'))).toBe(`${server.url}/acme/web.git`);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('is neither used nor kept anywhere with a file:// remote', async () => {
    const target = { gitBaseUrl: remote.gitBaseUrl, owner: 'acme', repo: 'web', credential: TOKEN };
    const ws = await prepareWorkspace({ ...target, dataDir, branch: 'wrench/local-1', jobId: 'job-1' });
    writeFileSync(join(ws.dir, 'a.txt'), 'a');
    await commitAll({ dir: ws.dir, message: 'Add a', requester });
    await pushBranch({ ...target, guard: { secrets: [] }, dir: ws.dir, branch: ws.branch });
    expect(remote.sha('refs/heads/wrench/local-1')).not.toBe('');
    expect(shim.log()).not.toContain(TOKEN);
    expect(shim.log()).not.toContain(ENCODED);
    expect(filesContaining(TOKEN, scratch.path)).toEqual([]);
    expect(filesContaining(ENCODED, scratch.path)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('is required by the test server (a missing one fails cleanly without prompting)', async () => {
    const error = await prepareWorkspace({
      gitBaseUrl: server.url,
      owner: 'acme',
      repo: 'web',
      dataDir,
      branch: 'wrench/nope-1',
      jobId: 'job-1',
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'git_failed' });
  });

  it('a wrong one is masked out of error messages', async () => {
    const error = await prepareWorkspace({
      gitBaseUrl: server.url,
      owner: 'acme',
      repo: 'web',
      credential: 'WRONG_TOKEN_abc',
      dataDir,
      branch: 'wrench/nope-1',
      jobId: 'job-1',
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'git_failed' });
    expect(String((error as Error).message)).not.toContain('WRONG_TOKEN_abc');
  });

  it('is scoped to the repository URL', async () => {
    const url = `${server.url}/acme/web.git`;
    const { env } = credentialEnv(url, TOKEN);
    const git = (target: string) => runGit(['config', '--get-urlmatch', 'http.extraHeader', target], { cwd: scratch.path, env }).catch(() => '');
    expect((await git(url)).trim()).toBe(`Authorization: Basic ${ENCODED}`);
    expect((await git('https://evil.example.com/acme/web.git')).trim()).toBe('');
    expect((await git(`${server.url}/acme/other.git`)).trim()).toBe('');
  });
});

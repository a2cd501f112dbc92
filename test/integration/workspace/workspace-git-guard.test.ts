import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type JobWorkspace, prepareWorkspace } from '../../../src/workspace/job-workspace.js';
import { sanitizeWorkspaceGit } from '../../../src/workspace/workspace-git-guard.js';
import { createBareRemote } from './helpers/bare-remote.js';
import { isolateGitConfig, makeScratchDir, testGit } from './helpers/git-sandbox.js';

isolateGitConfig();

describe('sanitizeWorkspaceGit', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let ws: JobWorkspace;

  beforeEach(async () => {
    scratch = await makeScratchDir();
    const remote = createBareRemote(join(scratch.path, 'remotes'));
    ws = await prepareWorkspace({
      dataDir: join(scratch.path, 'data'),
      gitBaseUrl: remote.gitBaseUrl,
      owner: 'acme',
      repo: 'web',
      branch: 'wrench/guard-1',
      jobId: 'job-1',
    });
  });
  afterEach(async () => {
    await scratch.remove();
  });

  it('leaves a fresh clone alone', async () => {
    const before = readFileSync(join(ws.dir, '.git', 'config'), 'utf8');
    expect(await sanitizeWorkspaceGit(ws.dir)).toEqual([]);
    expect(readFileSync(join(ws.dir, '.git', 'config'), 'utf8')).toBe(before);
  });

  it('strips planted keys and keeps the plain ones', async () => {
    const origin = testGit(['remote', 'get-url', 'origin'], ws.dir);
    testGit(['config', 'include.path', '/tmp/evil.config'], ws.dir);
    testGit(['config', 'url.https://evil.example.com/.insteadOf', 'https://github.com/'], ws.dir);
    testGit(['config', 'merge.evil.driver', 'touch /tmp/pwned'], ws.dir);
    testGit(['config', 'core.sshCommand', 'touch /tmp/pwned'], ws.dir);
    testGit(['config', 'user.email', 'agent "quoted" \\ value'], ws.dir);
    const removed = await sanitizeWorkspaceGit(ws.dir);
    expect(removed.sort()).toEqual(['core.sshcommand', 'include.path', 'merge.evil.driver', 'url.https://evil.example.com/.insteadof']);
    expect(testGit(['remote', 'get-url', 'origin'], ws.dir)).toBe(origin);
    expect(testGit(['config', 'user.email'], ws.dir)).toBe('agent "quoted" \\ value');
    expect(testGit(['status', '--porcelain'], ws.dir)).toBe('');
  });

  it('refuses a .git that points elsewhere', async () => {
    renameSync(join(ws.dir, '.git'), join(scratch.path, 'moved.git'));
    writeFileSync(join(ws.dir, '.git'), `gitdir: ${join(scratch.path, 'moved.git')}\n`);
    await expect(sanitizeWorkspaceGit(ws.dir)).rejects.toMatchObject({ code: 'workspace_tampered' });
  });

  it('refuses a commondir redirect', async () => {
    writeFileSync(join(ws.dir, '.git', 'commondir'), '/tmp\n');
    await expect(sanitizeWorkspaceGit(ws.dir)).rejects.toMatchObject({ code: 'workspace_tampered' });
  });
});

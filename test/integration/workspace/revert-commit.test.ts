import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type JobWorkspace, prepareWorkspace } from '../../../src/workspace/job-workspace.js';
import { revertCommit } from '../../../src/workspace/revert-commit.js';
import { type BareRemote, createBareRemote } from './helpers/bare-remote.js';
import { isolateGitConfig, makeScratchDir, testGit } from './helpers/git-sandbox.js';

isolateGitConfig();

const requester = { name: 'Grace Hopper', slackUserId: 'U0GRACE' };

describe('revertCommit', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let remote: BareRemote;

  beforeEach(async () => {
    scratch = await makeScratchDir();
    remote = createBareRemote(join(scratch.path, 'remotes'));
  });
  afterEach(async () => {
    await scratch.remove();
  });

  const prepare = (): Promise<JobWorkspace> =>
    prepareWorkspace({
      dataDir: join(scratch.path, 'data'),
      gitBaseUrl: remote.gitBaseUrl,
      owner: 'acme',
      repo: 'web',
      branch: 'wrench/revert-1',
      jobId: 'job-1',
    });

  it('commits the inverse diff with trailers', async () => {
    const bad = remote.commit({ 'src/app.js': 'export const greeting = "broken";\n', 'extra.txt': 'x' }, 'Break it');
    const ws = await prepare();
    const sha = await revertCommit({ dir: ws.dir, sha: bad, requester, threadUrl: 'https://slack.test/t/1' });
    expect(sha).toBe(testGit(['rev-parse', 'HEAD'], ws.dir));
    expect(testGit(['diff', `${bad}^`, sha], ws.dir)).toBe('');
    expect(testGit(['diff', '--stat', bad, sha], ws.dir)).toContain('2 files changed');
    expect(readFileSync(join(ws.dir, 'src', 'app.js'), 'utf8')).toContain('hello');
    const message = testGit(['log', '-1', '--format=%B'], ws.dir);
    expect(message).toContain('Revert "Break it"');
    expect(message).toContain(`This reverts commit ${bad}.`);
    expect(message).toContain('Requested-by: Grace Hopper (Slack <@U0GRACE>)');
    expect(message).toContain('Slack-Thread: https://slack.test/t/1');
    expect(testGit(['log', '-1', '--format=%an'], ws.dir)).toBe('Wrench');
  });

  it('reverts a merge against its first parent', async () => {
    remote.commit({ 'feature.txt': 'feature\n' }, 'Feature work', { branch: 'feature' });
    const scratchClone = join(scratch.path, 'merge-clone');
    testGit(['clone', '--quiet', remote.bareDir, scratchClone], scratch.path);
    testGit(['merge', '--no-ff', '--quiet', '-m', 'Merge feature', 'origin/feature'], scratchClone);
    testGit(['push', '--quiet', 'origin', 'HEAD:main'], scratchClone);
    const merge = testGit(['rev-parse', 'HEAD'], scratchClone);

    const ws = await prepare();
    const sha = await revertCommit({ dir: ws.dir, sha: merge, requester });
    expect(testGit(['diff', `${merge}^1`, sha], ws.dir)).toBe('');
  });

  it('aborts a conflicting revert cleanly and names the files', async () => {
    const bad = remote.commit({ 'src/app.js': 'export const greeting = "v2";\n' }, 'Change greeting');
    remote.commit({ 'src/app.js': 'export const greeting = "v3";\n' }, 'Change it again');
    const ws = await prepare();
    const before = testGit(['rev-parse', 'HEAD'], ws.dir);
    const error = await revertCommit({ dir: ws.dir, sha: bad, requester }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'revert_conflict' });
    expect((error as Error).message).toContain('src/app.js');
    expect(testGit(['rev-parse', 'HEAD'], ws.dir)).toBe(before);
    expect(testGit(['status', '--porcelain'], ws.dir)).toBe('');
    expect(readFileSync(join(ws.dir, 'src', 'app.js'), 'utf8')).toContain('v3');
  });

  it('reports other failures as git_failed and rejects non-shas', async () => {
    const ws = await prepare();
    await expect(revertCommit({ dir: ws.dir, sha: 'deadbeef', requester })).rejects.toMatchObject({
      code: 'git_failed',
    });
    await expect(revertCommit({ dir: ws.dir, sha: '--abort', requester })).rejects.toMatchObject({
      code: 'invalid_commit',
    });
    writeFileSync(join(ws.dir, '.gitignore'), 'dirty\n');
    const head = testGit(['rev-parse', 'HEAD'], ws.dir);
    await expect(revertCommit({ dir: ws.dir, sha: head, requester })).rejects.toMatchObject({ code: 'git_failed' });
  });
});

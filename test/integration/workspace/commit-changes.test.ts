import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changedFiles, commitAll } from '../../../src/workspace/commit-changes.js';
import { type JobWorkspace, prepareWorkspace } from '../../../src/workspace/job-workspace.js';
import { createBareRemote } from './helpers/bare-remote.js';
import { isolateGitConfig, makeScratchDir, testGit } from './helpers/git-sandbox.js';

isolateGitConfig();

const requester = { name: 'Ada Lovelace', slackUserId: 'U012ADA' };

describe('commitAll', () => {
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
      branch: 'wrench/change-1',
      jobId: 'job-1',
    });
  });
  afterEach(async () => {
    await scratch.remove();
  });

  it('returns null when nothing changed, ignored files included', async () => {
    expect(await commitAll({ dir: ws.dir, message: 'Nothing', requester })).toBeNull();
    writeFileSync(join(ws.dir, 'debug.log'), 'ignored');
    mkdirSync(join(ws.dir, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(ws.dir, 'node_modules', 'x', 'index.js'), 'ignored');
    expect(await commitAll({ dir: ws.dir, message: 'Nothing', requester })).toBeNull();
    expect(testGit(['rev-parse', 'HEAD'], ws.dir)).toBe(ws.headSha);
  });

  it('commits modified, new, untracked and deleted files as Wrench with trailers', async () => {
    writeFileSync(join(ws.dir, 'src', 'app.js'), 'export const greeting = "hi";\n');
    mkdirSync(join(ws.dir, 'src', 'deep'));
    writeFileSync(join(ws.dir, 'src', 'deep', 'new file.ts'), 'export {};\n');
    rmSync(join(ws.dir, 'README.md'));
    writeFileSync(join(ws.dir, 'trace.log'), 'ignored');

    const result = await commitAll({
      dir: ws.dir,
      message: 'Say hi instead of hello\n\nShorter greeting.',
      requester,
      threadUrl: 'https://acme.slack.com/archives/C0123/p1700000000000100',
    });
    expect(result).not.toBeNull();
    expect(result!.filesChanged.sort()).toEqual(['README.md', 'src/app.js', 'src/deep/new file.ts']);
    expect(result!.sha).toBe(testGit(['rev-parse', 'HEAD'], ws.dir));
    expect(testGit(['log', '-1', '--format=%an <%ae>|%cn <%ce>'], ws.dir)).toBe(
      'Wrench <wrench@users.noreply.github.com>|Wrench <wrench@users.noreply.github.com>',
    );
    expect(testGit(['log', '-1', '--format=%B'], ws.dir)).toBe(
      [
        'Say hi instead of hello',
        '',
        'Shorter greeting.',
        '',
        'Requested-by: Ada Lovelace (Slack <@U012ADA>)',
        'Slack-Thread: https://acme.slack.com/archives/C0123/p1700000000000100',
      ].join('\n'),
    );
    expect(testGit(['log', '-1', '--format=%(trailers:key=Requested-by,valueonly)'], ws.dir)).toBe('Ada Lovelace (Slack <@U012ADA>)');
    expect(testGit(['status', '--porcelain'], ws.dir)).toBe('');
  });

  it('takes a configured identity and leaves out the thread when unknown', async () => {
    writeFileSync(join(ws.dir, 'a.txt'), 'a');
    await commitAll({
      dir: ws.dir,
      message: 'Add a',
      requester,
      identity: { name: 'Wrench Bot', email: 'bot@example.com' },
    });
    expect(testGit(['log', '-1', '--format=%an <%ae>'], ws.dir)).toBe('Wrench Bot <bot@example.com>');
    expect(testGit(['log', '-1', '--format=%B'], ws.dir)).toBe('Add a\n\nRequested-by: Ada Lovelace (Slack <@U012ADA>)');
  });

  it('commits a message holding NUL, escape sequences and a lone surrogate, made well-formed, rather than failing', async () => {
    writeFileSync(join(ws.dir, 'a.txt'), 'a');
    const result = await commitAll({
      dir: ws.dir,
      message: 'Add\u0000 a\u001b[31m for \ud800you\n\nFrom a mention\u0007 and a summary.',
      requester: { name: 'Ada\u0000 Lovelace', slackUserId: 'U012ADA' },
    });
    expect(result).not.toBeNull();
    expect(testGit(['log', '-1', '--format=%B'], ws.dir)).toBe(
      'Add a for \ufffdyou\n\nFrom a mention and a summary.\n\nRequested-by: Ada Lovelace (Slack <@U012ADA>)',
    );
  });

  it('lists the files changed since the base for reports', async () => {
    writeFileSync(join(ws.dir, 'a.txt'), 'a');
    await commitAll({ dir: ws.dir, message: 'Add a', requester });
    writeFileSync(join(ws.dir, 'src', 'app.js'), 'changed');
    await commitAll({ dir: ws.dir, message: 'Change app', requester });
    expect((await changedFiles({ dir: ws.dir, baseSha: ws.baseSha })).sort()).toEqual(['a.txt', 'src/app.js']);
    await expect(changedFiles({ dir: ws.dir, baseSha: '--output=/tmp/x' })).rejects.toMatchObject({
      code: 'invalid_commit',
    });
  });

  it('ignores filters and settings the agent planted in .git/config', async () => {
    const marker = join(scratch.path, 'filter-ran');
    testGit(['config', 'filter.evil.clean', `sh -c 'touch ${marker}; cat'`], ws.dir);
    testGit(['config', 'user.name', 'Agent'], ws.dir);
    writeFileSync(join(ws.dir, '.gitattributes'), '* filter=evil\n');
    writeFileSync(join(ws.dir, 'a.txt'), 'a');
    await commitAll({ dir: ws.dir, message: 'Add a', requester });
    const { existsSync } = await import('node:fs');
    expect(existsSync(marker)).toBe(false);
    const config = readFileSync(join(ws.dir, '.git', 'config'), 'utf8');
    expect(config).not.toContain('evil');
    expect(testGit(['config', 'user.name'], ws.dir)).toBe('Agent');
    expect(testGit(['remote', 'get-url', 'origin'], ws.dir)).toMatch(/acme\/web\.git$/);
    expect(testGit(['rev-parse', '--abbrev-ref', 'HEAD'], ws.dir)).toBe('wrench/change-1');
  });
});

import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitError, runGit } from '../../../src/workspace/run-git.js';
import { isolateGitConfig, makeScratchDir, testGit } from './helpers/git-sandbox.js';

isolateGitConfig();

describe('runGit', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  beforeEach(async () => {
    scratch = await makeScratchDir();
  });
  afterEach(async () => {
    await scratch.remove();
  });

  it('returns stdout and feeds input', async () => {
    const out = await runGit(['hash-object', '--stdin'], { cwd: scratch.path, input: 'hello\n' });
    expect(out.trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('runs with a scrubbed environment, no prompts and a Wrench identity', async () => {
    process.env.GITHUB_TOKEN = 'ghp_should_not_leak';
    process.env.GIT_ASKPASS = '/bin/echo';
    try {
      const out = await runGit(['var', 'GIT_COMMITTER_IDENT'], { cwd: scratch.path });
      expect(out).toMatch(/^Wrench <wrench@users\.noreply\.github\.com>/);
      const env = await runGit(['-c', 'alias.env=!env', 'env'], { cwd: scratch.path });
      expect(env).toContain('GIT_TERMINAL_PROMPT=0');
      expect(env).toContain('LANG=C');
      expect(env).not.toContain('GITHUB_TOKEN');
      expect(env).not.toContain('GIT_ASKPASS');
    } finally {
      delete process.env.GITHUB_TOKEN;
      delete process.env.GIT_ASKPASS;
    }
  });

  it('throws git_failed with masked stderr', async () => {
    const error = await runGit(['ls-remote', 'https://x-access-token:SEKRIT@127.0.0.1:1/acme/web.git'], {
      cwd: scratch.path,
      secrets: ['SEKRIT'],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).code).toBe('git_failed');
    expect((error as GitError).message).not.toContain('SEKRIT');
    expect((error as GitError).message).toContain('***@127.0.0.1');
  });

  it('reports a timeout', async () => {
    const error = await runGit(['-c', 'alias.slow=!sleep 5', 'slow'], { cwd: scratch.path, timeoutMs: 200 }).catch((e: unknown) => e);
    expect((error as GitError).timedOut).toBe(true);
    expect((error as GitError).message).toContain('timed out');
  });

  it('never runs repository hooks', async () => {
    const repo = join(scratch.path, 'repo');
    mkdirSync(repo);
    testGit(['init', '--quiet', repo], scratch.path);
    const marker = join(scratch.path, 'hook-ran');
    writeFileSync(join(repo, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(join(repo, '.git', 'hooks', 'pre-commit'), 0o755);
    writeFileSync(join(repo, 'a.txt'), 'a');
    await runGit(['add', 'a.txt'], { cwd: repo });
    await runGit(['commit', '-q', '-m', 'a'], { cwd: repo });
    const { existsSync } = await import('node:fs');
    expect(existsSync(marker)).toBe(false);
  });
});

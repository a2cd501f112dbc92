import { execFile } from 'node:child_process';

export interface GitOptions {
  /** Run against this (bare) repository. */
  gitDir?: string;
  cwd?: string;
  input?: string | Buffer;
  env?: Record<string, string>;
  /** Resolve with the exit code instead of rejecting on failure. */
  allowFailure?: boolean;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Identity and config isolation for every git the fakes run: no user or system config leaks in. */
export const GIT_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'Fake Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'GitHub',
  GIT_COMMITTER_EMAIL: 'noreply@github.com',
};

export function git(args: string[], options: GitOptions = {}): Promise<GitResult> {
  const fullArgs = options.gitDir ? ['--git-dir', options.gitDir, ...args] : args;
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      fullArgs,
      {
        cwd: options.cwd,
        env: { ...process.env, ...GIT_ENV, ...options.env },
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        if (error && !options.allowFailure) {
          reject(new Error(`git ${fullArgs.join(' ')} failed (${code}): ${stderr || error.message}`));
          return;
        }
        resolve({ stdout, stderr, code });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** stdout of a git command, trimmed. */
export async function gitOut(args: string[], options: GitOptions = {}): Promise<string> {
  return (await git(args, options)).stdout.trim();
}

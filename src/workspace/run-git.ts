import { execFile } from 'node:child_process';
import { WrenchError } from '../errors.js';
import { type GitIdentity, WRENCH_IDENTITY } from './git-identity.js';
import { maskCredentials } from './mask-credentials.js';

export interface RunGitOptions {
  cwd: string;
  /** Added on top of the scrubbed environment (e.g. credential config from `credentialEnv`). */
  env?: Record<string, string>;
  /** Written to git's stdin; stdin is closed either way. */
  input?: string;
  /** Default 10 minutes. */
  timeoutMs?: number;
  /** Author and committer for commands that create commits. Default Wrench. */
  identity?: GitIdentity;
  /** Strings masked out of error messages (tokens, encoded headers). */
  secrets?: readonly string[];
}

export class GitError extends WrenchError {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stdout: string,
    readonly stderr: string,
    readonly timedOut: boolean,
  ) {
    super('git_failed', message);
    this.name = 'GitError';
  }
}

/** How long a git command may run unless told otherwise. */
export const GIT_TIMEOUT_MS = 10 * 60_000;
const MAX_BUFFER = 256 * 1024 * 1024;

const INHERITED_ENV = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'USER',
  'LOGNAME',
  'XDG_CONFIG_HOME',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'GIT_SSL_CAINFO',
  'GIT_SSL_CAPATH',
  'GIT_EXEC_PATH',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CONFIG_SYSTEM',
];

/** Settings that keep a command from running anything a repository's own files could plant. */
const HARDENING_ARGS = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'commit.gpgSign=false',
  '-c',
  'tag.gpgSign=false',
  '-c',
  'protocol.ext.allow=never',
  '-c',
  'core.quotePath=false',
];

function gitEnv(options: RunGitOptions): NodeJS.ProcessEnv {
  const identity = options.identity ?? WRENCH_IDENTITY;
  const env: NodeJS.ProcessEnv = {};
  for (const name of INHERITED_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: 'true',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
    ...options.env,
  };
}

/** Runs git without a shell and returns stdout; throws `GitError` (code `git_failed`) with git's masked stderr. */
export function runGit(args: readonly string[], options: RunGitOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? GIT_TIMEOUT_MS;
  const secrets = options.secrets ?? [];
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...HARDENING_ARGS, ...args],
      { cwd: options.cwd, env: gitEnv(options), timeout: timeoutMs, maxBuffer: MAX_BUFFER, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const command = maskCredentials(`git ${args.join(' ')}`, secrets);
        const cleanStderr = maskCredentials(stderr.trim(), secrets);
        const cleanStdout = maskCredentials(stdout.trim(), secrets);
        const exitCode = typeof error.code === 'number' ? error.code : null;
        const timedOut = error.killed === true && error.signal !== null;
        let message: string;
        if (error.code === 'ENOENT') message = 'git is not installed or not on PATH; install git 2.30 or newer.';
        else if (timedOut) message = `${command} timed out after ${timeoutMs} ms.`;
        else message = `${command} failed (exit ${exitCode ?? error.signal}): ${cleanStderr || cleanStdout || 'no output'}`;
        reject(new GitError(message, exitCode, cleanStdout, cleanStderr, timedOut));
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input ?? '');
  });
}

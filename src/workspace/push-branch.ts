import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type WrenchError, wrenchErrorSaying } from '../errors.js';
import { assertBranchName } from './assert-branch-name.js';
import { WRENCH_IDENTITY } from './git-identity.js';
import { blockedPushError, existingCommits, outgoingCommits, type PushGuard, rewriteIdentity, scanOutgoing } from './outgoing-commits.js';
import { holdRefusedWork } from './hold-refused-work.js';
import { credentialEnv } from './credential-env.js';
import { repositoryUrl } from './repository-url.js';
import { listRemoteRefs, refsByName } from './remote-refs.js';
import { GitError, runGit } from './run-git.js';
import { sanitizeWorkspaceGit } from './workspace-git-guard.js';

export interface PushBranchOptions {
  dir: string;
  branch: string;
  gitBaseUrl: string;
  owner: string;
  repo: string;
  credential?: string;
  /** Overwrite the remote branch, but only if it is still where this workspace last saw it (force-with-lease). */
  force?: boolean;
  timeoutMs?: number;
  /** Secrets refused and the identity every pushed commit gets (outgoing-commits.ts). */
  guard: PushGuard;
}

export interface PushResult {
  branch: string;
  sha: string;
}

/**
 * Pushes the workspace's HEAD to `refs/heads/<branch>` of the public repository URL and checks with a listing that
 * the remote branch now points at it. The push runs from a throw-away bare repository that borrows the
 * workspace's objects, so the credential (given to git through its environment only) never meets the config or
 * hooks of a working tree the agent could write to.
 */
export async function pushBranch(options: PushBranchOptions): Promise<PushResult> {
  return pushToUrl({ ...options, url: repositoryUrl(options.gitBaseUrl, options.owner, options.repo) });
}

export interface PushToUrlOptions {
  dir: string;
  branch: string;
  /** Any git URL or local repository path. */
  url: string;
  credential?: string;
  force?: boolean;
  timeoutMs?: number;
  guard: PushGuard;
}

/** `pushBranch` to an explicit URL or local repository path. */
export async function pushToUrl(options: PushToUrlOptions): Promise<PushResult> {
  const { dir, branch, url } = options;
  const ref = `refs/heads/${branch}`;
  await assertBranchName(branch);
  await sanitizeWorkspaceGit(dir);
  const lease = options.force ? await lastSeenRemoteSha(dir, branch) : undefined;

  const { env, secrets } = credentialEnv(url, options.credential);
  const outbox = await mkdtemp(join(tmpdir(), 'wrench-push-'));
  const git = (args: string[]) => runGit(args, { cwd: outbox, env, secrets, timeoutMs: options.timeoutMs });
  // Asked in process where it can be (one ls-refs request), else with `git ls-remote`: see remote-refs.ts.
  const remoteRefs = (when: 'listing' | 'verifying') =>
    listRemoteRefs({ url, credential: options.credential, timeoutMs: options.timeoutMs, git }).then(
      (listing) => refsByName(listing.refs),
      (error: unknown) => {
        throw error instanceof GitError ? pushFailed(branch, when, error.stderr || error.message, error) : error;
      },
    );
  try {
    const before = remoteRefs('listing');
    before.catch(() => undefined);
    await git(['init', '--quiet', '--bare', '.']);
    const sha = await checkOutgoing(dir, branch, options.guard, [...new Set((await before).values())]);
    await writeFile(join(outbox, 'objects', 'info', 'alternates'), `${resolve(dir, '.git', 'objects')}\n`);
    await git(['update-ref', ref, sha]);
    const forceArgs = lease === undefined ? [] : [`--force-with-lease=${ref}:${lease}`];
    try {
      await git(['push', '--atomic', '--porcelain', ...forceArgs, '--', url, `${ref}:${ref}`]);
    } catch (error) {
      if (error instanceof GitError) throw rejected(branch, error);
      throw error;
    }
    const remoteSha = (await remoteRefs('verifying')).get(ref);
    if (remoteSha !== sha) throw wrenchErrorSaying('push_failed', { key: 'pushNotThere', branch, sha, remoteSha: remoteSha || undefined });
    return { branch, sha };
  } finally {
    await rm(outbox, { recursive: true, force: true });
  }
}

/**
 * Gives the commits about to leave the bot identity (and the requester's co-author trailer), then refuses the push
 * when any of them holds a credential in an added line or in its message (keeping them in `guard.heldDir`).
 * Returns the HEAD to push.
 */
async function checkOutgoing(dir: string, branch: string, guard: PushGuard, remoteShas: string[]): Promise<string> {
  const exclude = guard.baseSha ? [guard.baseSha, ...remoteShas] : remoteShas;
  const commits = await rewriteIdentity(dir, await outgoingCommits(dir, exclude), guard.identity ?? WRENCH_IDENTITY, guard.coAuthor);
  const found = await scanOutgoing(dir, commits, guard.secrets);
  if (found.length > 0) {
    const held = guard.heldDir ? await holdRefusedWork(dir, branch, await existingCommits(dir, exclude), guard.heldDir) : undefined;
    throw blockedPushError(found, branch, held && { ...held, days: guard.heldDays, host: guard.heldOn });
  }
  return (await runGit(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd: dir })).trim();
}

/** The remote branch as the workspace last fetched it; '' (must not exist) when it never saw one. */
async function lastSeenRemoteSha(dir: string, branch: string): Promise<string> {
  try {
    return (await runGit(['rev-parse', '--verify', '--quiet', `refs/remotes/origin/${branch}`], { cwd: dir })).trim();
  } catch {
    return '';
  }
}

/** `branch_moved` when the remote branch has commits the workspace lacks (the caller can catch up), else `push_failed`. */
function rejected(branch: string, error: GitError): WrenchError {
  const line = error.stdout.split('\n').find((l) => l.startsWith('!'));
  const reason = line?.split('\t')[2];
  if (reason?.includes('stale info')) return wrenchErrorSaying('branch_moved', { key: 'branchMoved', branch }, { cause: error });
  if (reason?.includes('fetch first') || reason?.includes('non-fast-forward')) {
    return wrenchErrorSaying('branch_moved', { key: 'branchMoved', branch, git: reason }, { cause: error });
  }
  return pushFailed(branch, 'pushing', reason ?? (error.stderr || error.message), error);
}

function pushFailed(branch: string, when: 'listing' | 'verifying' | 'pushing', git: string, cause?: unknown): WrenchError {
  return wrenchErrorSaying('push_failed', { key: 'pushFailed', branch, when, git }, { cause });
}

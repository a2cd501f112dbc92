import { randomUUID } from 'node:crypto';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { credentialEnv } from './credential-env.js';
import { withDirectoryLock } from './directory-lock.js';
import { assertRepositoryName, repositoryUrl } from './repository-url.js';
import { runGit } from './run-git.js';

export interface UpdateMirrorOptions {
  dataDir: string;
  gitBaseUrl: string;
  owner: string;
  repo: string;
  /** GitHub token, supplied to git only for the duration of the fetch (ignored for file:// remotes). */
  credential?: string;
  timeoutMs?: number;
}

export interface Mirror {
  /** The bare mirror repository. */
  dir: string;
  /** true when this call cloned it, false when it only fetched. */
  created: boolean;
}

const FETCH_REFSPECS = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];

export function mirrorDir(dataDir: string, owner: string, repo: string): string {
  assertRepositoryName(owner, repo);
  return join(resolve(dataDir), 'mirrors', owner, `${repo}.git`);
}

/**
 * Brings the bare mirror of a repository up to date: cloned the first time, fetched (with prune) afterwards.
 * Calls for the same repository are serialized within this process and across processes.
 */
export async function updateMirror(options: UpdateMirrorOptions): Promise<Mirror> {
  const url = repositoryUrl(options.gitBaseUrl, options.owner, options.repo);
  const dir = mirrorDir(options.dataDir, options.owner, options.repo.replace(/\.git$/, ''));
  const { env, secrets } = credentialEnv(url, options.credential);
  const git = (args: string[], cwd = dirname(dir)) => runGit(args, { cwd, env, secrets, timeoutMs: options.timeoutMs });

  await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
  return withDirectoryLock(`${dir}.lock`, async () => {
    if (await isBareRepository(dir)) {
      await git(['--git-dir', dir, 'remote', 'set-url', 'origin', url]);
      await git(['--git-dir', dir, 'fetch', '--quiet', '--prune', 'origin']);
      await followRemoteHead(dir, git);
      return { dir, created: false };
    }
    await rm(dir, { recursive: true, force: true });
    const staging = `${dir}.tmp-${randomUUID()}`;
    try {
      await git(['clone', '--bare', '--quiet', '--', url, staging]);
      await git(['--git-dir', staging, 'config', '--replace-all', 'remote.origin.fetch', FETCH_REFSPECS[0]]);
      await git(['--git-dir', staging, 'config', '--add', 'remote.origin.fetch', FETCH_REFSPECS[1]]);
      await rename(staging, dir);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    return { dir, created: true };
  });
}

async function isBareRepository(dir: string): Promise<boolean> {
  try {
    await access(join(dir, 'HEAD'));
    const answer = await runGit(['--git-dir', dir, 'rev-parse', '--is-bare-repository'], { cwd: dirname(dir) });
    return answer.trim() === 'true';
  } catch {
    return false;
  }
}

/** Keeps the mirror's HEAD on the remote's default branch when that changes. */
async function followRemoteHead(dir: string, git: (args: string[]) => Promise<string>): Promise<void> {
  const answer = await git(['--git-dir', dir, 'ls-remote', '--symref', 'origin', 'HEAD']);
  const target = /^ref: (refs\/heads\/\S+)\tHEAD$/m.exec(answer)?.[1];
  if (!target) return;
  try {
    await git(['--git-dir', dir, 'rev-parse', '--verify', '--quiet', `${target}^{commit}`]);
  } catch {
    return;
  }
  await git(['--git-dir', dir, 'symbolic-ref', 'HEAD', target]);
}

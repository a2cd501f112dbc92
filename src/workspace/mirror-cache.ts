import { randomUUID } from 'node:crypto';
import { access, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { credentialEnv } from './credential-env.js';
import { withDirectoryLock } from './directory-lock.js';
import { assertRepositoryName, repositoryUrl } from './repository-url.js';
import { listRemoteRefs, sortedRefs } from './remote-refs.js';
import { runGit } from './run-git.js';

export interface UpdateMirrorOptions {
  dataDir: string;
  gitBaseUrl: string;
  owner: string;
  repo: string;
  /** GitHub token, supplied to git only for the duration of the fetch (ignored for file:// remotes). */
  credential?: string;
  timeoutMs?: number;
  /**
   * Called, once the remote is being asked, with what the mirror holds until its answer (not called when there is no
   * mirror yet): local work can start on it without delaying the round trip.
   */
  onHeldRefs?: (mirror: Mirror) => void;
}

export interface Mirror {
  /** The bare mirror repository. */
  dir: string;
  /** true when this call cloned it, false when it was already there. */
  created: boolean;
  /** Its branches and tags after the update, as sorted `<sha> <refname>` lines (`refs/heads/*`, `refs/tags/*`). */
  refs: string;
  /** Its default branch (HEAD), when it has one. */
  head?: string;
}

const FETCH_REFSPECS = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];

export function mirrorDir(dataDir: string, owner: string, repo: string): string {
  assertRepositoryName(owner, repo);
  return join(resolve(dataDir), 'mirrors', owner, `${repo}.git`);
}

/**
 * Brings the bare mirror of a repository up to date: cloned the first time; afterwards the remote's branches and tags
 * are listed (one round trip) and fetched, with prune, only when they differ from the mirror's, and the mirror's HEAD
 * follows the remote's default branch. Calls for the same repository are serialized within this process and across
 * processes.
 */
export async function updateMirror(options: UpdateMirrorOptions): Promise<Mirror> {
  const url = repositoryUrl(options.gitBaseUrl, options.owner, options.repo);
  const dir = mirrorDir(options.dataDir, options.owner, options.repo.replace(/\.git$/, ''));
  const { env, secrets } = credentialEnv(url, options.credential);
  const git = (args: string[], cwd = dirname(dir)) => runGit(args, { cwd, env, secrets, timeoutMs: options.timeoutMs });

  await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
  return withDirectoryLock(`${dir}.lock`, async () => {
    const exists = await access(join(dir, 'HEAD')).then(
      () => true,
      () => false,
    );
    // The remote's listing is asked while the mirror's is read; a remote that cannot be reached fails the update.
    const listing = exists ? listRemoteRefs({ url, credential: options.credential, timeoutMs: options.timeoutMs, git }) : undefined;
    listing?.catch(() => undefined);
    const local = exists ? await mirrorRefs(dir) : undefined;
    if (local !== undefined) options.onHeldRefs?.({ dir, created: false, refs: local, head: await headBranch(dir) });
    if (local !== undefined && listing) {
      const remote = await listing;
      let refs = local;
      if (remote.refs !== local) {
        await git(['--git-dir', dir, 'fetch', '--quiet', '--prune', '--no-write-fetch-head', '--', url, ...FETCH_REFSPECS]);
        refs = (await mirrorRefs(dir)) ?? '';
      }
      return { dir, created: false, refs, head: await followRemoteHead(dir, remote.head, refs, git) };
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
    return { dir, created: true, refs: (await mirrorRefs(dir)) ?? '', head: await headBranch(dir) };
  });
}

/** The mirror's branches and tags; undefined when `dir` is not a repository git can read. */
async function mirrorRefs(dir: string): Promise<string | undefined> {
  try {
    const listing = await runGit(['--git-dir', dir, 'for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads', 'refs/tags'], { cwd: dirname(dir) });
    return sortedRefs(listing.split('\n'));
  } catch {
    return undefined;
  }
}

async function headBranch(dir: string): Promise<string | undefined> {
  const text = await readFile(join(dir, 'HEAD'), 'utf8').catch(() => '');
  return /^ref: refs\/heads\/(\S+)\s*$/.exec(text)?.[1];
}

/** Keeps the mirror's HEAD on the remote's default branch when that changes (and the mirror has that branch). */
async function followRemoteHead(
  dir: string,
  remoteHead: string | undefined,
  refs: string,
  git: (args: string[]) => Promise<string>,
): Promise<string | undefined> {
  const current = await headBranch(dir);
  if (!remoteHead || remoteHead === current || !refs.includes(` refs/heads/${remoteHead}\n`)) return current;
  await git(['--git-dir', dir, 'symbolic-ref', 'HEAD', `refs/heads/${remoteHead}`]);
  return remoteHead;
}

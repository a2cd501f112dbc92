import { randomUUID } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { credentialEnv } from './credential-env.js';
import { withDirectoryLock } from './directory-lock.js';
import { assertRepositoryName, repositoryUrl } from './repository-url.js';
import { listRemoteRefs, sortedRefs } from './remote-refs.js';
import { wrenchErrorSaying } from '../errors.js';
import { GIT_TIMEOUT_MS, GitError, runGit } from './run-git.js';

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
  /** Called once a fetch has what it fetched and before the mirror's refs move to it (lets a test hold a fetch there). */
  beforeRefsMove?: () => Promise<void>;
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

const FETCH_REFSPECS = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'] as const;

export function mirrorDir(dataDir: string, owner: string, repo: string): string {
  assertRepositoryName(owner, repo);
  return join(resolve(dataDir), 'mirrors', owner, `${repo}.git`);
}

/**
 * Brings the bare mirror of a repository up to date: cloned the first time; afterwards the remote's branches and tags
 * are listed (one round trip) and fetched, with prune, only when they differ from the mirror's, and the mirror's HEAD
 * follows the remote's default branch. The fetch itself runs without the mirror's lock (into refs of its own, so
 * several can run at once, in this process or others); only moving the mirror's branches and tags to what it fetched
 * is done under the lock, and only when no fetch that started later has moved them already. The first clone is done
 * under the lock.
 */
export async function updateMirror(options: UpdateMirrorOptions): Promise<Mirror> {
  return refreshMirror(options).catch((error: unknown) => {
    // Git over HTTPS says so for a repository that does not exist and for one the credentials may not read alike.
    if (error instanceof GitError && /repository .*not found/i.test(error.stderr)) {
      throw wrenchErrorSaying('repository_not_found', { key: 'repositoryNotFound', repository: `${options.owner}/${options.repo}` }, { cause: error });
    }
    throw error;
  });
}

async function refreshMirror(options: UpdateMirrorOptions): Promise<Mirror> {
  const url = repositoryUrl(options.gitBaseUrl, options.owner, options.repo);
  const dir = mirrorDir(options.dataDir, options.owner, options.repo.replace(/\.git$/, ''));
  const { env, secrets } = credentialEnv(url, options.credential);
  const git = (args: string[], cwd = dirname(dir)) => runGit(args, { cwd, env, secrets, timeoutMs: options.timeoutMs });
  const locked = <T>(fn: () => Promise<T>) => withDirectoryLock(`${dir}.lock`, fn);

  await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
  const exists = await access(join(dir, 'HEAD')).then(
    () => true,
    () => false,
  );
  // The remote's listing is asked while the mirror's is read; a remote that cannot be reached fails the update.
  const listing = exists ? listRemoteRefs({ url, credential: options.credential, timeoutMs: options.timeoutMs, git }) : undefined;
  listing?.catch(() => undefined);
  const [local] = await Promise.all([exists ? mirrorRefs(dir) : undefined, exists ? sweepOnce(dir) : undefined]);
  if (local === undefined || !listing) return locked(() => cloneMirror(dir, url, git));
  options.onHeldRefs?.({ dir, created: false, refs: local, head: await headBranch(dir) });
  const remote = await listing;
  if (remote.refs === local) {
    const head = await headBranch(dir);
    if (!remote.head || remote.head === head) return { dir, created: false, refs: local, head };
    return { dir, created: false, refs: local, head: await locked(() => followRemoteHead(dir, remote.head, local, git)) };
  }

  const startedAt = Date.now();
  const incoming = `${INCOMING}/${startedAt}-${randomUUID()}-${process.pid}-${HOST}`;
  try {
    await git([
      '--git-dir',
      dir,
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-auto-gc',
      '--',
      url,
      `+refs/heads/*:${incoming}/heads/*`,
      `+refs/tags/*:${incoming}/tags/*`,
    ]);
    await options.beforeRefsMove?.();
    return await locked(async () => {
      await moveRefs(dir, incoming, startedAt);
      await dropStaleIncoming(dir, startedAt);
      const refs = (await mirrorRefs(dir)) ?? '';
      return { dir, created: false, refs, head: await followRemoteHead(dir, remote.head, refs, git) };
    });
  } finally {
    await dropRefs(dir, incoming).catch(() => undefined);
  }
}

/** Where a fetch puts what it fetched before the mirror's refs move to it: `<start ms>-<uuid>-<pid>-<host>`. */
const INCOMING = 'refs/wrench-incoming';
/** This machine's name as a ref name component: a fetch's refs say which host's process owns them. */
const HOST = hostname().replace(/[^A-Za-z0-9-]/g, '-') || 'host';
/** Mirrors this process has swept of what dead fetches left (once each, the first time it finds them there). */
const sweptMirrors = new Set<string>();
/** When the fetch that last moved the mirror's refs started (ms), kept in the mirror. */
const MOVED_FILE = 'wrench-refs-fetched-at';

async function cloneMirror(dir: string, url: string, git: (args: string[]) => Promise<string>): Promise<Mirror> {
  // Another caller may have cloned it while this one waited for the lock.
  const refs = await mirrorRefs(dir);
  if (refs !== undefined) return { dir, created: false, refs, head: await headBranch(dir) };
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
}

/**
 * The mirror's branches and tags made exactly the ones fetched under `incoming` (others deleted), in one transaction,
 * unless a fetch that started later already moved them (its refs are newer). The caller holds the mirror's lock.
 */
async function moveRefs(dir: string, incoming: string, startedAt: number): Promise<void> {
  const movedAt = Number((await readFile(join(dir, MOVED_FILE), 'utf8').catch(() => '0')).trim()) || 0;
  if (movedAt > startedAt) return;
  const list = async (prefix: string) => {
    const out = await runGit(['--git-dir', dir, 'for-each-ref', '--format=%(objectname) %(refname)', prefix], { cwd: dirname(dir) });
    return new Map(
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(line.indexOf(' ') + 1), line.slice(0, line.indexOf(' '))] as const),
    );
  };
  const fetched = await list(`${incoming}/`);
  // Its refs gone (dropped as a dead process's by mistake): moving to nothing would delete every branch.
  if (fetched.size === 0) return;
  const current = new Map([...(await list('refs/heads/')), ...(await list('refs/tags/'))]);
  const wanted = new Map<string, string>([...fetched].map(([name, sha]) => [`refs/${name.slice(incoming.length + 1)}`, sha]));
  const commands: string[] = [];
  for (const [name, sha] of wanted) if (current.get(name) !== sha) commands.push(`update ${name} ${sha}`);
  for (const name of current.keys()) if (!wanted.has(name)) commands.push(`delete ${name}`);
  if (commands.length > 0) await runGit(['--git-dir', dir, 'update-ref', '--stdin'], { cwd: dirname(dir), input: `${commands.join('\n')}\n` });
  await writeFile(join(dir, `${MOVED_FILE}.tmp`), String(startedAt));
  await rename(join(dir, `${MOVED_FILE}.tmp`), join(dir, MOVED_FILE));
}

/** The first time this process finds a mirror there, it drops what fetches of dead processes left in it. */
async function sweepOnce(dir: string): Promise<void> {
  if (sweptMirrors.has(dir)) return;
  sweptMirrors.add(dir);
  await dropStaleIncoming(dir, Date.now()).catch(() => undefined);
}

/**
 * What fetches of processes that died before cleaning up left under `refs/wrench-incoming/`, so their objects can be
 * collected: at once when the owning process was on this host and is gone, otherwise once older than any fetch can
 * run (git's own time limit).
 */
async function dropStaleIncoming(dir: string, now: number): Promise<void> {
  const out = await runGit(['--git-dir', dir, 'for-each-ref', '--format=%(refname)', `${INCOMING}/`], { cwd: dirname(dir) });
  const stale = out
    .split('\n')
    .filter(Boolean)
    .filter((name) => isStaleIncoming(name, now));
  if (stale.length > 0)
    await runGit(['--git-dir', dir, 'update-ref', '--stdin'], { cwd: dirname(dir), input: stale.map((name) => `delete ${name}\n`).join('') });
}

function isStaleIncoming(name: string, now: number): boolean {
  const [, start, owner = ''] = /^refs\/wrench-incoming\/(\d+)-([^/]+)\//.exec(name) ?? [];
  if (now - Number(start ?? now) > GIT_TIMEOUT_MS) return true;
  const [, pid, host] = /^[0-9a-f-]{36}-(\d+)-([A-Za-z0-9-]+)$/.exec(owner) ?? [];
  return host === HOST && pid !== undefined && Number(pid) !== process.pid && !isRunning(Number(pid));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: running, as another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

async function dropRefs(dir: string, incoming: string): Promise<void> {
  const out = await runGit(['--git-dir', dir, 'for-each-ref', '--format=%(refname)', `${incoming}/`], { cwd: dirname(dir) });
  const names = out.split('\n').filter(Boolean);
  if (names.length > 0)
    await runGit(['--git-dir', dir, 'update-ref', '--stdin'], { cwd: dirname(dir), input: names.map((name) => `delete ${name}\n`).join('') });
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

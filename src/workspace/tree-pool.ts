import { createHash } from 'node:crypto';
import { copyFile, lstat, mkdir, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { WrenchError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import { dependencyFingerprint, dropToolCaches } from '../warm-cache/dependency-fingerprint.js';
import { cloneWorkspace } from './clone-workspace.js';
import { removeWorkspace } from './remove-workspace.js';
import { refsByName } from './remote-refs.js';
import { runGit } from './run-git.js';
import { type Git, switchBranch } from './switch-branch.js';
import type { JobWorkspace } from './workspace-types.js';

export interface TakeTreeOptions {
  /** Where the pools live (`WRENCH_DATA_DIR/trees`). */
  root: string;
  /** The repository the trees belong to (`acme/web`, or a local path): a tree never serves another repository. */
  repository: string;
  /** Local repository the tree is cloned and fetched from: the mirror, or a user's own repository. */
  source: string;
  /** `origin` of the tree: the public URL, so the agent never learns the source path. */
  originUrl: string;
  label: string;
  baseBranch?: string;
  branch: string;
  existingBranch?: boolean;
  /** Trees kept for this repository. */
  size: number;
  /** Directories (the restored dependencies) kept from one job to the next when nothing in them changed. */
  keep: readonly string[];
  /** The source's branches and tags as just brought up to date (the mirror's): a tree that has them all is not fetched. */
  sourceRefs?: SourceRefs;
  /**
   * When `sourceRefs` was read while the source's own update (the mirror's fetch from GitHub) was still running: that
   * update. The tree switches on `sourceRefs` meanwhile, then again should the update have changed them; when the
   * update fails, so does the take (the tree stays in the pool).
   */
  confirmedSourceRefs?: Promise<SourceRefs>;
  /**
   * Brings the source up to date again (the mirror fetched from GitHub) once the job has given its tree back, so the
   * tree is fetched and checked out at its base's tip then, not at the next job's start (`refreshAhead`). Default:
   * not refreshed.
   */
  refreshSource?: () => Promise<SourceRefs>;
  /** How long a take waits at most for a tree being readied after its job before it clones another. Default 2 minutes. */
  releaseWaitMs?: number;
  log: Logger;
}

/** A repository's branches and tags as sorted `<sha> refs/heads/<name>` / `<sha> refs/tags/<name>` lines, and its default branch. */
export interface SourceRefs {
  refs: string;
  head?: string;
}

export interface TreeLease {
  workspace: JobWorkspace;
  /** An earlier job's tree, reset; false: cloned now. */
  reused: boolean;
  /** The dependency key whose untouched copy the tree already holds. */
  dependencies?: string;
  /** Once the dependencies of `key` are in place (restored from or kept as a snapshot): they may stay for the next job. */
  keepDependencies(key: string): Promise<void>;
  /**
   * Says the job is about to end and `release` will follow (called before its reply goes out): from then on, a job
   * arriving for the repository waits for this tree instead of cloning another.
   */
  releasing(): Promise<void>;
  /** Resets the tree and gives it back to the pool. */
  release(): Promise<void>;
  /**
   * Keeps the tree as it is, moved to `dest` (a rename on the same file system: it works on a full disk), and frees its
   * place in the pool (the next job there clones afresh). For a run that cannot finish, so its work is not reset away.
   */
  keep(dest: string): Promise<void>;
}

interface PackFile {
  size: number;
  ino: number;
}

/** What the pool knows about one tree, kept next to it (outside the tree, so no agent can change it). */
export interface TreeState {
  repository: string;
  source: string;
  /** The pack files the pool itself wrote, as they were: anything else in `.git/objects` is dropped on reset. */
  packs: Record<string, PackFile>;
  /** `refs/remotes/origin/*` and tags as last fetched (packed-refs lines): the next fetch starts from them. */
  refs: string;
  /** The commit the tree is checked out at: the one its job started on while taken, its base's tip once released. */
  startSha: string;
  dependencies?: { key: string; fingerprint: string };
  lastUsed: number;
  /** Reset and verified when its last job ended, and not taken since: a take only fetches and switches. */
  released?: boolean;
}

const LOCK_STALE_MS = 60_000;
const KEPT_FAILURES = new Set(['base_branch_not_found', 'branch_not_found', 'branch_exists']);

/** The source's update failed during a take: the job fails with its error, and the tree is not blamed. */
class SourceNotUpdated extends Error {
  constructor(readonly reason: unknown) {
    super('the source could not be brought up to date');
  }
}

/** Where the pools of every repository live, beside the other data and hidden from every sandbox. */
export function treePoolRoot(dataDir: string): string {
  return join(dataDir, 'trees');
}

/** The directory of one repository's trees. */
export function poolDir(root: string, repository: string): string {
  const readable = repository
    .replace(/[^A-Za-z0-9_.-]+/g, '+')
    .replace(/^[+.]+/, '')
    .slice(-60);
  return join(root, `${readable}-${createHash('sha256').update(repository).digest('hex').slice(0, 10)}`);
}

export const treeFiles = (slot: string) => ({ lock: `${slot}.lock`, state: `${slot}.json`, index: `${slot}.index`, readying: `${slot}.readying` });

/** Locks one tree of the pool for this process; undefined when another job (of any process) holds it. */
export async function lockTree(slot: string, log: Logger): Promise<(() => Promise<void>) | undefined> {
  await mkdir(dirname(slot), { recursive: true, mode: 0o700 });
  try {
    return await lockfile.lock(slot, {
      lockfilePath: treeFiles(slot).lock,
      realpath: false,
      retries: 0,
      stale: LOCK_STALE_MS,
      onCompromised: (error) => log.warn({ err: error, tree: slot }, 'lost the lock of a working tree'),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw error;
  }
}

export async function readTreeState(slot: string): Promise<TreeState | undefined> {
  try {
    return JSON.parse(await readFile(treeFiles(slot).state, 'utf8')) as TreeState;
  } catch {
    return undefined;
  }
}

async function writeTreeState(slot: string, state: TreeState): Promise<void> {
  const file = treeFiles(slot).state;
  await writeFile(`${file}.tmp`, JSON.stringify(state), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

/** Deletes a tree and what the pool knows about it (the caller holds its lock). */
export async function discardTree(slot: string): Promise<void> {
  const files = treeFiles(slot);
  await rm(files.state, { force: true });
  await rm(files.index, { force: true });
  await removeWorkspace(slot);
}

/**
 * A working tree of the repository's pool for one job, locked until `release`: an earlier job's tree reset to a
 * known state and switched to the job's branch (only changed files are written), or a fresh clone in a free place
 * of the pool. A tree still being readied after its job (released, in this process or another) is waited for rather
 * than a new one cloned, unless another job already waits for it; so the pool grows only when jobs of the repository
 * run at the same time, up to `size` trees. undefined when every tree of the pool is in use: the caller clones a
 * throw-away tree instead.
 */
export async function takeTree(options: TakeTreeOptions): Promise<TreeLease | undefined> {
  const pool = poolDir(options.root, options.repository);
  const slots = Array.from({ length: options.size }, (_, i) => join(pool, String(i)));
  const deadline = Date.now() + (options.releaseWaitMs ?? RELEASE_WAIT_MS);
  for (;;) {
    const existing = await Promise.all(slots.map(async (slot) => !!(await readTreeState(slot))));
    const beingReadied: string[] = [];
    for (const slot of slots.filter((_, i) => existing[i])) {
      const lease = await tryLease(slot, options);
      if (lease) return lease;
      if (!awaited.has(slot) && (await isBeingReadied(slot))) beingReadied.push(slot);
    }
    if (beingReadied.length > 0 && Date.now() < deadline) {
      options.log.info({ trees: beingReadied }, 'waiting for a working tree of this repository that is being readied after its job');
      for (const slot of beingReadied) awaited.add(slot);
      try {
        await Promise.race(beingReadied.map((slot) => readied(slot, deadline)));
      } finally {
        for (const slot of beingReadied) awaited.delete(slot);
      }
      continue;
    }
    for (const slot of slots.filter((_, i) => !existing[i])) {
      const lease = await tryLease(slot, options);
      if (lease) return lease;
    }
    return undefined;
  }
}

async function tryLease(slot: string, options: TakeTreeOptions): Promise<TreeLease | undefined> {
  const unlock = await lockTree(slot, options.log);
  if (!unlock) return undefined;
  try {
    return await leaseTree(slot, options, unlock);
  } catch (error) {
    await unlock().catch(() => undefined);
    throw error;
  }
}

/** How long a job waits at most for a tree being readied before it takes another. */
const RELEASE_WAIT_MS = 120_000;
const POLL_MS = 25;
/** Trees this process is readying after their job: done once the tree is back in the pool, unlocked. */
const readying = new Map<string, Promise<void>>();
/** Trees a job of this process already waits for: the next job takes another. */
const awaited = new Set<string>();

/** Whether the tree is being readied after its job, by this process or (per its marker file) another live one. */
async function isBeingReadied(slot: string): Promise<boolean> {
  if (readying.has(slot)) return true;
  const marker = await stat(treeFiles(slot).readying).catch(() => undefined);
  return !!marker && Date.now() - marker.mtimeMs < LOCK_STALE_MS;
}

/** Resolves once the tree is no longer being readied (or at the deadline). */
async function readied(slot: string, deadline: number): Promise<void> {
  const local = readying.get(slot);
  if (local) return local;
  while (Date.now() < deadline && (await isBeingReadied(slot))) await sleep(POLL_MS);
}

async function leaseTree(slot: string, options: TakeTreeOptions, unlock: () => Promise<void>): Promise<TreeLease> {
  const { log } = options;
  let state = await readTreeState(slot);
  let reused = false;
  let workspace: JobWorkspace | undefined;
  if (state && state.repository === options.repository && state.source === options.source) {
    try {
      workspace = await resetTree(slot, state, options, 'take');
      reused = true;
    } catch (error) {
      if (error instanceof SourceNotUpdated) throw error.reason;
      if (error instanceof WrenchError && KEPT_FAILURES.has(error.code)) throw error;
      log.warn({ err: error, tree: slot }, 'working tree not reusable; cloning it afresh');
    }
  }
  if (!workspace) {
    await options.confirmedSourceRefs;
    await discardTree(slot);
    const git: Git = (...args) => runGit(args, { cwd: slot }).then((out) => out.trim());
    workspace = await cloneWorkspace({ ...options, dir: slot });
    if ((await git('count-objects')).match(/^(\d+) objects/)?.[1] !== '0') await git('repack', '-d', '-q');
    state = {
      repository: options.repository,
      source: options.source,
      packs: await packFiles(slot),
      refs: await fetchedRefs(git),
      startSha: workspace.headSha,
      lastUsed: Date.now(),
    };
    await copyFile(join(slot, '.git', 'index'), treeFiles(slot).index);
    await writeTreeState(slot, state);
  }
  if (!state) throw new Error(`The working tree in ${slot} has no recorded state after it was readied.`);
  const current = state;
  let released = false;
  const marker = treeFiles(slot).readying;
  let done: (() => void) | undefined;
  // From now on a take waits for this tree rather than cloning another.
  const announce = async () => {
    if (done) return;
    readying.set(slot, new Promise<void>((resolve) => (done = resolve)));
    await writeFile(marker, String(process.pid)).catch(() => undefined);
  };
  return {
    workspace,
    reused,
    dependencies: current.dependencies?.key,
    async keepDependencies(key) {
      const fingerprint = await dependencyFingerprint(slot, options.keep);
      current.dependencies = fingerprint ? { key, fingerprint } : undefined;
      await writeTreeState(slot, current);
    },
    async releasing() {
      await announce();
    },
    async release() {
      if (released) return;
      released = true;
      let ready = false;
      try {
        await announce();
        await resetTree(slot, current, options, 'release');
        ready = true;
      } catch (error) {
        log.warn({ err: error, tree: slot }, 'could not reset the working tree; removing it');
        await discardTree(slot).catch((err) => log.warn({ err, tree: slot }, 'could not remove the working tree'));
      } finally {
        await unlock().catch((error) => log.warn({ err: error, tree: slot }, 'could not unlock the working tree'));
        await rm(marker, { force: true }).catch(() => undefined);
        readying.delete(slot);
        done?.();
      }
      if (ready) await refreshAhead(slot, options);
    },
    async keep(dest) {
      if (released) return;
      released = true;
      try {
        await mkdir(dirname(dest), { recursive: true, mode: 0o700 });
        await rename(slot, dest);
        await rm(treeFiles(slot).state, { force: true });
        await rm(treeFiles(slot).index, { force: true });
        log.warn({ tree: slot, keptIn: dest }, 'working tree kept as it is, out of the pool');
      } finally {
        await unlock().catch((error) => log.warn({ err: error, tree: slot }, 'could not unlock the working tree'));
        await rm(marker, { force: true }).catch(() => undefined);
        readying.delete(slot);
        done?.();
      }
    },
  };
}

/**
 * Brings a used tree back to a known state: `.git` rebuilt around the pool's own packs (config, hooks, info, refs,
 * index from the pool's records; stashes, other refs and stray objects gone), then on `take` fetched from the
 * source and switched to the job's branch, on `release` back on the commit the job started from; untracked and
 * ignored files removed except untouched dependency directories; HEAD and a clean status verified.
 */
async function resetTree(slot: string, state: TreeState, options: TakeTreeOptions, mode: 'take' | 'release'): Promise<JobWorkspace> {
  const git: Git = (...args) => runGit(args, { cwd: slot }).then((out) => out.trim());
  // Nothing ran in a tree between its verified reset at release and this take: only fetch and switch.
  const light = mode === 'take' && state.released === true;
  state.released = false;
  // Where a reset's time goes (ms per step), logged once a release has readied the tree.
  const took: Record<string, number> = {};
  let last = Date.now();
  const lap = (step: string) => {
    took[step] = Date.now() - last;
    last = Date.now();
  };
  if (light) await writeTreeState(slot, state);
  else await rebuildGitDir(slot, state, options.originUrl);
  lap('git directory');
  // A release resets on the refs the tree already has; the source is refreshed after, once the tree is free (`refreshAhead`).
  let fresh = options.sourceRefs;
  let remoteRefs = mode === 'take' ? await syncRefs(slot, state, options, fresh, git) : refsByName(state.refs);
  let workspace: JobWorkspace;
  let refOnly = false;
  if (mode === 'take') {
    const switchTo = async (cleanAt: string | undefined) => {
      const switched = await switchBranch(git, {
        dir: slot,
        label: options.label,
        baseBranch: options.baseBranch ?? fresh?.head,
        branch: options.branch,
        existingBranch: options.existingBranch,
        force: true,
        remoteRefs,
        cleanAt,
      });
      const tracked = `refs/remotes/origin/${options.existingBranch ? options.branch : switched.baseBranch}`;
      const expected = remoteRefs?.get(tracked) ?? (await git('rev-parse', '--verify', `${tracked}^{commit}`));
      if (switched.headSha !== expected) throw new Error(`HEAD is at ${switched.headSha}, not ${expected}`);
      return switched;
    };
    let switched: JobWorkspace | undefined;
    let refused: unknown;
    try {
      switched = await switchTo(light ? state.startSha : undefined);
      refOnly = light && !options.existingBranch && switched.headSha === state.startSha;
    } catch (error) {
      // A missing or existing branch is judged again on the confirmed refs.
      if (!options.confirmedSourceRefs || !(error instanceof WrenchError && KEPT_FAILURES.has(error.code))) throw error;
      refused = error;
    }
    if (options.confirmedSourceRefs) {
      const confirmed = await options.confirmedSourceRefs.catch((error: unknown) => {
        throw new SourceNotUpdated(error);
      });
      if (confirmed.refs !== fresh?.refs || confirmed.head !== fresh?.head) {
        // The source moved while the tree switched: switch again on what it holds now.
        fresh = confirmed;
        remoteRefs = await syncRefs(slot, state, options, fresh, git);
        switched = await switchTo(undefined);
        refOnly = false;
      } else if (refused) throw refused;
    }
    if (!switched) throw refused;
    workspace = switched;
  } else {
    // Back on the tip of the job's base branch as the tree knows it: the next job there only switches.
    const baseBranch = options.baseBranch ?? fresh?.head;
    const tip = (baseBranch && remoteRefs?.get(`refs/remotes/origin/${baseBranch}`)) || state.startSha;
    await git('checkout', '--quiet', '-f', '--detach', tip);
    lap('checkout');
    workspace = { dir: slot, baseBranch: '', baseSha: tip, branch: '', headSha: tip };
  }
  if (light) {
    // Only a checkout changes the index; the pool's copy of it is kept from the release otherwise.
    if (!refOnly) await copyFile(join(slot, '.git', 'index'), treeFiles(slot).index);
    state.startSha = workspace.headSha;
    state.lastUsed = Date.now();
    await writeTreeState(slot, state);
    return workspace;
  }
  await dropToolCaches(slot);
  const fingerprint = state.dependencies ? await dependencyFingerprint(slot, options.keep) : undefined;
  lap('dependencies checked');
  if (!fingerprint || fingerprint !== state.dependencies?.fingerprint) state.dependencies = undefined;
  const kept = state.dependencies ? options.keep : [];
  await git('clean', '-ffdxq', ...kept.flatMap((name) => ['-e', `/${name}`]));
  lap('clean');
  const status = (await git('status', '--porcelain', '--untracked-files=all'))
    .split('\n')
    .filter((line) => line && !kept.some((name) => line.slice(3).startsWith(`${name}/`)));
  if (status.length > 0) throw new Error(`the tree is not clean after the reset: ${status.slice(0, 3).join('; ')}`);
  if ((await git('rev-parse', 'HEAD')) !== workspace.headSha) throw new Error('HEAD moved during the reset');
  await copyFile(join(slot, '.git', 'index'), treeFiles(slot).index);
  state.startSha = workspace.headSha;
  state.lastUsed = Date.now();
  state.released = mode === 'release';
  await writeTreeState(slot, state);
  lap('status');
  if (mode === 'release') options.log.info({ tree: slot, took }, 'working tree readied for the next job');
  return workspace;
}

/**
 * Once a released tree is back in the pool: the source brought up to date (the mirror fetched from GitHub, with the
 * tree free meanwhile), then the tree, unless a job took it in the meantime, fetched from the source and moved to its
 * base's new tip (only changed files written), so the next job there only switches. A job arriving during that last
 * step waits for it. When it fails, the next take resets the tree fully.
 */
export async function refreshAhead(slot: string, options: TakeTreeOptions): Promise<void> {
  const fresh = await refreshedSource(options);
  if (!fresh) return;
  const state = await readTreeState(slot);
  if (!state?.released || trackingRefs(fresh.refs) === state.refs) return;
  const unlock = await lockTree(slot, options.log);
  if (!unlock) return;
  let done!: () => void;
  readying.set(slot, new Promise<void>((resolve) => (done = resolve)));
  const marker = treeFiles(slot).readying;
  const started = Date.now();
  try {
    await writeFile(marker, String(process.pid)).catch(() => undefined);
    const current = await readTreeState(slot);
    if (!current?.released || current.repository !== options.repository || current.source !== options.source) return;
    const git: Git = (...args) => runGit(args, { cwd: slot }).then((out) => out.trim());
    try {
      const remoteRefs = (await syncRefs(slot, current, options, fresh, git)) ?? refsByName(current.refs);
      const baseBranch = options.baseBranch ?? fresh.head;
      const tip = (baseBranch && remoteRefs.get(`refs/remotes/origin/${baseBranch}`)) || current.startSha;
      if (tip !== current.startSha) {
        await git('checkout', '--quiet', '-f', '--detach', tip);
        const kept = current.dependencies ? options.keep : [];
        const status = (await git('status', '--porcelain', '--untracked-files=all'))
          .split('\n')
          .filter((line) => line && !kept.some((name) => line.slice(3).startsWith(`${name}/`)));
        if (status.length > 0) throw new Error(`the tree is not clean after moving to ${tip}: ${status.slice(0, 3).join('; ')}`);
        await copyFile(join(slot, '.git', 'index'), treeFiles(slot).index);
        current.startSha = tip;
      }
      current.lastUsed = Date.now();
      await writeTreeState(slot, current);
      options.log.info({ tree: slot, tip, ms: Date.now() - started }, 'working tree brought up to date ahead of the next job');
    } catch (error) {
      options.log.warn({ err: error, tree: slot }, 'could not bring the working tree up to date; the next job resets it fully');
      current.released = false;
      await writeTreeState(slot, current).catch(() => undefined);
    }
  } finally {
    await unlock().catch(() => undefined);
    await rm(marker, { force: true }).catch(() => undefined);
    readying.delete(slot);
    done();
  }
}

async function refreshedSource(options: TakeTreeOptions): Promise<SourceRefs | undefined> {
  if (!options.refreshSource) return undefined;
  return options.refreshSource().catch((error) => {
    options.log.warn({ err: error }, 'could not bring the repository up to date for the next job; the tree stays where it was');
    return undefined;
  });
}

/**
 * The tree's `refs/remotes/origin/*` and tags made equal to the source's: nothing to do when the tree already has
 * exactly `fresh` (known without asking git), else fetched from the source. `origin/HEAD` follows the source's default
 * branch. Returns the remote-tracking refs by name when known, so the switch needs no lookups.
 */
async function syncRefs(slot: string, state: TreeState, options: TakeTreeOptions, fresh: SourceRefs | undefined, git: Git) {
  const wanted = fresh ? trackingRefs(fresh.refs) : undefined;
  if (wanted === undefined || wanted !== state.refs) {
    await git(
      '-c',
      'fetch.unpackLimit=1',
      '-c',
      'transfer.unpackLimit=1',
      '-c',
      'core.logAllRefUpdates=false',
      'fetch',
      '--quiet',
      '--prune',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-auto-gc',
      '--',
      options.source,
      '+refs/heads/*:refs/remotes/origin/*',
      '+refs/tags/*:refs/tags/*',
    );
    state.packs = { ...state.packs, ...(await packFiles(slot, state.packs)) };
    state.refs = await fetchedRefs(git);
  }
  const head = fresh?.head ?? (await sourceHead(options.source, git));
  const originHead = join(slot, '.git', 'refs', 'remotes', 'origin', 'HEAD');
  const pointsAt = (await readFile(originHead, 'utf8').catch(() => '')).trim();
  if (head && pointsAt !== `ref: refs/remotes/origin/${head}`) await git('symbolic-ref', 'refs/remotes/origin/HEAD', `refs/remotes/origin/${head}`);
  if (wanted !== state.refs) return undefined;
  return refsByName(state.refs);
}

/** The source's `refs/heads/*` lines as this tree's `refs/remotes/origin/*`, sorted as `for-each-ref` sorts them. */
function trackingRefs(sourceRefs: string): string {
  const name = (line: string) => line.slice(line.indexOf(' ') + 1);
  const lines = sourceRefs
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(' refs/heads/', ' refs/remotes/origin/'))
    .sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** The source's default branch, read from its HEAD file (bare or not), else asked with ls-remote. */
async function sourceHead(source: string, git: Git): Promise<string | undefined> {
  for (const file of [join(source, 'HEAD'), join(source, '.git', 'HEAD')]) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    const branch = text ? /^ref: refs\/heads\/(\S+)\s*$/.exec(text)?.[1] : undefined;
    if (branch) return branch;
  }
  return /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(await git('ls-remote', '--symref', '--', source, 'HEAD'))?.[1];
}

async function rebuildGitDir(slot: string, state: TreeState, originUrl: string): Promise<void> {
  const gitDir = join(slot, '.git');
  const objects = join(gitDir, 'objects');
  const packs = join(objects, 'pack');
  for (const dir of [slot, gitDir, objects, packs]) {
    if (!(await lstat(dir)).isDirectory()) throw new Error(`${dir} is not a plain directory`);
  }
  const present = await packFiles(slot);
  for (const [name, known] of Object.entries(state.packs)) {
    const found = present[name];
    // Not their times: git freshens a pack's times when it writes an object the pack already has.
    if (!found || found.size !== known.size || found.ino !== known.ino) throw new Error(`pack file ${name} changed`);
  }
  for (const name of await readdir(packs)) if (!state.packs[name]) await rm(join(packs, name), { recursive: true, force: true });
  for (const name of await readdir(objects)) if (name !== 'pack') await rm(join(objects, name), { recursive: true, force: true });
  for (const name of await readdir(gitDir)) if (name !== 'objects') await rm(join(gitDir, name), { recursive: true, force: true });
  await mkdir(join(objects, 'info'));
  await mkdir(join(gitDir, 'hooks'));
  await mkdir(join(gitDir, 'info'));
  await mkdir(join(gitDir, 'refs', 'heads'), { recursive: true });
  await mkdir(join(gitDir, 'refs', 'tags'));
  await writeFile(join(gitDir, 'info', 'exclude'), '');
  await writeFile(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
  await writeFile(join(gitDir, 'packed-refs'), state.refs);
  await writeFile(join(gitDir, 'config'), knownConfig(originUrl), { mode: 0o600 });
  await copyFile(treeFiles(slot).index, join(gitDir, 'index'));
  // An index older than every file makes git compare each file's content: a job's edit that kept the size and (to the
  // second) the times git records would otherwise pass as unchanged.
  await utimes(join(gitDir, 'index'), 1, 1);
}

function knownConfig(originUrl: string): string {
  const url = originUrl.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return [
    '[core]',
    '\trepositoryformatversion = 0',
    '\tfilemode = true',
    '\tbare = false',
    '\tlogallrefupdates = true',
    '[remote "origin"]',
    `\turl = "${url}"`,
    '\tfetch = +refs/heads/*:refs/remotes/origin/*',
    '',
  ].join('\n');
}

/** The files of `.git/objects/pack` (only those not in `known`, when given) as they are now. */
async function packFiles(slot: string, known: Record<string, PackFile> = {}): Promise<Record<string, PackFile>> {
  const dir = join(slot, '.git', 'objects', 'pack');
  const files: Record<string, PackFile> = {};
  for (const name of await readdir(dir)) {
    if (known[name] || !/^pack-[0-9a-f]+\.(pack|idx|rev|bitmap)$/.test(name)) continue;
    const stats = await lstat(join(dir, name));
    if (stats.isFile()) files[name] = { size: stats.size, ino: stats.ino };
  }
  return files;
}

async function fetchedRefs(git: Git): Promise<string> {
  const listing = await git('for-each-ref', '--format=%(objectname) %(refname)', 'refs/remotes/origin', 'refs/tags');
  const lines = listing.split('\n').filter((line) => line && !line.endsWith(' refs/remotes/origin/HEAD'));
  return lines.length ? `${lines.join('\n')}\n` : '';
}

import type { Logger } from '../../src/logging/logger.js';
import { DEPENDENCY_DIRS } from '../../src/warm-cache/dependency-snapshots.js';
import { evictCaches, evictionLimits } from '../../src/warm-cache/evict-caches.js';
import { assertBranchName } from '../../src/workspace/assert-branch-name.js';
import { copyBaseTree } from '../../src/workspace/base-tree-copy.js';
import { cloneWorkspace } from '../../src/workspace/clone-workspace.js';
import { workspaceDir } from '../../src/workspace/job-workspace.js';
import { localRepository } from '../../src/workspace/local-workspace.js';
import { type Mirror, updateMirror } from '../../src/workspace/mirror-cache.js';
import { removeWorkspace } from '../../src/workspace/remove-workspace.js';
import { repositoryUrl } from '../../src/workspace/repository-url.js';
import { type SourceRefs, poolDir, readTreeState, refreshAhead, takeTree, treePoolRoot } from '../../src/workspace/tree-pool.js';
import { mkdir, readdir, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BranchMove } from '../../src/workspace/branch-moves.js';
import type { JobWorkspace } from '../../src/workspace/workspace-types.js';
import type { EgressRefusal } from '../../src/sandbox/egress/egress-proxy.js';
import { afterTheJob } from '../background-work.js';
import { jobSandbox } from '../job-sandbox.js';
import type { RunnerDeps } from '../runner-deps.js';
import type { WarmStart } from '../verify-change.js';

/** Which checkout a run works in. */
export interface WorkspaceRequest {
  owner: string;
  repo: string;
  baseBranch?: string;
  branch: string;
  existingBranch?: boolean;
  /** `wrench run --repo PATH`: a local checkout instead of a clone. */
  localPath?: string;
}

/** A run's working tree until `release`: a tree of the repository's pool, or a fresh clone when the pool is off or busy. */
export interface WorkspaceLease {
  workspace: JobWorkspace;
  /** What the verifier may start warm from besides the caches: dependencies already in the tree, a base tree of its own. */
  warm: Partial<WarmStart>;
  /** The job is about to end (its reply goes out next): the next job of the repository waits for this tree. */
  releasing(): Promise<void>;
  /**
   * The clone removed, or the pooled tree handed back: it is reset and refreshed after the job (`afterTheJob`), so the
   * job can end at once.
   */
  release(): Promise<void>;
  /** Instead of `release`: the tree kept as it is, moved to `dest` (a run that cannot finish keeps its work there). */
  keep(dest: string): Promise<void>;
}

export async function openWorkspace(
  request: WorkspaceRequest,
  deps: RunnerDeps,
  jobId: string,
  log: Logger,
  onEgressRefused?: (refusal: EgressRefusal) => void,
): Promise<WorkspaceLease> {
  const { config } = deps;
  let source: string;
  let originUrl: string;
  let label: string;
  let sourceRefs: SourceRefs | undefined;
  let refreshSource: (() => Promise<SourceRefs>) | undefined;
  let confirmedSourceRefs: Promise<SourceRefs> | undefined;
  if (request.localPath) {
    await checkBranchNames(request);
    source = originUrl = label = await localRepository(request.localPath);
  } else {
    originUrl = repositoryUrl(config.env.GIT_BASE_URL, request.owner, request.repo);
    label = `${request.owner}/${request.repo}`;
    const refreshMirror = async (onHeldRefs?: (mirror: Mirror) => void) => {
      const credential = await deps.gitCredential?.(request.owner, request.repo);
      return updateMirror({ dataDir: config.dataDir, gitBaseUrl: config.env.GIT_BASE_URL, owner: request.owner, repo: request.repo, credential, onHeldRefs });
    };
    refreshSource = refreshMirror;
    await checkBranchNames(request);
    // Asking GitHub whether anything changed is the longest step. While it is under way, a pooled tree switches on what
    // the mirror holds (and again, should GitHub have news).
    let held: (mirror: Mirror | undefined) => void = () => undefined;
    const heldRefs = new Promise<Mirror | undefined>((resolve) => {
      held = resolve;
    });
    const update = refreshMirror(held);
    update.catch(() => undefined);
    const known = await Promise.race([
      heldRefs,
      update.then(
        () => undefined,
        () => undefined,
      ),
    ]);
    if (known && config.file.cache.trees) {
      source = known.dir;
      sourceRefs = known;
      confirmedSourceRefs = update;
    } else {
      const mirror = await update;
      source = mirror.dir;
      sourceRefs = mirror;
    }
  }
  const checkout = { source, originUrl, label, baseBranch: request.baseBranch, branch: request.branch, existingBranch: request.existingBranch };
  const baseTreeDir = workspaceDir(config.dataDir, `${jobId}-base`);
  const baseTree: WarmStart['baseTree'] = async (sha) => {
    await copyBaseTree(source, sha, baseTreeDir, originUrl);
    return { dir: baseTreeDir, sandbox: jobSandbox(deps, baseTreeDir, { readOnly: false, log, onEgressRefused }), dispose: () => removeWorkspace(baseTreeDir) };
  };

  const cache = config.file.cache;
  const lease = cache.trees
    ? await takeTree({
        ...checkout,
        root: treePoolRoot(config.dataDir),
        repository: request.localPath ? `local:${source}` : label,
        size: cache.treesPerRepository,
        keep: DEPENDENCY_DIRS,
        sourceRefs,
        confirmedSourceRefs,
        refreshSource,
        log,
      })
    : undefined;
  if (lease) {
    log.info({ tree: lease.workspace.dir, reused: lease.reused }, lease.reused ? 'working tree reused from the pool' : 'working tree cloned into the pool');
    return {
      workspace: lease.workspace,
      warm: { baseTree, dependenciesInPlace: lease.dependencies, onDependenciesInPlace: (key) => lease.keepDependencies(key) },
      releasing: () => lease.releasing(),
      release: async () => {
        // The job ends here (its reply is out): the tree is readied and refreshed after, while the worker takes its next
        // job. A job arriving for the repository meanwhile waits for this tree (`releasing` announced it).
        afterTheJob(
          lease.release().finally(() => evictNowAndThen(deps, log)),
          log,
          'could not give the working tree back to the pool',
        );
      },
      keep: (dest) => lease.keep(dest),
    };
  }
  if (cache.trees) log.info('every pooled working tree of this repository is in use; cloning a throw-away one');
  // A throw-away clone starts from the mirror once GitHub's answer is in.
  await confirmedSourceRefs;
  const dir = workspaceDir(config.dataDir, jobId);
  const workspace = await cloneWorkspace({ ...checkout, dir });
  return {
    workspace,
    warm: { baseTree },
    releasing: async () => undefined,
    release: () => removeWorkspace(dir).finally(() => evictNowAndThen(deps, log)),
    keep: async (dest) => {
      await mkdir(dirname(dest), { recursive: true, mode: 0o700 });
      await rename(dir, dest);
    },
  };
}

/**
 * GitHub says a base branch moved: the repository's mirror is fetched once, then each of its pooled trees that is back
 * in the pool is fetched from the mirror and checked out at the branch's new tip (trees in use are left to their job).
 * Returns how many trees were brought up to date. Nothing is done for a repository this worker holds no tree of.
 */
export async function refreshPooledTrees(move: BranchMove, deps: RunnerDeps, log: Logger): Promise<number> {
  const { config } = deps;
  const label = `${move.owner}/${move.repo}`;
  const pool = poolDir(treePoolRoot(config.dataDir), label);
  const slots = (await readdir(pool).catch(() => [] as string[])).filter((name) => /^\d+$/.test(name)).map((name) => join(pool, name));
  const released = [];
  for (const slot of slots) if ((await readTreeState(slot))?.released) released.push(slot);
  if (released.length === 0) return 0;
  const credential = await deps.gitCredential?.(move.owner, move.repo);
  const mirror = await updateMirror({ dataDir: config.dataDir, gitBaseUrl: config.env.GIT_BASE_URL, owner: move.owner, repo: move.repo, credential });
  const options = {
    root: treePoolRoot(config.dataDir),
    repository: label,
    source: mirror.dir,
    originUrl: repositoryUrl(config.env.GIT_BASE_URL, move.owner, move.repo),
    label,
    baseBranch: move.branch,
    branch: move.branch,
    size: config.file.cache.treesPerRepository,
    keep: DEPENDENCY_DIRS,
    refreshSource: async () => mirror,
    log,
  };
  let refreshed = 0;
  for (const slot of released) {
    await refreshAhead(slot, options);
    if ((await readTreeState(slot))?.startSha === move.after) refreshed++;
  }
  return refreshed;
}

function checkBranchNames(request: WorkspaceRequest): Promise<unknown> {
  return Promise.all([assertBranchName(request.branch), request.baseBranch === undefined || assertBranchName(request.baseBranch)]);
}

const EVICTION_EVERY_MS = 10 * 60_000;
let lastEviction = 0;

/** After a job, at most every ten minutes per process and in the background: old and oversized cache entries go. */
function evictNowAndThen(deps: RunnerDeps, log: Logger): void {
  if (Date.now() - lastEviction < EVICTION_EVERY_MS) return;
  lastEviction = Date.now();
  evictCaches(deps.config.dataDir, evictionLimits(deps.config.file.cache), log).catch((error) => log.warn({ err: error }, 'cache eviction failed'));
}

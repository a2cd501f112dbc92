import { branchExists, commitsBetween, countBetween, diffFiles, isoZ, mergeBase, resolveRef, type CommitInfo } from './git-read.js';
import type { FileDiff } from './diff-parse.js';
import { git, gitOut } from './git.js';
import { HttpError, validationFailed } from './router.js';
import type { GitHubState, PullRecord } from './state.js';

const CREATE_DOCS = 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request';

export interface NewPull {
  owner: string;
  repo: string;
  title: string;
  head: string;
  base: string;
  body?: string | null;
  draft?: boolean;
  user: string;
  maintainer_can_modify?: boolean;
  /** A fork's `owner/repo`, when the head branch is not in this repository. */
  headRepo?: string;
}

/** Opens a pull request after the checks GitHub makes (branches exist, commits between, no duplicate). */
export async function createPull(state: GitHubState, input: NewPull): Promise<PullRecord> {
  const gitDir = state.gitDir(input.owner, input.repo);
  const headRef = input.head.includes(':') ? (input.head.split(':')[1] ?? '') : input.head;
  if (!input.title) throw validationFailed([{ resource: 'PullRequest', code: 'missing_field', field: 'title' }], CREATE_DOCS);
  if (!(await branchExists(gitDir, input.base))) {
    throw validationFailed([{ resource: 'PullRequest', field: 'base', code: 'invalid' }], CREATE_DOCS);
  }
  if (!(await branchExists(gitDir, headRef))) {
    throw validationFailed([{ resource: 'PullRequest', field: 'head', code: 'invalid' }], CREATE_DOCS);
  }
  const duplicate = state.pullsOf(input.owner, input.repo).find((p) => p.state === 'open' && p.headRef === headRef && p.baseRef === input.base);
  if (duplicate) {
    throw validationFailed([{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${input.owner}:${headRef}.` }], CREATE_DOCS);
  }
  const headSha = (await resolveRef(gitDir, headRef))!;
  const baseSha = (await resolveRef(gitDir, input.base))!;
  if ((await countBetween(gitDir, baseSha, headSha)) === 0) {
    throw validationFailed([{ resource: 'PullRequest', code: 'custom', message: `No commits between ${input.base} and ${headRef}` }], CREATE_DOCS);
  }
  const now = isoZ(Date.now());
  const pull: PullRecord = {
    owner: input.owner,
    repo: input.repo,
    number: state.nextNumber(input.owner, input.repo),
    id: state.nextId(),
    title: input.title,
    body: input.body ?? null,
    state: 'open',
    draft: input.draft ?? false,
    headRef,
    baseRef: input.base,
    headSha,
    baseSha,
    user: input.user,
    created_at: now,
    updated_at: now,
    closed_at: null,
    merged_at: null,
    merge_commit_sha: null,
    merged_by: null,
    maintainer_can_modify: input.maintainer_can_modify ?? true,
    ...(input.headRepo ? { headRepo: input.headRepo } : {}),
  };
  state.pulls.push(pull);
  return pull;
}

/** Brings an open pull request's head and base shas up to date with the branches. */
export async function refreshPull(state: GitHubState, pull: PullRecord): Promise<PullRecord> {
  if (pull.state !== 'open') return pull;
  const gitDir = state.gitDir(pull.owner, pull.repo);
  pull.headSha = (await resolveRef(gitDir, pull.headRef)) ?? pull.headSha;
  pull.baseSha = (await resolveRef(gitDir, pull.baseRef)) ?? pull.baseSha;
  return pull;
}

export async function pullDiff(state: GitHubState, pull: PullRecord): Promise<FileDiff[]> {
  const gitDir = state.gitDir(pull.owner, pull.repo);
  const base = (await mergeBase(gitDir, pull.baseSha, pull.headSha)) ?? pull.baseSha;
  return diffFiles(gitDir, base, pull.headSha);
}

export function pullCommits(state: GitHubState, pull: PullRecord): Promise<CommitInfo[]> {
  return commitsBetween(state.gitDir(pull.owner, pull.repo), pull.baseSha, pull.headSha);
}

export async function isMergeable(state: GitHubState, pull: PullRecord): Promise<boolean> {
  const result = await git(['merge-tree', '--write-tree', pull.baseSha, pull.headSha], {
    gitDir: state.gitDir(pull.owner, pull.repo),
    allowFailure: true,
  });
  return result.code === 0;
}

export interface MergeOptions {
  method?: 'merge' | 'squash' | 'rebase';
  title?: string;
  message?: string;
  login?: string;
}

/** Merges for real in the bare repository (merge commit, or one squashed commit) and marks the pull request merged. */
export async function mergePull(state: GitHubState, pull: PullRecord, options: MergeOptions = {}): Promise<string> {
  await refreshPull(state, pull);
  if (pull.state !== 'open') throw new HttpError(405, { message: 'Pull Request is not mergeable', status: '405' });
  const gitDir = state.gitDir(pull.owner, pull.repo);
  const merged = await git(['merge-tree', '--write-tree', pull.baseSha, pull.headSha], { gitDir, allowFailure: true });
  if (merged.code !== 0) throw new HttpError(405, { message: 'Pull Request is not mergeable', status: '405' });
  const tree = merged.stdout.split('\n')[0]!.trim();
  const squash = options.method === 'squash' || options.method === 'rebase';
  const title = options.title ?? (squash ? `${pull.title} (#${pull.number})` : `Merge pull request #${pull.number} from ${pull.owner}/${pull.headRef}`);
  const message = options.message ?? (squash ? '' : pull.title);
  const parents = squash ? ['-p', pull.baseSha] : ['-p', pull.baseSha, '-p', pull.headSha];
  const commit = await gitOut(['commit-tree', tree, ...parents, '-m', message ? `${title}\n\n${message}` : title], { gitDir });
  await git(['update-ref', `refs/heads/${pull.baseRef}`, commit, pull.baseSha], { gitDir });
  const now = isoZ(Date.now());
  Object.assign(pull, {
    state: 'closed',
    merged_at: now,
    closed_at: now,
    updated_at: now,
    merge_commit_sha: commit,
    merged_by: options.login ?? pull.user,
  });
  return commit;
}

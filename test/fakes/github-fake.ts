import { rm } from 'node:fs/promises';
import { makeTempDir } from '../helpers/temp-dir.js';
import { commitToBranch, resolveCommit, type CommitSpec } from './github/commit-builder.js';
import { createBareRepo, type CreateRepoOptions } from './github/create-repo.js';
import { PatternFailures, type FailurePattern, type GitHubFailure } from './github/failures.js';
import { createPull, mergePull, refreshPull, type MergeOptions } from './github/pull-ops.js';
import { gitHubRequestHandler, type GitHubRequest } from './github/server.js';
import { pullJson, repoJson } from './github/shapes.js';
import { GitHubState, type IssueCommentRecord, type PullRecord, type ReviewCommentRecord, type ReviewRecord } from './github/state.js';
import { defaultBranch } from './github/git-read.js';
import { listen } from './shared/http.js';
import { pollFor } from './shared/wait-for.js';

export type { CommitSpec, FileChange } from './github/commit-builder.js';
export type { CreateRepoOptions } from './github/create-repo.js';
export type { GitHubFailure, FailurePattern } from './github/failures.js';
export type { GitHubRequest } from './github/server.js';
export type { IssueCommentRecord, PullRecord, ReviewCommentRecord, ReviewRecord } from './github/state.js';
export { GIT_ENV } from './github/git.js';

export interface GitHubFakeOptions {
  /** Where bare repositories live (`${root}/${owner}/${repo}.git`); a temp dir (removed on stop) by default. */
  root?: string;
  /** token -> login of the caller. */
  users?: Record<string, string>;
  /** Login for tokens not in `users` (default `wrench-bot`). */
  defaultLogin?: string;
  /** Refuse tokens not in `users` with 401 Bad credentials. */
  strictTokens?: boolean;
}

export interface NewPullInput {
  title: string;
  head: string;
  base?: string;
  body?: string;
  draft?: boolean;
  /** Login of the author (default `octocat`), e.g. someone else's PR for Wrench to review. */
  user?: string;
}

export interface GitHubFake {
  /** Octokit `baseUrl` / GITHUB_API_URL. */
  url: string;
  root: string;
  /** GIT_BASE_URL: `file://${root}`. */
  gitBaseUrl: string;
  requests: GitHubRequest[];
  createRepo(owner: string, repo: string, files: CreateRepoFiles, options?: CreateRepoOptions & { private?: boolean; description?: string }): Promise<{ gitDir: string; cloneUrl: string; head: string }>;
  /** Adds a real commit to `branch` (created from `from`, default the default branch, when new). */
  commit(owner: string, repo: string, branch: string, spec: CommitSpec, from?: string): Promise<string>;
  branchSha(owner: string, repo: string, branch: string): Promise<string | undefined>;
  gitDir(owner: string, repo: string): string;
  cloneUrl(owner: string, repo: string): string;
  createPull(owner: string, repo: string, input: NewPullInput): Promise<Record<string, unknown>>;
  mergePull(owner: string, repo: string, number: number, options?: MergeOptions): Promise<string>;
  /** The pull request with this number when exactly one repository has it. */
  mergePull(number: number, options?: MergeOptions): Promise<string>;
  pulls(owner?: string, repo?: string): PullRecord[];
  reviews: ReviewRecord[];
  reviewComments: ReviewCommentRecord[];
  issueComments: IssueCommentRecord[];
  failNext(pattern: FailurePattern, failure: GitHubFailure, times?: number): void;
  waitFor(predicate: (request: GitHubRequest) => boolean, timeoutMs?: number): Promise<GitHubRequest>;
  stop(): Promise<void>;
}

type CreateRepoFiles = Parameters<typeof createBareRepo>[1];

export async function startGitHubFake(options: GitHubFakeOptions = {}): Promise<GitHubFake> {
  const temp = options.root ? undefined : await makeTempDir('wrench-github-');
  const root = options.root ?? temp!.path;
  const state = new GitHubState(root);
  const requests: GitHubRequest[] = [];
  const failures = new PatternFailures<GitHubFailure>();
  const server = await listen(
    gitHubRequestHandler({
      state,
      requests,
      failures,
      users: options.users ?? {},
      defaultLogin: options.defaultLogin ?? 'wrench-bot',
      strictTokens: options.strictTokens ?? false,
    }),
    'github-fake',
  );
  state.baseUrl = server.url;

  const findPull = (owner: string, repo: string, number: number): PullRecord => {
    const pull = state.pull(owner, repo, number);
    if (!pull) throw new Error(`github-fake: no pull request ${owner}/${repo}#${number}`);
    return pull;
  };

  async function mergePullFor(...args: unknown[]): Promise<string> {
    if (typeof args[0] === 'number') {
      const matching = state.pulls.filter((p) => p.number === args[0]);
      if (matching.length !== 1) throw new Error(`github-fake: ${matching.length} pull requests are numbered ${args[0]}; name the repository`);
      return mergePull(state, matching[0], args[1] as MergeOptions | undefined);
    }
    const [owner, repo, number, mergeOptions] = args as [string, string, number, MergeOptions | undefined];
    return mergePull(state, findPull(owner, repo, number), mergeOptions);
  }

  return {
    url: server.url,
    root,
    gitBaseUrl: `file://${root}`,
    requests,
    async createRepo(owner, repo, files, repoOptions = {}) {
      const gitDir = state.gitDir(owner, repo);
      const head = await createBareRepo(gitDir, files, repoOptions);
      const settings = state.settings(owner, repo);
      settings.private = repoOptions.private ?? false;
      settings.description = repoOptions.description ?? null;
      return { gitDir, cloneUrl: `file://${gitDir}`, head };
    },
    async commit(owner, repo, branch, spec, from) {
      const gitDir = state.gitDir(owner, repo);
      return commitToBranch(gitDir, branch, spec, from ?? (await defaultBranch(gitDir)));
    },
    branchSha: (owner, repo, branch) => resolveCommit(state.gitDir(owner, repo), `refs/heads/${branch}`),
    gitDir: (owner, repo) => state.gitDir(owner, repo),
    cloneUrl: (owner, repo) => `file://${state.gitDir(owner, repo)}`,
    async createPull(owner, repo, input) {
      const gitDir = state.gitDir(owner, repo);
      const base = input.base ?? (await defaultBranch(gitDir));
      const pull = await createPull(state, { owner, repo, title: input.title, head: input.head, base, body: input.body, draft: input.draft, user: input.user ?? 'octocat' });
      return pullJson(state, await refreshPull(state, pull), { repo: repoJson(state, owner, repo, await defaultBranch(gitDir)) });
    },
    mergePull: mergePullFor as GitHubFake['mergePull'],
    pulls: (owner, repo) => state.pulls.filter((p) => (!owner || p.owner === owner) && (!repo || p.repo === repo)),
    reviews: state.reviews,
    reviewComments: state.reviewComments,
    issueComments: state.issueComments,
    failNext: (pattern, failure, times) => failures.add(pattern, failure, times),
    waitFor: (predicate, timeoutMs = 5000) =>
      pollFor(
        () => requests.find(predicate),
        timeoutMs,
        () => `no GitHub request matched; requests so far: ${requests.map((r) => `${r.method} ${r.path}`).join(', ') || '(none)'}`,
      ),
    async stop() {
      await server.close();
      if (temp) await rm(temp.path, { recursive: true, force: true });
    },
  };
}

import { rm } from 'node:fs/promises';
import { makeTempDir } from '../helpers/temp-dir.js';
import { commitToBranch, resolveCommit, type CommitSpec } from './github/commit-builder.js';
import { createBareRepo, type CreateRepoOptions } from './github/create-repo.js';
import { PatternFailures, requestHold, type FailurePattern, type GitHubFailure, type HeldRequest, type RequestHold } from './github/failures.js';
import { createPull, mergePull, refreshPull, type MergeOptions } from './github/pull-ops.js';
import { git } from './github/git.js';
import { addDeploymentStatus } from './github/routes/deployments.js';
import { gitHubRequestHandler } from './github/server.js';
import { pullJson, repoJson } from './github/shapes.js';
import { FakeApp, type FakeAppOptions } from './github/app-auth.js';
import {
  checkRunPayload,
  issueCommentPayload,
  pullClosedPayload,
  pushPayload,
  reviewCommentPayload,
  reviewPayload,
  statusPayload,
  workflowRunPayload,
} from './github/webhook-payloads.js';
import { isoZ } from './github/git-read.js';
import {
  ACTIONS_APP,
  GitHubState,
  type CheckAnnotation,
  type CheckRunRecord,
  type DeploymentRecord,
  type DeploymentState,
  type GitHubRequest,
  type ReleaseRecord,
  type IssueCommentRecord,
  type IssueRecord,
  type PullRecord,
  type ReactionRecord,
  type ReviewCommentRecord,
  type ReviewRecord,
} from './github/state.js';
import { defaultBranch } from './github/git-read.js';
import { listen } from './shared/http.js';
import { pollFor } from './shared/wait-for.js';

export type { CommitSpec, FileChange } from './github/commit-builder.js';
export type { CreateRepoOptions } from './github/create-repo.js';
export type { GitHubFailure, FailurePattern, HeldRequest } from './github/failures.js';
export type { GitHubRequest } from './github/state.js';
export type { FakeAppOptions } from './github/app-auth.js';
export type { CheckAnnotation, CheckRunRecord, IssueCommentRecord, IssueRecord, PullRecord, ReviewCommentRecord, ReviewRecord } from './github/state.js';
export { GIT_ENV } from './github/git.js';
export { missingPermission } from './github/permissions.js';

export interface GitHubFakeOptions {
  /** Where bare repositories live (`${root}/${owner}/${repo}.git`); a temp dir (removed on stop) by default. */
  root?: string;
  /** token -> login of the caller. */
  users?: Record<string, string>;
  /** Login for tokens not in `users` (default `wrench-bot`). */
  defaultLogin?: string;
  /** Refuse tokens not in `users` with 401 Bad credentials. */
  strictTokens?: boolean;
  /** Act as GitHub for this App too: JWT-checked /app routes, installations and installation tokens. */
  app?: FakeAppOptions;
}

export interface NewCheckRun {
  name: string;
  headSha: string;
  conclusion: NonNullable<CheckRunRecord['conclusion']>;
  /** The job's plain-text log (GET .../actions/jobs/{id}/logs). */
  log?: string;
  /** Jobs of one workflow run share it (default: a new run). */
  runId?: number;
  /** Another CI's check run (e.g. `{ id: 18001, slug: 'circleci-checks', name: 'CircleCI Checks' }`): no Actions log. */
  app?: CheckRunRecord['app'];
  output?: Partial<CheckRunRecord['output']>;
  annotations?: CheckAnnotation[];
}

/** Webhook payloads built from the fake's records (test/fakes/github/webhook-payloads.ts). */
export interface WebhookPayloads {
  reviewComment(commentId: number): Record<string, unknown>;
  review(reviewId: number): Record<string, unknown>;
  issueComment(commentId: number): Record<string, unknown>;
  checkRun(checkRunId: number): Record<string, unknown>;
  workflowRun(runId: number): Record<string, unknown>;
  pullClosed(owner: string, repo: string, number: number, sender?: string): Record<string, unknown>;
  /** A push that moved `branch` from `before` to its tip now (make the commits first, with `commit`). */
  push(owner: string, repo: string, branch: string, before: string, pusher?: string): Promise<Record<string, unknown>>;
  /** A commit status on `sha` (Jenkins, Travis...), with the branches whose tip it is. */
  status(owner: string, repo: string, sha: string, status: Parameters<typeof statusPayload>[4]): Promise<Record<string, unknown>>;
}

export interface NewPullInput {
  title: string;
  head: string;
  base?: string;
  body?: string;
  draft?: boolean;
  /** Login of the author (default `octocat`), e.g. someone else's PR for Wrench to review. */
  user?: string;
  /** A fork's `owner/repo` the head branch lives in (its commits are kept in the base repository, as refs/pull/N/head are). */
  headRepo?: string;
}

export interface GitHubFake {
  /** Octokit `baseUrl` / GITHUB_API_URL. */
  url: string;
  root: string;
  /** GIT_BASE_URL: the fake's own origin, serving Git's smart HTTP protocol with GitHub's token rules (see README). */
  gitBaseUrl: string;
  requests: GitHubRequest[];
  createRepo(
    owner: string,
    repo: string,
    files: CreateRepoFiles,
    options?: CreateRepoOptions & { private?: boolean; description?: string },
  ): Promise<{ gitDir: string; cloneUrl: string; head: string }>;
  /** Adds a real commit to `branch` (created from `from`, default the default branch, when new). */
  commit(owner: string, repo: string, branch: string, spec: CommitSpec, from?: string): Promise<string>;
  branchSha(owner: string, repo: string, branch: string): Promise<string | undefined>;
  gitDir(owner: string, repo: string): string;
  cloneUrl(owner: string, repo: string): string;
  createPull(owner: string, repo: string, input: NewPullInput): Promise<Record<string, unknown>>;
  /** Opens a plain issue (numbered with the repository's pull requests, as on GitHub). */
  createIssue(owner: string, repo: string, input: { title: string; body?: string; user?: string }): IssueRecord;
  mergePull(owner: string, repo: string, number: number, options?: MergeOptions): Promise<string>;
  /** The pull request with this number when exactly one repository has it. */
  mergePull(number: number, options?: MergeOptions): Promise<string>;
  pulls(owner?: string, repo?: string): PullRecord[];
  reviews: ReviewRecord[];
  reviewComments: ReviewCommentRecord[];
  issueComments: IssueCommentRecord[];
  /** Reactions on pull request comments and review comments, as they stand. */
  reactions: ReactionRecord[];
  failNext(pattern: FailurePattern, failure: GitHubFailure, times?: number): void;
  /**
   * Holds the next request matching `pattern` until `release()`: `before` GitHub acts on it (one whose client went away
   * meanwhile is dropped, as a request that never got through), or `after` it acted, with only its answer held.
   */
  holdNext(pattern: FailurePattern, when: HeldRequest['when']): HeldRequest;
  app?: FakeApp;
  /** A person's role on a repository (others have read access). */
  setRole(owner: string, repo: string, login: string, role: 'admin' | 'maintain' | 'write' | 'triage' | 'read'): void;
  addCheckRun(owner: string, repo: string, input: NewCheckRun): CheckRunRecord;
  /** A deployment of `sha` made at `at`, with its statuses (each at its own time), as a deploy tool records them through the REST API. */
  recordDeployment(owner: string, repo: string, input: RecordedDeployment): DeploymentRecord;
  deployments: DeploymentRecord[];
  /** A lightweight tag `tag` on `sha` and a release of it published at `publishedAt` (null: a draft). */
  recordRelease(owner: string, repo: string, input: { tag: string; sha: string; publishedAt: string | null; prerelease?: boolean }): Promise<ReleaseRecord>;
  checkRuns: CheckRunRecord[];
  payloads: WebhookPayloads;
  waitFor(predicate: (request: GitHubRequest) => boolean, timeoutMs?: number): Promise<GitHubRequest>;
  stop(): Promise<void>;
}

type CreateRepoFiles = Parameters<typeof createBareRepo>[1];

export interface RecordedDeployment {
  sha: string;
  ref?: string;
  environment?: string;
  production?: boolean;
  at: string;
  statuses: { state: DeploymentState; at: string; description?: string; log_url?: string }[];
}

export async function startGitHubFake(options: GitHubFakeOptions = {}): Promise<GitHubFake> {
  const temp = options.root ? undefined : await makeTempDir('wrench-github-');
  const root = options.root ?? temp!.path;
  const state = new GitHubState(root);
  const requests: GitHubRequest[] = [];
  const failures = new PatternFailures<GitHubFailure>();
  const holds = new PatternFailures<RequestHold>();
  const held: HeldRequest[] = [];
  const server = await listen(
    gitHubRequestHandler({
      state,
      requests,
      failures,
      holds,
      users: options.users ?? {},
      defaultLogin: options.defaultLogin ?? 'wrench-bot',
      strictTokens: options.strictTokens ?? false,
    }),
    'github-fake',
  );
  state.baseUrl = server.url;
  state.gitBaseUrl = server.url;
  const cloneUrl = (owner: string, repo: string) => `${state.gitBaseUrl}/${owner}/${repo}.git`;
  if (options.app) state.app = new FakeApp(options.app);

  const findPull = (owner: string, repo: string, number: number): PullRecord => {
    const pull = state.pull(owner, repo, number);
    if (!pull) throw new Error(`github-fake: no pull request ${owner}/${repo}#${number}`);
    return pull;
  };

  async function mergePullFor(...args: unknown[]): Promise<string> {
    if (typeof args[0] === 'number') {
      const matching = state.pulls.filter((p) => p.number === args[0]);
      if (matching.length !== 1) throw new Error(`github-fake: ${matching.length} pull requests are numbered ${args[0]}; name the repository`);
      return mergePull(state, matching[0]!, args[1] as MergeOptions | undefined);
    }
    const [owner, repo, number, mergeOptions] = args as [string, string, number, MergeOptions | undefined];
    return mergePull(state, findPull(owner, repo, number), mergeOptions);
  }

  return {
    url: server.url,
    root,
    gitBaseUrl: state.gitBaseUrl,
    requests,
    async createRepo(owner, repo, files, repoOptions = {}) {
      const gitDir = state.gitDir(owner, repo);
      const head = await createBareRepo(gitDir, files, repoOptions);
      const settings = state.settings(owner, repo);
      settings.private = repoOptions.private ?? false;
      settings.description = repoOptions.description ?? null;
      return { gitDir, cloneUrl: cloneUrl(owner, repo), head };
    },
    async commit(owner, repo, branch, spec, from) {
      const gitDir = state.gitDir(owner, repo);
      return commitToBranch(gitDir, branch, spec, from ?? (await defaultBranch(gitDir)));
    },
    branchSha: (owner, repo, branch) => resolveCommit(state.gitDir(owner, repo), `refs/heads/${branch}`),
    gitDir: (owner, repo) => state.gitDir(owner, repo),
    cloneUrl,
    createIssue(owner, repo, input) {
      const issue: IssueRecord = {
        owner,
        repo,
        number: state.nextNumber(owner, repo),
        title: input.title,
        body: input.body ?? '',
        user: input.user ?? 'octocat',
        state: 'open',
      };
      state.issues.push(issue);
      return issue;
    },
    async createPull(owner, repo, input) {
      const gitDir = state.gitDir(owner, repo);
      const base = input.base ?? (await defaultBranch(gitDir));
      const pull = await createPull(state, {
        owner,
        repo,
        title: input.title,
        head: input.head,
        base,
        body: input.body,
        draft: input.draft,
        user: input.user ?? 'octocat',
        headRepo: input.headRepo,
      });
      return pullJson(state, await refreshPull(state, pull), { repo: repoJson(state, owner, repo, await defaultBranch(gitDir)) });
    },
    mergePull: mergePullFor as GitHubFake['mergePull'],
    pulls: (owner, repo) => state.pulls.filter((p) => (!owner || p.owner === owner) && (!repo || p.repo === repo)),
    reviews: state.reviews,
    reviewComments: state.reviewComments,
    issueComments: state.issueComments,
    reactions: state.reactions,
    failNext: (pattern, failure, times) => failures.add(pattern, failure, times),
    holdNext(pattern, when) {
      const { held: request, hold } = requestHold(when);
      holds.add(pattern, hold);
      held.push(request);
      return request;
    },
    app: state.app,
    setRole(owner, repo, login, role) {
      const key = `${owner}/${repo}`;
      if (!state.collaborators.has(key)) state.collaborators.set(key, new Map());
      state.collaborators.get(key)!.set(login, role);
    },
    recordDeployment(owner, repo, input) {
      const environment = input.environment ?? 'production';
      const deployment: DeploymentRecord = {
        id: state.nextId(),
        owner,
        repo,
        sha: input.sha,
        ref: input.ref ?? input.sha,
        task: 'deploy',
        payload: {},
        environment,
        original_environment: environment,
        description: null,
        creator: 'deploy-bot',
        transient_environment: false,
        production_environment: input.production ?? environment === 'production',
        created_at: input.at,
        updated_at: input.at,
        statuses: [],
      };
      state.deployments.push(deployment);
      for (const status of input.statuses) addDeploymentStatus(state, deployment, { ...status, creator: 'deploy-bot' });
      return deployment;
    },
    deployments: state.deployments,
    async recordRelease(owner, repo, input) {
      await git(['update-ref', `refs/tags/${input.tag}`, input.sha], { gitDir: state.gitDir(owner, repo) });
      const release: ReleaseRecord = {
        id: state.nextId(),
        owner,
        repo,
        tag_name: input.tag,
        target_commitish: input.sha,
        name: input.tag,
        body: null,
        draft: input.publishedAt === null,
        prerelease: input.prerelease ?? false,
        author: 'release-bot',
        created_at: input.publishedAt ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        published_at: input.publishedAt,
      };
      state.releases.push(release);
      return release;
    },
    addCheckRun(owner, repo, input) {
      const id = state.nextId();
      const now = isoZ(Date.now());
      const run: CheckRunRecord = {
        id,
        owner,
        repo,
        name: input.name,
        headSha: input.headSha,
        status: 'completed',
        conclusion: input.conclusion,
        runId: input.runId ?? state.nextId(),
        log: input.log ?? '',
        started_at: now,
        completed_at: now,
        app: input.app ?? ACTIONS_APP,
        output: { title: input.output?.title ?? null, summary: input.output?.summary ?? null, text: input.output?.text ?? null },
        annotations: input.annotations ?? [],
      };
      state.checkRuns.push(run);
      return run;
    },
    checkRuns: state.checkRuns,
    payloads: {
      reviewComment(commentId) {
        const comment = state.reviewComments.find((c) => c.id === commentId);
        if (!comment) throw new Error(`github-fake: no review comment ${commentId}`);
        return reviewCommentPayload(state, comment, findPull(comment.owner, comment.repo, comment.pull));
      },
      review(reviewId) {
        const review = state.reviews.find((r) => r.id === reviewId);
        if (!review) throw new Error(`github-fake: no review ${reviewId}`);
        return reviewPayload(state, review, findPull(review.owner, review.repo, review.pull));
      },
      issueComment(commentId) {
        const comment = state.issueComments.find((c) => c.id === commentId);
        if (!comment) throw new Error(`github-fake: no issue comment ${commentId}`);
        return issueCommentPayload(state, comment, findPull(comment.owner, comment.repo, comment.issue));
      },
      checkRun(checkRunId) {
        const run = state.checkRuns.find((r) => r.id === checkRunId);
        if (!run) throw new Error(`github-fake: no check run ${checkRunId}`);
        return checkRunPayload(state, run);
      },
      workflowRun(runId) {
        const runs = state.checkRuns.filter((r) => r.runId === runId);
        if (runs.length === 0) throw new Error(`github-fake: no workflow run ${runId}`);
        return workflowRunPayload(state, runs);
      },
      pullClosed: (owner, repo, number, sender = 'octocat') => pullClosedPayload(state, findPull(owner, repo, number), sender),
      push: (owner, repo, branch, before, pusher = 'octocat') => pushPayload(state, owner, repo, branch, before, pusher),
      status: (owner, repo, sha, status) => statusPayload(state, owner, repo, sha, status),
    },
    waitFor: (predicate, timeoutMs = 5000) =>
      pollFor(
        () => requests.find(predicate),
        timeoutMs,
        () => `no GitHub request matched; requests so far: ${requests.map((r) => `${r.method} ${r.path}`).join(', ') || '(none)'}`,
      ),
    async stop() {
      for (const request of held) request.release();
      await server.close();
      if (temp) await rm(temp.path, { recursive: true, force: true });
    },
  };
}

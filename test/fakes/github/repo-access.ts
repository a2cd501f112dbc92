import { defaultBranch } from './git-read.js';
import { notFound, type RouteContext } from './router.js';
import { repoJson } from './shapes.js';

export interface RepoHandle {
  owner: string;
  repo: string;
  gitDir: string;
  defaultBranch: string;
  json: Record<string, unknown>;
}

/** The repository named by `:owner/:repo`, or a 404 like GitHub's. */
export async function requireRepo(ctx: RouteContext): Promise<RepoHandle> {
  const { owner = '', repo = '' } = ctx.params;
  if (!ctx.state.repoExists(owner, repo)) throw notFound();
  const gitDir = ctx.state.gitDir(owner, repo);
  const branch = await defaultBranch(gitDir);
  return { owner, repo, gitDir, defaultBranch: branch, json: repoJson(ctx.state, owner, repo, branch) };
}

import { commitInfo, commitsBetween, countBetween, diffFiles, EMPTY_TREE, log, mergeBase, resolveRef } from '../git-read.js';
import { requireRepo } from '../repo-access.js';
import { HttpError, notFound, paginate, route, type Route } from '../router.js';
import { commitJson, fileJson } from '../shapes.js';

function noCommit(ref: string): HttpError {
  return new HttpError(404, { message: `No commit found for SHA: ${ref}`, documentation_url: 'https://docs.github.com/rest/commits/commits', status: '404' });
}

export const commitRoutes: Route[] = [
  route('GET /repos/:owner/:repo/commits', async (ctx) => {
    const repo = await requireRepo(ctx);
    const ref = ctx.query.get('sha') ?? repo.defaultBranch;
    const sha = await resolveRef(repo.gitDir, ref);
    if (!sha) {
      if (ref === repo.defaultBranch) return { status: 409, body: { message: 'Git Repository is empty.', status: '409' } };
      throw noCommit(ref);
    }
    const author = ctx.query.get('author');
    const commits = (
      await log(repo.gitDir, sha, {
        path: ctx.query.get('path') ?? undefined,
        since: ctx.query.get('since') ?? undefined,
        until: ctx.query.get('until') ?? undefined,
      })
    ).filter((c) => !author || c.author.email === author || c.author.name === author || c.author.email.split('@')[0] === author);
    const { page, headers } = paginate(commits, ctx.query, ctx.url);
    return { status: 200, body: page.map((c) => commitJson(ctx.state, repo.owner, repo.repo, c)), headers };
  }),

  route('GET /repos/:owner/:repo/commits/*ref', async (ctx) => {
    const repo = await requireRepo(ctx);
    const sha = await resolveRef(repo.gitDir, ctx.params.ref!);
    if (!sha) throw noCommit(ctx.params.ref!);
    const info = await commitInfo(repo.gitDir, sha);
    const files = await diffFiles(repo.gitDir, info.parents[0] ?? EMPTY_TREE, sha);
    const additions = files.reduce((sum, f) => sum + f.additions, 0);
    const deletions = files.reduce((sum, f) => sum + f.deletions, 0);
    return {
      status: 200,
      body: {
        ...commitJson(ctx.state, repo.owner, repo.repo, info),
        stats: { total: additions + deletions, additions, deletions },
        files: files.map((f) => fileJson(ctx.state, repo.owner, repo.repo, sha, f)),
      },
    };
  }),

  route('GET /repos/:owner/:repo/compare/*basehead', async (ctx) => {
    const repo = await requireRepo(ctx);
    const [baseRef, headRef] = ctx.params.basehead!.split('...');
    if (!baseRef || !headRef) throw notFound();
    const strip = (ref: string) => (ref.includes(':') ? ref.split(':')[1] : ref);
    const base = await resolveRef(repo.gitDir, strip(baseRef)!);
    const head = await resolveRef(repo.gitDir, strip(headRef)!);
    if (!base || !head) throw notFound();
    const mergeBaseSha = (await mergeBase(repo.gitDir, base, head)) ?? base;
    const aheadBy = await countBetween(repo.gitDir, mergeBaseSha, head);
    const behindBy = await countBetween(repo.gitDir, mergeBaseSha, base);
    const status = aheadBy === 0 && behindBy === 0 ? 'identical' : behindBy === 0 ? 'ahead' : aheadBy === 0 ? 'behind' : 'diverged';
    const commits = await commitsBetween(repo.gitDir, mergeBaseSha, head);
    const files = await diffFiles(repo.gitDir, mergeBaseSha, head);
    const html = `${ctx.state.baseUrl}/${repo.owner}/${repo.repo}/compare/${ctx.params.basehead}`;
    return {
      status: 200,
      body: {
        url: `${ctx.state.baseUrl}/repos/${repo.owner}/${repo.repo}/compare/${ctx.params.basehead}`,
        html_url: html,
        permalink_url: html,
        diff_url: `${html}.diff`,
        patch_url: `${html}.patch`,
        base_commit: commitJson(ctx.state, repo.owner, repo.repo, await commitInfo(repo.gitDir, base)),
        merge_base_commit: commitJson(ctx.state, repo.owner, repo.repo, await commitInfo(repo.gitDir, mergeBaseSha)),
        status,
        ahead_by: aheadBy,
        behind_by: behindBy,
        total_commits: commits.length,
        commits: commits.map((c) => commitJson(ctx.state, repo.owner, repo.repo, c)),
        files: files.map((f) => fileJson(ctx.state, repo.owner, repo.repo, head, f)),
      },
    };
  }),
];

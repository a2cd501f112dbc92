import { listBranches, readBlob, resolveRef } from '../git-read.js';
import { requireRepo } from '../repo-access.js';
import { HttpError, notFound, paginate, route, type Route } from '../router.js';
import { git } from '../git.js';
import { userJson } from '../shapes.js';

const CREATE_REF_DOCS = 'https://docs.github.com/rest/git/refs#create-a-reference';

export const repoRoutes: Route[] = [
  // Creates a branch at a commit the repository has (a pull request's head from a fork included, as on GitHub).
  route('POST /repos/:owner/:repo/git/refs', async (ctx) => {
    const repo = await requireRepo(ctx);
    const ref = String(ctx.body.ref ?? '');
    const sha = String(ctx.body.sha ?? '');
    if (!/^refs\/[^\s]+\/[^\s]+$/.test(ref))
      throw new HttpError(422, {
        message: 'Reference name must start with refs/ and have at least two slashes.',
        documentation_url: CREATE_REF_DOCS,
        status: '422',
      });
    if (!/^[0-9a-f]{40}$/.test(sha)) throw new HttpError(422, { message: 'Object does not exist', documentation_url: CREATE_REF_DOCS, status: '422' });
    if (await resolveRef(repo.gitDir, ref))
      throw new HttpError(422, { message: 'Reference already exists', documentation_url: CREATE_REF_DOCS, status: '422' });
    const created = await git(['update-ref', ref, sha, ''], { gitDir: repo.gitDir }).then(
      () => true,
      () => false,
    );
    if (!created) throw new HttpError(422, { message: 'Object does not exist', documentation_url: CREATE_REF_DOCS, status: '422' });
    const url = `${ctx.state.baseUrl}/repos/${repo.owner}/${repo.repo}/git/${ref}`;
    return {
      status: 201,
      body: {
        ref,
        node_id: `REF_${sha.slice(0, 8)}`,
        url,
        object: { type: 'commit', sha, url: `${ctx.state.baseUrl}/repos/${repo.owner}/${repo.repo}/git/commits/${sha}` },
      },
    };
  }),

  route('GET /user', async (ctx) => ({ status: 200, body: userJson(ctx.state, ctx.login) })),

  route('GET /rate_limit', async () => {
    const core = { limit: 5000, used: 0, remaining: 5000, reset: Math.floor(Date.now() / 1000) + 3600 };
    return { status: 200, body: { resources: { core, search: { ...core, limit: 30, remaining: 30 }, graphql: core }, rate: core } };
  }),

  route('GET /repos/:owner/:repo', async (ctx) => ({ status: 200, body: (await requireRepo(ctx)).json })),

  route('GET /repos/:owner/:repo/branches', async (ctx) => {
    const repo = await requireRepo(ctx);
    const branches = (await listBranches(repo.gitDir)).map(({ name, sha }) => ({
      name,
      commit: { sha, url: `${ctx.state.baseUrl}/repos/${repo.owner}/${repo.repo}/commits/${sha}` },
      protected: false,
    }));
    const { page, headers } = paginate(branches, ctx.query, ctx.url);
    return { status: 200, body: page, headers };
  }),

  route('GET /repos/:owner/:repo/branches/*branch', async (ctx) => {
    const repo = await requireRepo(ctx);
    const name = ctx.params.branch;
    const sha = await resolveRef(repo.gitDir, `refs/heads/${name}`);
    if (!sha)
      return {
        status: 404,
        body: { message: 'Branch not found', documentation_url: 'https://docs.github.com/rest/branches/branches#get-a-branch', status: '404' },
      };
    const api = `${ctx.state.baseUrl}/repos/${repo.owner}/${repo.repo}`;
    return {
      status: 200,
      body: {
        name,
        commit: { sha, url: `${api}/commits/${sha}` },
        _links: { self: `${api}/branches/${name}`, html: `${ctx.state.baseUrl}/${repo.owner}/${repo.repo}/tree/${name}` },
        protected: false,
        protection: { enabled: false, required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] } },
        protection_url: `${api}/branches/${name}/protection`,
      },
    };
  }),

  route('GET /repos/:owner/:repo/contents/*path', async (ctx) => {
    const repo = await requireRepo(ctx);
    const ref = ctx.query.get('ref') ?? repo.defaultBranch;
    const sha = await resolveRef(repo.gitDir, ref);
    const content = sha ? await readBlob(repo.gitDir, sha, ctx.params.path!) : undefined;
    if (!content) throw notFound();
    return {
      status: 200,
      body: {
        type: 'file',
        encoding: 'base64',
        size: content.length,
        name: ctx.params.path!.split('/').pop(),
        path: ctx.params.path,
        content: content.toString('base64'),
        sha: sha,
        url: `${ctx.state.baseUrl}/repos/${repo.owner}/${repo.repo}/contents/${ctx.params.path}?ref=${ref}`,
      },
    };
  }),
];

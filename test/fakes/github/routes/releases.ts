import { gitOut } from '../git.js';
import { requireRepo } from '../repo-access.js';
import { paginate, route, type Route } from '../router.js';
import { userJson } from '../shapes.js';
import type { GitHubState, ReleaseRecord } from '../state.js';

/** GitHub's release object (REST "Releases": list). */
export function releaseJson(state: GitHubState, release: ReleaseRecord): Record<string, unknown> {
  const api = `${state.baseUrl}/repos/${release.owner}/${release.repo}`;
  const html = `${state.baseUrl}/${release.owner}/${release.repo}`;
  return {
    url: `${api}/releases/${release.id}`,
    html_url: `${html}/releases/tag/${encodeURIComponent(release.tag_name)}`,
    assets_url: `${api}/releases/${release.id}/assets`,
    upload_url: `${api}/releases/${release.id}/assets{?name,label}`,
    tarball_url: release.draft ? null : `${api}/tarball/${release.tag_name}`,
    zipball_url: release.draft ? null : `${api}/zipball/${release.tag_name}`,
    id: release.id,
    node_id: Buffer.from(`Release${release.id}`).toString('base64'),
    tag_name: release.tag_name,
    target_commitish: release.target_commitish,
    name: release.name,
    body: release.body,
    draft: release.draft,
    prerelease: release.prerelease,
    created_at: release.created_at,
    published_at: release.published_at,
    author: userJson(state, release.author),
    assets: [],
  };
}

/** The repository's tags with the commit each points at (annotated tags peeled), newest ref name first as git sorts them. */
async function listTags(gitDir: string): Promise<{ name: string; sha: string }[]> {
  const out = await gitOut(['for-each-ref', '--sort=-creatordate', '--format=%(refname:short)%09%(objectname)%09%(*objectname)', 'refs/tags'], { gitDir });
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name = '', object = '', peeled] = line.split('\t');
      return { name, sha: peeled || object };
    });
}

export const releaseRoutes: Route[] = [
  route('GET /repos/:owner/:repo/releases', async (ctx) => {
    await requireRepo(ctx);
    const listed = ctx.state.releases
      .filter((one) => one.owner === ctx.params.owner && one.repo === ctx.params.repo)
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
    const { page, headers } = paginate(listed, ctx.query, ctx.url);
    return { status: 200, body: page.map((one) => releaseJson(ctx.state, one)), headers };
  }),

  route('GET /repos/:owner/:repo/tags', async (ctx) => {
    const repo = await requireRepo(ctx);
    const api = `${ctx.state.baseUrl}/repos/${repo.owner}/${repo.repo}`;
    const tags = (await listTags(repo.gitDir)).map(({ name, sha }) => ({
      name,
      commit: { sha, url: `${api}/commits/${sha}` },
      zipball_url: `${api}/zipball/refs/tags/${name}`,
      tarball_url: `${api}/tarball/refs/tags/${name}`,
      node_id: Buffer.from(`Tag${name}`).toString('base64'),
    }));
    const { page, headers } = paginate(tags, ctx.query, ctx.url);
    return { status: 200, body: page, headers };
  }),
];

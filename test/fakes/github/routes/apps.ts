import { isoZ } from '../git-read.js';
import { requireRepo } from '../repo-access.js';
import { HttpError, notFound, route, type Route, type RouteContext } from '../router.js';
import { userJson } from '../shapes.js';
import type { FakeApp } from '../app-auth.js';

/** /app routes answer only the App's own JWT (server.ts sets the login `app:<id>` for it). */
function requireAppJwt(ctx: RouteContext): FakeApp {
  const app = ctx.state.app;
  if (!app || ctx.login !== `app:${app.options.id}`) {
    throw new HttpError(401, { message: 'A JSON web token could not be decoded', documentation_url: 'https://docs.github.com/rest', status: '401' });
  }
  return app;
}

function installationJson(ctx: RouteContext, app: FakeApp, id: number, account: string): Record<string, unknown> {
  const base = ctx.state.baseUrl;
  return {
    id,
    account: userJson(ctx.state, account),
    repository_selection: 'selected',
    access_tokens_url: `${base}/app/installations/${id}/access_tokens`,
    repositories_url: `${base}/installation/repositories`,
    html_url: `${base}/organizations/${account}/settings/installations/${id}`,
    app_id: app.options.id,
    app_slug: app.options.slug,
    client_id: `Iv1.${app.options.id}`,
    target_id: 1,
    target_type: 'Organization',
    permissions: app.permissions,
    events: ['check_run', 'check_suite', 'issue_comment', 'pull_request', 'pull_request_review', 'pull_request_review_comment', 'workflow_run'],
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [],
    suspended_by: null,
    suspended_at: null,
  };
}

export const appRoutes: Route[] = [
  route('GET /app', async (ctx) => {
    const app = requireAppJwt(ctx);
    return {
      status: 200,
      body: {
        id: app.options.id,
        slug: app.options.slug,
        client_id: `Iv1.${app.options.id}`,
        name: app.options.slug,
        owner: userJson(ctx.state, 'acme'),
        permissions: app.permissions,
        events: [],
        installations_count: new Set(Object.values(app.options.installations)).size,
      },
    };
  }),

  route('GET /repos/:owner/:repo/installation', async (ctx) => {
    const app = requireAppJwt(ctx);
    const repo = await requireRepo(ctx);
    const id = app.installationFor(repo.owner, repo.repo);
    if (id === undefined) throw notFound();
    return { status: 200, body: installationJson(ctx, app, id, repo.owner) };
  }),

  route('POST /app/installations/:id/access_tokens', async (ctx) => {
    const app = requireAppJwt(ctx);
    const id = Number(ctx.params.id);
    if (!Object.values(app.options.installations).includes(id)) throw notFound();
    const issued = app.issueToken(id);
    return {
      status: 201,
      body: { token: issued.token, expires_at: isoZ(issued.expiresAt), permissions: app.permissions, repository_selection: 'selected' },
    };
  }),
];

import type { IncomingMessage, ServerResponse } from 'node:http';
import { flatHeaders, readBody, sendJson } from '../shared/http.js';
import { serveGitHttp } from './git-http.js';
import { failureResponse, type GitHubFailures, type PatternFailures, type RequestHold } from './failures.js';
import { HttpError, matchRoute, type Route } from './router.js';
import { requirePermission } from './permissions.js';
import { commitRoutes } from './routes/commits.js';
import { deploymentRoutes } from './routes/deployments.js';
import { releaseRoutes } from './routes/releases.js';
import { issueCommentRoutes } from './routes/issue-comments.js';
import { pullRoutes } from './routes/pulls.js';
import { repoRoutes } from './routes/repos.js';
import { appRoutes } from './routes/apps.js';
import { checkRoutes } from './routes/checks.js';
import { reactionRoutes } from './routes/reactions.js';
import { reviewRoutes } from './routes/reviews.js';
import type { GitHubRequest, GitHubState } from './state.js';

const ROUTES: Route[] = [
  ...appRoutes,
  ...checkRoutes,
  ...repoRoutes,
  ...commitRoutes,
  ...deploymentRoutes,
  ...releaseRoutes,
  ...pullRoutes,
  ...reviewRoutes,
  ...issueCommentRoutes,
  ...reactionRoutes,
];

export interface GitHubServerDeps {
  state: GitHubState;
  requests: GitHubRequest[];
  failures: GitHubFailures;
  /** Requests held until the test releases them (`GitHubFake.holdNext`). */
  holds?: PatternFailures<RequestHold>;
  /** token -> login; tokens not listed are refused when `strictTokens` is set, else they act as `defaultLogin`. */
  users: Record<string, string>;
  defaultLogin: string;
  strictTokens: boolean;
}

export function gitHubRequestHandler(deps: GitHubServerDeps) {
  let used = 0;
  const gitLogin = (token: string, owner: string, repo: string) => {
    const login = authenticate(deps, token, `/repos/${owner}/${repo}`);
    return typeof login === 'string' ? login : undefined;
  };
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (await serveGitHttp(req, res, { state: deps.state, requests: deps.requests, login: gitLogin })) return;
    const url = new URL(req.url ?? '/', deps.state.baseUrl);
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    const headers = flatHeaders(req);
    const token = /^(?:token|bearer)\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
    let body: Record<string, any> = {};
    try {
      body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, any>) : {};
    } catch {
      body = {};
    }
    const record: GitHubRequest = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body, token, status: 0, at: Date.now() };
    deps.requests.push(record);
    const reply = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
      record.status = status;
      used += 1;
      const rate = {
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': String(Math.max(0, 5000 - used)),
        'x-ratelimit-used': String(used),
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
        'x-ratelimit-resource': 'core',
        'x-github-request-id': `FAKE:${used}`,
      };
      if (status === 204) {
        res.writeHead(204, { ...rate, ...extra });
        res.end();
        return;
      }
      sendJson(res, status, payload, { ...rate, ...extra });
    };

    const failure = deps.failures.take(method, url.pathname);
    if (failure) {
      const { body: failBody, headers: failHeaders } = failureResponse(failure);
      return reply(failure.status, failBody, failHeaders);
    }
    const hold = deps.holds?.take(method, url.pathname);
    let clientGone = false;
    res.once('close', () => {
      clientGone = true;
    });
    if (hold?.when === 'before') {
      hold.arrived();
      await hold.released;
      // A client that went away meanwhile (killed) never got its request through: GitHub did nothing for it.
      if (clientGone) return;
    }
    const logs = /^\/_logs\/jobs\/(\d+)$/.exec(url.pathname);
    if (logs) {
      const run = deps.state.checkRuns.find((r) => r.id === Number(logs[1]));
      record.status = run ? 200 : 404;
      res.writeHead(record.status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(run?.log ?? 'BlobNotFound');
      return;
    }
    if (!token) return reply(401, { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest', status: '401' });
    const login = authenticate(deps, token, url.pathname);
    if (typeof login !== 'string')
      return reply(login.status, { message: login.message, documentation_url: 'https://docs.github.com/rest', status: String(login.status) });

    const matched = matchRoute(ROUTES, method, url.pathname);
    if (!matched) return reply(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
    try {
      // An App's installation token reaches only what the App was granted.
      if (deps.state.app && token.startsWith('ghs_')) requirePermission(deps.state.app, method, url.pathname);
      const result = await matched.route.handler({
        params: matched.params,
        query: url.searchParams,
        body,
        state: deps.state,
        login,
        method,
        path: url.pathname,
        url: url.toString(),
      });
      if (hold?.when === 'after') {
        hold.arrived();
        await hold.released;
      }
      reply(result.status, result.body, result.headers);
    } catch (error) {
      if (error instanceof HttpError) return reply(error.status, error.body, error.headers);
      throw error;
    }
  };
}

/**
 * The caller's login. With an App configured: its JWT (checked against the App's public key) acts as
 * `app:<id>` and only on /app routes; an installation token acts as `<slug>[bot]` on its installation's
 * repositories only (others are 404, as GitHub hides them) until it expires.
 */
function authenticate(deps: GitHubServerDeps, token: string, path: string): string | { status: number; message: string } {
  const app = deps.state.app;
  const repository = /^\/repos\/([^/]+)\/([^/]+)/.exec(path);
  if (app?.looksLikeJwt(token)) {
    const problem = app.jwtProblem(token);
    if (problem) return { status: 401, message: problem };
    const appRoute = path === '/app' || path.startsWith('/app/') || /^\/repos\/[^/]+\/[^/]+\/installation$/.test(path);
    return appRoute ? `app:${app.options.id}` : { status: 401, message: 'A JSON web token cannot be used for this resource; use an installation access token' };
  }
  if (app && token.startsWith('ghs_')) {
    const issued = app.liveToken(token);
    if (!issued) return { status: 401, message: 'Bad credentials' };
    if (repository && !app.covers(issued, decodeURIComponent(repository[1]!), decodeURIComponent(repository[2]!))) return { status: 404, message: 'Not Found' };
    return app.login;
  }
  const login = deps.users[token] ?? (deps.strictTokens ? undefined : deps.defaultLogin);
  return login ?? { status: 401, message: 'Bad credentials' };
}

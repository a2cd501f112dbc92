import type { GitHubState } from './state.js';

export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, any>;
  state: GitHubState;
  /** Login of the authenticated caller. */
  login: string;
  method: string;
  path: string;
  /** The full request URL, for pagination links. */
  url: string;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type RouteHandler = (ctx: RouteContext) => Promise<RouteResult>;

export interface Route {
  method: string;
  segments: string[];
  handler: RouteHandler;
}

/** An error answered with GitHub's JSON error shape. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.message ?? status));
  }
}

const DOCS = 'https://docs.github.com/rest';

export function notFound(): HttpError {
  return new HttpError(404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
}

export function validationFailed(errors: unknown[], documentation = DOCS): HttpError {
  return new HttpError(422, { message: 'Validation Failed', errors, documentation_url: documentation, status: '422' });
}

export function unprocessable(errors: string[], documentation = DOCS): HttpError {
  return new HttpError(422, { message: 'Unprocessable Entity', errors, documentation_url: documentation, status: '422' });
}

/** `'GET /repos/:owner/:repo/pulls/:number'`; a final `*name` segment takes the rest of the path. */
export function route(spec: string, handler: RouteHandler): Route {
  const [method = '', pattern = ''] = spec.split(' ');
  return { method, segments: pattern.split('/').filter(Boolean), handler };
}

export function matchRoute(routes: Route[], method: string, pathname: string): { route: Route; params: Record<string, string> } | undefined {
  const parts = pathname.split('/').filter(Boolean);
  for (const candidate of routes) {
    if (candidate.method !== method) continue;
    const params = matchSegments(candidate.segments, parts);
    if (params) return { route: candidate, params };
  }
  return undefined;
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index];
    if (segment!.startsWith('*')) {
      if (index >= parts.length) return undefined;
      params[segment!.slice(1)] = parts.slice(index).map(decodeURIComponent).join('/');
      return params;
    }
    const part = parts[index];
    if (part === undefined) return undefined;
    if (segment!.startsWith(':')) params[segment!.slice(1)] = decodeURIComponent(part);
    else if (segment !== part) return undefined;
  }
  return segments.length === parts.length ? params : undefined;
}

export function paginate<T>(items: T[], query: URLSearchParams, selfUrl: string): { page: T[]; headers: Record<string, string> } {
  const perPage = Math.min(100, Math.max(1, Number(query.get('per_page') ?? 30)));
  const pageNumber = Math.max(1, Number(query.get('page') ?? 1));
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const page = items.slice((pageNumber - 1) * perPage, pageNumber * perPage);
  const link = (n: number, rel: string) => {
    const url = new URL(selfUrl);
    url.searchParams.set('per_page', String(perPage));
    url.searchParams.set('page', String(n));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (pageNumber > 1) links.push(link(pageNumber - 1, 'prev'), link(1, 'first'));
  if (pageNumber < lastPage) links.push(link(pageNumber + 1, 'next'), link(lastPage, 'last'));
  return { page, headers: links.length > 0 ? { link: links.join(', ') } : {} };
}

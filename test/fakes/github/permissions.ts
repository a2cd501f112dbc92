import type { FakeApp } from './app-auth.js';
import { HttpError } from './router.js';

type Level = 'read' | 'write';

interface Need {
  method: string;
  path: RegExp;
  /** Any one of these is enough (the endpoint's "fine-grained access tokens" section on docs.github.com). */
  anyOf: Array<[permission: string, level: Level]>;
  docs: string;
}

const REPO = '^/repos/[^/]+/[^/]+';
const DOCS = 'https://docs.github.com/rest';
const p = (method: string, tail: string, anyOf: Need['anyOf'], docs: string): Need => ({
  method,
  path: new RegExp(`${REPO}${tail}$`),
  anyOf,
  docs: `${DOCS}/${docs}`,
});
const issuesOrPulls = (level: Level): Need['anyOf'] => [
  ['issues', level],
  ['pull_requests', level],
];

/** The endpoints whose permission the fake checks for an App's installation token; others are let through. */
const NEEDS: Need[] = [
  p('GET', '/issues/\\d+/comments', issuesOrPulls('read'), 'issues/comments#list-issue-comments'),
  p('POST', '/issues/\\d+/comments', issuesOrPulls('write'), 'issues/comments#create-an-issue-comment'),
  p('PATCH', '/issues/comments/\\d+', issuesOrPulls('write'), 'issues/comments#update-an-issue-comment'),
  p('GET', '/pulls(?:/\\d+(?:/[a-z]+)?)?', [['pull_requests', 'read']], 'pulls/pulls'),
  p('POST', '/pulls(?:/\\d+/[a-z/0-9]+)?', [['pull_requests', 'write']], 'pulls/pulls'),
  p('PATCH', '/pulls/\\d+', [['pull_requests', 'write']], 'pulls/pulls#update-a-pull-request'),
  p('GET', '/check-runs/\\d+', [['checks', 'read']], 'checks/runs#get-a-check-run'),
  p('GET', '/check-runs/\\d+/annotations', [['checks', 'read']], 'checks/runs#list-check-run-annotations'),
  p('GET', '/commits/[^/]+/check-runs', [['checks', 'read']], 'checks/runs#list-check-runs-for-a-git-reference'),
  p('GET', '/actions/runs/\\d+/jobs', [['actions', 'read']], 'actions/workflow-jobs#list-jobs-for-a-workflow-run'),
  p('GET', '/actions/jobs/\\d+/logs', [['actions', 'read']], 'actions/workflow-jobs#download-job-logs-for-a-workflow-run'),
];

/**
 * GitHub's answer to an installation token whose App lacks the permission an endpoint needs: 403 "Resource not
 * accessible by integration", naming the permissions that would do in `x-accepted-github-permissions`.
 */
export function missingPermission(accepted: string, docs = DOCS): { status: 403; body: Record<string, unknown>; headers: Record<string, string> } {
  return {
    status: 403,
    body: { message: 'Resource not accessible by integration', documentation_url: docs, status: '403' },
    headers: { 'x-accepted-github-permissions': accepted },
  };
}

/** Throws GitHub's 403 when the App's granted permissions do not cover this request. */
export function requirePermission(app: FakeApp, method: string, path: string): void {
  const need = NEEDS.find((one) => one.method === method && one.path.test(path));
  if (!need) return;
  const granted = app.permissions;
  const enough = need.anyOf.some(([permission, level]) => granted[permission] === 'write' || (level === 'read' && granted[permission] === 'read'));
  if (enough) return;
  const refusal = missingPermission(need.anyOf.map(([permission, level]) => `${permission}=${level}`).join('; '), need.docs);
  throw new HttpError(refusal.status, refusal.body, refusal.headers);
}

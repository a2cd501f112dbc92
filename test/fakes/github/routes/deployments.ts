import { resolveRef } from '../git-read.js';
import { requireRepo } from '../repo-access.js';
import { HttpError, notFound, paginate, route, validationFailed, type Route, type RouteContext } from '../router.js';
import { userJson } from '../shapes.js';
import type { DeploymentRecord, DeploymentState, DeploymentStatusRecord, GitHubState } from '../state.js';

const DOCS = 'https://docs.github.com/rest/deployments/deployments';
const STATUS_DOCS = 'https://docs.github.com/rest/deployments/statuses';
const STATES: DeploymentState[] = ['error', 'failure', 'inactive', 'pending', 'success', 'queued', 'in_progress'];

/** GitHub's deployment object (REST "Deployments": list, get, create). */
export function deploymentJson(state: GitHubState, deployment: DeploymentRecord): Record<string, unknown> {
  const api = `${state.baseUrl}/repos/${deployment.owner}/${deployment.repo}`;
  return {
    url: `${api}/deployments/${deployment.id}`,
    id: deployment.id,
    node_id: Buffer.from(`Deployment${deployment.id}`).toString('base64'),
    sha: deployment.sha,
    ref: deployment.ref,
    task: deployment.task,
    payload: deployment.payload,
    original_environment: deployment.original_environment,
    environment: deployment.environment,
    description: deployment.description,
    creator: userJson(state, deployment.creator),
    created_at: deployment.created_at,
    updated_at: deployment.updated_at,
    statuses_url: `${api}/deployments/${deployment.id}/statuses`,
    repository_url: api,
    transient_environment: deployment.transient_environment,
    production_environment: deployment.production_environment,
    performed_via_github_app: null,
  };
}

/** GitHub's deployment status object. */
export function deploymentStatusJson(state: GitHubState, deployment: DeploymentRecord, status: DeploymentStatusRecord): Record<string, unknown> {
  const api = `${state.baseUrl}/repos/${deployment.owner}/${deployment.repo}`;
  return {
    url: `${api}/deployments/${deployment.id}/statuses/${status.id}`,
    id: status.id,
    node_id: Buffer.from(`DeploymentStatus${status.id}`).toString('base64'),
    state: status.state,
    creator: userJson(state, status.creator),
    description: status.description,
    environment: status.environment,
    target_url: status.log_url,
    created_at: status.created_at,
    updated_at: status.created_at,
    deployment_url: `${api}/deployments/${deployment.id}`,
    repository_url: api,
    environment_url: status.environment_url,
    log_url: status.log_url,
    performed_via_github_app: null,
  };
}

function findDeployment(ctx: RouteContext): DeploymentRecord {
  const deployment = ctx.state.deployments.find((one) => one.owner === ctx.params.owner && one.repo === ctx.params.repo && String(one.id) === ctx.params.id);
  if (!deployment) throw notFound();
  return deployment;
}

export const deploymentRoutes: Route[] = [
  route('GET /repos/:owner/:repo/deployments', async (ctx) => {
    await requireRepo(ctx);
    const filters = ['sha', 'ref', 'task', 'environment'] as const;
    const listed = ctx.state.deployments
      .filter((one) => one.owner === ctx.params.owner && one.repo === ctx.params.repo)
      .filter((one) => filters.every((key) => !ctx.query.has(key) || one[key] === ctx.query.get(key)))
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
    const { page, headers } = paginate(listed, ctx.query, ctx.url);
    return { status: 200, body: page.map((one) => deploymentJson(ctx.state, one)), headers };
  }),

  route('GET /repos/:owner/:repo/deployments/:id', async (ctx) => {
    await requireRepo(ctx);
    return { status: 200, body: deploymentJson(ctx.state, findDeployment(ctx)) };
  }),

  route('POST /repos/:owner/:repo/deployments', async (ctx) => {
    const repo = await requireRepo(ctx);
    const ref = ctx.body.ref;
    if (typeof ref !== 'string' || !ref) throw validationFailed([{ resource: 'Deployment', field: 'ref', code: 'missing_field' }], DOCS);
    const sha = await resolveRef(repo.gitDir, ref);
    if (!sha) throw new HttpError(422, { message: `No ref found for: ${ref}`, documentation_url: DOCS, status: '422' });
    const environment = typeof ctx.body.environment === 'string' ? ctx.body.environment : 'production';
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const deployment: DeploymentRecord = {
      id: ctx.state.nextId(),
      owner: repo.owner,
      repo: repo.repo,
      sha,
      ref,
      task: typeof ctx.body.task === 'string' ? ctx.body.task : 'deploy',
      payload: ctx.body.payload ?? {},
      environment,
      original_environment: environment,
      description: typeof ctx.body.description === 'string' ? ctx.body.description : null,
      creator: ctx.login,
      transient_environment: ctx.body.transient_environment === true,
      production_environment: typeof ctx.body.production_environment === 'boolean' ? ctx.body.production_environment : environment === 'production',
      created_at: now,
      updated_at: now,
      statuses: [],
    };
    ctx.state.deployments.push(deployment);
    return { status: 201, body: deploymentJson(ctx.state, deployment) };
  }),

  route('GET /repos/:owner/:repo/deployments/:id/statuses', async (ctx) => {
    await requireRepo(ctx);
    const deployment = findDeployment(ctx);
    const newestFirst = [...deployment.statuses].reverse();
    const { page, headers } = paginate(newestFirst, ctx.query, ctx.url);
    return { status: 200, body: page.map((status) => deploymentStatusJson(ctx.state, deployment, status)), headers };
  }),

  route('POST /repos/:owner/:repo/deployments/:id/statuses', async (ctx) => {
    await requireRepo(ctx);
    const deployment = findDeployment(ctx);
    const state = ctx.body.state as DeploymentState;
    if (!STATES.includes(state)) throw validationFailed([{ resource: 'DeploymentStatus', field: 'state', code: 'invalid' }], STATUS_DOCS);
    const status = addDeploymentStatus(ctx.state, deployment, {
      state,
      creator: ctx.login,
      description: typeof ctx.body.description === 'string' ? ctx.body.description.slice(0, 140) : '',
      environment: typeof ctx.body.environment === 'string' ? ctx.body.environment : undefined,
      log_url: typeof ctx.body.log_url === 'string' ? ctx.body.log_url : typeof ctx.body.target_url === 'string' ? ctx.body.target_url : '',
      environment_url: typeof ctx.body.environment_url === 'string' ? ctx.body.environment_url : '',
    });
    return { status: 201, body: deploymentStatusJson(ctx.state, deployment, status) };
  }),
];

/** Adds a status (now, unless `at` is given: tests record past deployments), as GitHub does on POST …/statuses. */
export function addDeploymentStatus(
  state: GitHubState,
  deployment: DeploymentRecord,
  input: { state: DeploymentState; creator?: string; description?: string; environment?: string; log_url?: string; environment_url?: string; at?: string },
): DeploymentStatusRecord {
  if (input.environment) deployment.environment = input.environment;
  const status: DeploymentStatusRecord = {
    id: state.nextId(),
    state: input.state,
    creator: input.creator ?? deployment.creator,
    description: input.description ?? '',
    environment: deployment.environment,
    log_url: input.log_url ?? '',
    environment_url: input.environment_url ?? '',
    created_at: input.at ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  deployment.statuses.push(status);
  deployment.updated_at = status.created_at;
  return status;
}

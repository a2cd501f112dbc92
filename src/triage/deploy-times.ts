import type { GitHubClient } from '../github/create-octokit.js';

/** When a commit went live: the first successful deployment of it or of a commit after it on the branch. */
export interface DeployTime {
  readonly at: string;
  readonly environment: string;
  /** The deployment status's log or environment URL, when it has one. */
  readonly url?: string;
}

export interface DeployTimeline {
  /** What placed the changes on the timeline. */
  readonly source: 'deployments';
  /** The environments whose deployments were used ("production"). */
  readonly environments: string[];
  /** By commit sha. */
  readonly deployed: ReadonlyMap<string, DeployTime>;
}

const MAX_DEPLOYMENTS = 30;

/**
 * The repository's GitHub Deployments as a timeline for the window's commits (newest first, as the branch lists
 * them): production deployments (`production_environment`, or an environment named production/prod), else all;
 * each counts from its first `success` status. Deploying a commit deploys those before it, so a commit went
 * live with the first successful deployment of it or of a newer one. Undefined when the repository records no
 * successful deployment (changes are then placed by commit time).
 */
export async function readDeployTimeline(
  github: GitHubClient,
  repo: { owner: string; repo: string },
  commits: readonly { sha: string }[],
): Promise<DeployTimeline | undefined> {
  const listed = await github.repos.listDeployments({ owner: repo.owner, repo: repo.repo, per_page: 100 });
  if (listed.data.length === 0) return undefined;
  const production = listed.data.filter((one) => one.production_environment === true || /^prod(uction)?$/i.test(one.environment));
  const chosen = (production.length > 0 ? production : listed.data).slice(0, MAX_DEPLOYMENTS);
  const succeeded = await Promise.all(
    chosen.map(async (deployment) => {
      const statuses = await github.repos.listDeploymentStatuses({ owner: repo.owner, repo: repo.repo, deployment_id: deployment.id, per_page: 100 });
      const success = statuses.data.filter((status) => status.state === 'success').sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))[0];
      return success
        ? { sha: deployment.sha, at: success.created_at, environment: deployment.environment, url: success.log_url || success.environment_url || undefined }
        : undefined;
    }),
  );
  const firstBySha = new Map<string, DeployTime>();
  for (const one of succeeded) {
    if (!one) continue;
    const known = firstBySha.get(one.sha);
    if (!known || Date.parse(one.at) < Date.parse(known.at)) firstBySha.set(one.sha, { at: one.at, environment: one.environment, url: one.url });
  }
  if (firstBySha.size === 0) return undefined;
  const deployed = new Map<string, DeployTime>();
  let earliestSoFar: DeployTime | undefined;
  for (const commit of commits) {
    const own = firstBySha.get(commit.sha);
    if (own && (!earliestSoFar || Date.parse(own.at) < Date.parse(earliestSoFar.at))) earliestSoFar = own;
    if (earliestSoFar) deployed.set(commit.sha, earliestSoFar);
  }
  return { source: 'deployments', environments: [...new Set(chosen.map((one) => one.environment))].sort(), deployed };
}

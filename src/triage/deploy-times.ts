import type { GitHubClient } from '../github/create-octokit.js';

/** When a commit went live: the first successful deployment (or published release) of it or of a commit after it on the branch. */
export interface DeployTime {
  readonly at: string;
  /** The environment deployed to ("production"), or the release ("release v1.4.0"). */
  readonly environment: string;
  /** The deployment status's log or environment URL, when it has one. */
  readonly url?: string;
}

export interface DeployTimeline {
  /** What placed the changes on the timeline. */
  readonly source: 'deployments' | 'releases';
  /** The environments whose deployments were used ("production"); for releases, "releases". */
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
  const deployments = await firstDeployments(github, repo);
  if (deployments) return { source: 'deployments', environments: deployments.environments, deployed: liveFrom(commits, deployments.firstBySha) };
  const releases = await firstReleases(github, repo);
  if (releases) return { source: 'releases', environments: ['releases'], deployed: liveFrom(commits, releases) };
  return undefined;
}

async function firstDeployments(
  github: GitHubClient,
  repo: { owner: string; repo: string },
): Promise<{ environments: string[]; firstBySha: Map<string, DeployTime> } | undefined> {
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
  for (const one of succeeded) if (one) keepEarliest(firstBySha, one.sha, { at: one.at, environment: one.environment, url: one.url });
  if (firstBySha.size === 0) return undefined;
  return { environments: [...new Set(chosen.map((one) => one.environment))].sort(), firstBySha };
}

/**
 * Published releases (not drafts or prereleases) as deploy times, for repositories that deploy on release: each
 * release's tag resolved to its commit through the tags list.
 */
async function firstReleases(github: GitHubClient, repo: { owner: string; repo: string }): Promise<Map<string, DeployTime> | undefined> {
  const releases = (await github.repos.listReleases({ owner: repo.owner, repo: repo.repo, per_page: 30 })).data.filter(
    (release) => !release.draft && !release.prerelease && release.published_at,
  );
  if (releases.length === 0) return undefined;
  const tags = await github.repos.listTags({ owner: repo.owner, repo: repo.repo, per_page: 100 });
  const shaOf = new Map(tags.data.map((tag) => [tag.name, tag.commit.sha]));
  const firstBySha = new Map<string, DeployTime>();
  for (const release of releases) {
    const sha = shaOf.get(release.tag_name);
    if (sha && release.published_at)
      keepEarliest(firstBySha, sha, { at: release.published_at, environment: `release ${release.tag_name}`, url: release.html_url });
  }
  return firstBySha.size > 0 ? firstBySha : undefined;
}

function keepEarliest(bySha: Map<string, DeployTime>, sha: string, time: DeployTime): void {
  const known = bySha.get(sha);
  if (!known || Date.parse(time.at) < Date.parse(known.at)) bySha.set(sha, time);
}

/** Deploying a commit deploys those before it: each commit (newest first) is live from the earliest deploy of it or a newer one. */
function liveFrom(commits: readonly { sha: string }[], firstBySha: ReadonlyMap<string, DeployTime>): Map<string, DeployTime> {
  const deployed = new Map<string, DeployTime>();
  let earliestSoFar: DeployTime | undefined;
  for (const commit of commits) {
    const own = firstBySha.get(commit.sha);
    if (own && (!earliestSoFar || Date.parse(own.at) < Date.parse(earliestSoFar.at))) earliestSoFar = own;
    if (earliestSoFar) deployed.set(commit.sha, earliestSoFar);
  }
  return deployed;
}

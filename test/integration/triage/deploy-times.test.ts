import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOctokit } from '../../../src/github/create-octokit.js';
import { createLogger } from '../../../src/logging/logger.js';
import { gatherMetricEvidence } from '../../../src/monitoring/metric-evidence.js';
import { metricChangeLine, summarizeMetricEvidence } from '../../../src/monitoring/monitoring-summary.js';
import { PrometheusClient } from '../../../src/monitoring/prometheus-client.js';
import { gatherRepositoryChanges, repositoryChangesText } from '../../../src/triage/repository-changes.js';
import { startGitHubFake, type GitHubFake } from '../../fakes/github-fake.js';
import { type PrometheusServer, startBackfilledPrometheus } from '../../helpers/prometheus-server.js';

// Two hours ago on the minute: the error rate steps up at jumpAt.
const base = Math.floor(Date.now() / 1000 / 60) * 60 - 2 * 3600;
const jumpAt = base + 60 * 60;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

function history(): string {
  const lines = ['# TYPE http_errors_per_second gauge'];
  for (let minute = 0; minute < 100; minute++) {
    const time = base + minute * 60;
    lines.push(`http_errors_per_second{service="checkout"} ${(time < jumpAt ? 1 : 6) + ((minute * 7) % 5) / 50} ${time}`);
  }
  lines.push('# EOF', '');
  return lines.join('\n');
}

let prometheus: PrometheusServer;
let github: GitHubFake;
beforeAll(async () => {
  [prometheus, github] = await Promise.all([startBackfilledPrometheus(history()), startGitHubFake()]);
  for (const repo of ['deployed', 'undeployed', 'released']) {
    await github.createRepo('acme', repo, { 'src/cart.js': 'export const total = (items) => items.length;\n' });
    await github.commit('acme', repo, 'main', { message: 'Pay: compute totals lazily', files: { 'src/cart.js': '// lazy\n' }, date: iso(jumpAt - 40 * 60) });
    await github.commit('acme', repo, 'main', { message: 'Docs: describe payments', files: { 'README.md': '# checkout\n' }, date: iso(jumpAt - 2 * 60) });
  }
  // acme/deployed goes to production through a deploy tool: the lazy totals went out a minute before the jump, the docs twenty minutes after it.
  const [deployedEarly, deployedLate] = await commitsOf('deployed');
  github.recordDeployment('acme', 'deployed', {
    sha: deployedEarly,
    environment: 'staging',
    at: iso(jumpAt - 30 * 60),
    statuses: [{ state: 'success', at: iso(jumpAt - 29 * 60) }],
  });
  github.recordDeployment('acme', 'deployed', {
    sha: deployedEarly,
    at: iso(jumpAt - 5 * 60),
    statuses: [
      { state: 'in_progress', at: iso(jumpAt - 4 * 60) },
      { state: 'success', at: iso(jumpAt - 60), log_url: 'https://deploys.example/42' },
    ],
  });
  github.recordDeployment('acme', 'deployed', { sha: deployedLate, at: iso(jumpAt + 15 * 60), statuses: [{ state: 'success', at: iso(jumpAt + 20 * 60) }] });
  github.recordDeployment('acme', 'deployed', { sha: deployedLate, at: iso(jumpAt - 3 * 60), statuses: [{ state: 'failure', at: iso(jumpAt - 2 * 60) }] });
  // acme/released deploys on release: v1.4.0 (the lazy totals) a minute before the jump; a draft and a prerelease of the docs before it do not count.
  const [releasedEarly, releasedLate] = await commitsOf('released');
  await github.recordRelease('acme', 'released', { tag: 'v1.4.0', sha: releasedEarly, publishedAt: iso(jumpAt - 60) });
  await github.recordRelease('acme', 'released', { tag: 'v1.5.0-rc.1', sha: releasedLate, publishedAt: iso(jumpAt - 3 * 60), prerelease: true });
  await github.recordRelease('acme', 'released', { tag: 'v1.5.0', sha: releasedLate, publishedAt: null });
}, 60_000);
afterAll(async () => {
  await Promise.all([prometheus?.stop(), github?.stop()]);
});

/** The repository's two commits, oldest first. */
async function commitsOf(repo: string): Promise<[string, string]> {
  const listed = await octokit().repos.listCommits({ owner: 'acme', repo, sha: 'main', per_page: 2 });
  return [listed.data[1]!.sha, listed.data[0]!.sha];
}

const octokit = () => createOctokit({ token: 'ghp_test', baseUrl: github.url, logger: createLogger({ level: 'silent' }) });

async function evidenceFor(repo: string) {
  const changes = await gatherRepositoryChanges({
    github: octokit(),
    owner: 'acme',
    repo,
    branch: 'main',
    since: new Date((jumpAt - 3 * 3600) * 1000),
    until: new Date((jumpAt + 5 * 60) * 1000),
    dir: '/nonexistent',
  });
  const window = { start: jumpAt - 3600, end: jumpAt + 1800, step: 60 };
  const evidence = await gatherMetricEvidence(new PrometheusClient({ url: prometheus.url }), { errors: 'sum(http_errors_per_second)' }, window, changes);
  return { changes, summary: summarizeMetricEvidence('checkout', evidence, window, prometheus.url, changes.deployments) };
}

describe('changes placed by their deployments (GitHub Deployments on the fake, real Prometheus)', () => {
  it('names the commit deployed before the jump, not the one committed before it but deployed after', async () => {
    const { changes, summary } = await evidenceFor('deployed');
    expect(changes.deployments).toEqual({ environments: ['production'], via: 'deployments' });
    // The staging deployment and the failed one do not count; deploying the docs did not make the lazy totals any later.
    expect(changes.commits.map((commit) => [commit.subject, commit.deployedAt, commit.deployedTo])).toEqual([
      ['Docs: describe payments', iso(jumpAt + 20 * 60), 'production'],
      ['Pay: compute totals lazily', iso(jumpAt - 60), 'production'],
    ]);
    const [change] = summary.changes;
    expect(change!.at).toBe(jumpAt);
    expect(change!.commit?.subject).toBe('Pay: compute totals lazily');
    expect(summary.placedBy).toBe('GitHub Deployments to production');
    expect(metricChangeLine(change!)).toContain(
      `last commit deployed before: ${change!.commit!.sha.slice(0, 7)} "Pay: compute totals lazily" (deployed to production ${iso(jumpAt - 60)}; committed ${iso(jumpAt - 40 * 60)})`,
    );
    expect(repositoryChangesText(changes)).toContain('Placed in time by GitHub Deployments to production');
  });

  it('a repository that deploys on release: the commit released before the jump is named, by its release', async () => {
    const { changes, summary } = await evidenceFor('released');
    expect(changes.deployments).toEqual({ environments: ['releases'], via: 'releases' });
    expect(changes.commits.map((commit) => [commit.subject, commit.deployedAt, commit.deployedTo])).toEqual([
      ['Docs: describe payments', undefined, undefined],
      ['Pay: compute totals lazily', iso(jumpAt - 60), 'release v1.4.0'],
    ]);
    const [change] = summary.changes;
    expect(summary.placedBy).toBe('GitHub releases (their publication)');
    expect(metricChangeLine(change!)).toContain(
      `last commit deployed before: ${change!.commit!.sha.slice(0, 7)} "Pay: compute totals lazily" (released in v1.4.0 ${iso(jumpAt - 60)}; committed ${iso(jumpAt - 40 * 60)})`,
    );
  });

  it('without deployments the same history names the last commit by commit time', async () => {
    const { changes, summary } = await evidenceFor('undeployed');
    expect(changes.deployments).toBeUndefined();
    expect(summary.changes[0]!.commit?.subject).toBe('Docs: describe payments');
    expect(summary.placedBy).toBe('commit times');
  });

  it('the fake lists deployments newest first, filters them and refuses an unknown status state as GitHub does', async () => {
    const client = octokit();
    const production = await client.repos.listDeployments({ owner: 'acme', repo: 'deployed', environment: 'production' });
    expect(production.data.map((one) => one.created_at)).toEqual([iso(jumpAt + 15 * 60), iso(jumpAt - 3 * 60), iso(jumpAt - 5 * 60)]);
    const statuses = await client.repos.listDeploymentStatuses({ owner: 'acme', repo: 'deployed', deployment_id: production.data[2]!.id });
    expect(statuses.data.map((one) => [one.state, one.log_url])).toEqual([
      ['success', 'https://deploys.example/42'],
      ['in_progress', ''],
    ]);
    const created = await client.repos.createDeployment({
      owner: 'acme',
      repo: 'deployed',
      ref: 'main',
      environment: 'qa',
      auto_merge: false,
      required_contexts: [],
    });
    expect(created.status).toBe(201);
    const id = (created.data as { id: number }).id;
    await expect(client.repos.createDeploymentStatus({ owner: 'acme', repo: 'deployed', deployment_id: id, state: 'done' as never })).rejects.toMatchObject({
      status: 422,
    });
    github.deployments.splice(
      github.deployments.findIndex((one) => one.id === id),
      1,
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOctokit } from '../../../src/github/create-octokit.js';
import { createLogger } from '../../../src/logging/logger.js';
import { startGitHubFake, type GitHubFake } from '../../fakes/github-fake.js';

let github: GitHubFake;

beforeAll(async () => {
  github = await startGitHubFake();
  await github.createRepo('acme', 'app', { 'README.md': '# app\n' });
});

afterAll(async () => {
  await github?.stop();
});

describe('writes that notify people', () => {
  it("are spaced by GitHub's one second between writes, not the throttling plugin's three", async () => {
    const issue = github.createIssue('acme', 'app', { title: 'Pacing' });
    // Two clients, as a note on one pull request and the next run's pull request come from different jobs.
    const [first, second] = [0, 1].map(() => createOctokit({ token: 'ghp_test', baseUrl: github.url, logger: createLogger({ level: 'silent' }) }));
    await Promise.all(
      [first, second].map((client, i) => client?.issues.createComment({ owner: 'acme', repo: 'app', issue_number: issue.number, body: `note ${i}` })),
    );
    const [a, b] = github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/comments')).map((r) => r.at);
    const gap = (b ?? 0) - (a ?? 0);
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(gap).toBeLessThan(2500);
  });
});

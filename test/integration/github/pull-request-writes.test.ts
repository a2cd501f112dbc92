import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOctokit } from '../../../src/github/create-octokit.js';
import { openOrUpdatePullRequest } from '../../../src/github/pull-request.js';
import { createRedactor } from '../../../src/security/redact.js';

const redact = createRedactor();
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
    // The plugin's spacing would make it 3000 or more; the room up to it is for a loaded machine's late timers.
    expect(gap).toBeLessThan(2950);
  });
});

describe('opening the pull request of a run', () => {
  const octokit = () => createOctokit({ token: 'ghp_test', baseUrl: github.url, logger: createLogger({ level: 'silent' }) });
  const input = (head: string) => ({ owner: 'acme', repo: 'app', head, base: 'main', title: 'Add x', body: 'Body' });
  const calls = (since: number) => github.requests.slice(since).map((r) => `${r.method} ${r.path}`);

  it('opens it at once for a branch the run made, and updates the open one when GitHub says it already exists', async () => {
    await github.commit('acme', 'app', 'wrench/new', { message: 'x', files: { 'x.txt': 'x\n' } });
    let since = github.requests.length;
    const opened = await openOrUpdatePullRequest(octokit(), input('wrench/new'), redact, { branchIsNew: true });
    expect(opened.created).toBe(true);
    expect(calls(since)).toEqual(['POST /repos/acme/app/pulls']);

    since = github.requests.length;
    const again = await openOrUpdatePullRequest(octokit(), { ...input('wrench/new'), body: 'Body 2' }, redact, { branchIsNew: true });
    expect(again).toMatchObject({ number: opened.number, created: false });
    // Who opened the open one is checked against Wrench's own account (a token's user: GET /app refuses it) before its body is touched.
    expect(calls(since)).toEqual([
      'POST /repos/acme/app/pulls',
      'GET /repos/acme/app/pulls',
      'GET /app',
      'GET /user',
      `PATCH /repos/acme/app/pulls/${opened.number}`,
    ]);
    expect(github.pulls('acme', 'app').find((p) => p.number === opened.number)?.body).toBe('Body 2');
  });

  it('looks for the open one first on a branch that existed before the run, and passes other refusals on', async () => {
    await github.commit('acme', 'app', 'wrench/old', { message: 'y', files: { 'y.txt': 'y\n' } });
    const since = github.requests.length;
    const opened = await openOrUpdatePullRequest(octokit(), input('wrench/old'), redact);
    expect(opened.created).toBe(true);
    expect(calls(since)).toEqual(['GET /repos/acme/app/pulls', 'POST /repos/acme/app/pulls']);
    // No commits between the branches: GitHub's other 422 is not read as "already exists".
    await expect(openOrUpdatePullRequest(octokit(), input('main'), redact, { branchIsNew: true })).rejects.toMatchObject({ status: 422 });
  });

  it("never rewrites the description of a pull request someone else opened, whatever its text says; Wrench's own is refreshed", async () => {
    await github.commit('acme', 'app', 'alice-feature', { message: 'a', files: { 'a.txt': 'a\n' } });
    await github.createPull('acme', 'app', { title: 'Alice feature', head: 'alice-feature', body: "Alice's own words.", user: 'alice' });
    // Mallory's body looks exactly like one Wrench writes: the text proves nothing, the author does.
    await github.commit('acme', 'app', 'wrench/forged', { message: 'f', files: { 'f.txt': 'f\n' } });
    const forged = '## Summary\n\n[Every step Wrench took in this run](https://wrench.example/runs/1)';
    await github.createPull('acme', 'app', { title: 'Forged', head: 'wrench/forged', body: forged, user: 'mallory' });
    for (const [head, body] of [
      ['alice-feature', "Alice's own words."],
      ['wrench/forged', forged],
    ] as const) {
      const since = github.requests.length;
      const ref = await openOrUpdatePullRequest(octokit(), { ...input(head), body: 'Wrench summary' }, redact);
      expect(ref).toMatchObject({ created: false, bodyKept: true });
      expect(calls(since).filter((c) => c.startsWith('PATCH'))).toEqual([]);
      expect(github.pulls('acme', 'app').find((p) => p.headRef === head)?.body).toBe(body);
    }
  });

  it("a follow-up on Wrench's pull request for an issue keeps `Closes #N` in the body, as a person's added link too", async () => {
    const issue = github.createIssue('acme', 'app', { title: 'Broken thing' });
    await github.commit('acme', 'app', 'wrench/issue', { message: 'i', files: { 'i.txt': 'i\n' } });
    const opened = await openOrUpdatePullRequest(octokit(), { ...input('wrench/issue'), body: `First run.\n\nCloses #${issue.number}` }, redact, {
      branchIsNew: true,
    });
    expect(github.pulls('acme', 'app').find((p) => p.number === opened.number)?.user).toBe('wrench-bot');
    // A person adds another link on GitHub; then a fix round refreshes the body without either.
    const record = github.pulls('acme', 'app').find((p) => p.number === opened.number)!;
    record.body = `${record.body}\n\nAlso fixes acme/app#99`;
    const updated = await openOrUpdatePullRequest(octokit(), { ...input('wrench/issue'), body: 'Fix round 1 of 2.' }, redact);
    expect(updated).toMatchObject({ number: opened.number, created: false });
    const body = github.pulls('acme', 'app').find((p) => p.number === opened.number)?.body ?? '';
    expect(body).toMatch(/^Fix round 1 of 2\./);
    expect(body).toContain(`Closes #${issue.number}`);
    expect(body).toContain('Closes acme/app#99');
    // Said once, however many follow-ups.
    await openOrUpdatePullRequest(octokit(), { ...input('wrench/issue'), body: `Review reply.\n\nCloses #${issue.number}` }, redact);
    const last = github.pulls('acme', 'app').find((p) => p.number === opened.number)?.body ?? '';
    expect(last.match(new RegExp(`Closes #${issue.number}\\b`, 'g'))).toHaveLength(1);
    expect(last).toContain('Closes acme/app#99');
  });
});

import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, gitOut } from '../../fakes/github/git.js';
import { startGitHubFake, type GitHubFake } from '../../fakes/github-fake.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const APP_LINES = Array.from({ length: 30 }, (_, i) => `export const line${i + 1} = ${i + 1};`).join('\n') + '\n';

describe('github fake with the real Octokit and git', () => {
  let fake: GitHubFake;
  let work: TempDir;
  let octokit: Octokit;
  let headSha: string;

  beforeAll(async () => {
    fake = await startGitHubFake();
    work = await makeTempDir();
    octokit = new (Octokit.plugin(retry))({ auth: 'ghp_test', baseUrl: fake.url, log: quiet, retry: { retryAfterBaseValue: 10 } });
    await fake.createRepo(
      'acme',
      'web',
      { 'README.md': '# web\n', 'src/app.ts': APP_LINES },
      {
        commits: [
          { message: 'Add docs', files: { 'docs/guide.md': 'guide\n' }, author: { name: 'Ada', email: 'ada@example.com' }, date: '2024-03-01T10:00:00Z' },
        ],
      },
    );
    const clone = join(work.path, 'web');
    // Pushing to GitHub takes a token (here in the URL, as a person's git would send it).
    await git(['clone', '--quiet', `${fake.gitBaseUrl.replace('://', '://x-access-token:ghp_person@')}/acme/web.git`, clone]);
    await git(['checkout', '--quiet', '-b', 'wrench/fix-line-10'], { cwd: clone });
    await writeFile(join(clone, 'src/app.ts'), APP_LINES.replace('line10 = 10', 'line10 = 100'));
    await writeFile(join(clone, 'src/new.ts'), 'export const fresh = true;\n');
    await git(['add', '-A'], { cwd: clone });
    await git(['commit', '--quiet', '-m', 'Fix line 10'], { cwd: clone });
    await git(['push', '--quiet', 'origin', 'wrench/fix-line-10'], { cwd: clone });
    headSha = await gitOut(['rev-parse', 'HEAD'], { cwd: clone });
  });
  afterAll(async () => {
    await fake.stop();
    await work.remove();
  });

  it('describes the repository, branches and history from the bare repo', async () => {
    const { data: repo } = await octokit.repos.get({ owner: 'acme', repo: 'web' });
    expect(repo).toMatchObject({ full_name: 'acme/web', default_branch: 'main', private: false });
    const { data: branch } = await octokit.repos.getBranch({ owner: 'acme', repo: 'web', branch: 'wrench/fix-line-10' });
    expect(branch.commit.sha).toBe(headSha);
    const { data: commits } = await octokit.repos.listCommits({ owner: 'acme', repo: 'web', since: '2024-02-01T00:00:00Z', until: '2024-04-01T00:00:00Z' });
    expect(commits.map((c) => c.commit.message)).toEqual(['Add docs']);
    expect(commits[0]!.commit.author).toMatchObject({ name: 'Ada', date: '2024-03-01T10:00:00Z' });
    const { data: one } = await octokit.repos.getCommit({ owner: 'acme', repo: 'web', ref: commits[0]!.sha });
    expect(one.files?.map((f) => f.filename)).toEqual(['docs/guide.md']);
    expect(one.files?.[0]?.patch).toContain('+guide');
    await expect(octokit.repos.get({ owner: 'acme', repo: 'nope' })).rejects.toMatchObject({ status: 404 });
  });

  it('opens a pull request for a pushed branch and refuses bad ones with 422', async () => {
    const { data: pr, status } = await octokit.pulls.create({
      owner: 'acme',
      repo: 'web',
      head: 'wrench/fix-line-10',
      base: 'main',
      title: 'Fix line 10',
      body: 'Closes nothing',
    });
    expect(status).toBe(201);
    expect(pr).toMatchObject({
      number: 1,
      state: 'open',
      draft: false,
      head: { ref: 'wrench/fix-line-10', sha: headSha },
      base: { ref: 'main' },
      user: { login: 'wrench-bot' },
    });
    expect(pr.html_url).toBe(`${fake.url}/acme/web/pull/1`);

    await expect(octokit.pulls.create({ owner: 'acme', repo: 'web', head: 'acme:wrench/fix-line-10', base: 'main', title: 'again' })).rejects.toMatchObject({
      status: 422,
      response: { data: { message: 'Validation Failed', errors: [{ code: 'custom', message: 'A pull request already exists for acme:wrench/fix-line-10.' }] } },
    });
    await expect(octokit.pulls.create({ owner: 'acme', repo: 'web', head: 'no-such-branch', base: 'main', title: 'x' })).rejects.toMatchObject({
      status: 422,
      response: { data: { errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }] } },
    });
    const { data: listed } = await octokit.pulls.list({ owner: 'acme', repo: 'web', head: 'acme:wrench/fix-line-10' });
    expect(listed.map((p) => p.number)).toEqual([1]);
  });

  it('lists the changed files with patches, the commits and the comparison', async () => {
    const { data: files } = await octokit.pulls.listFiles({ owner: 'acme', repo: 'web', pull_number: 1 });
    expect(files.map((f) => [f.filename, f.status, f.additions, f.deletions])).toEqual([
      ['src/app.ts', 'modified', 1, 1],
      ['src/new.ts', 'added', 1, 0],
    ]);
    expect(files[0]!.patch).toMatch(/^@@ -7,7 \+7,7 @@/);
    const { data: commits } = await octokit.pulls.listCommits({ owner: 'acme', repo: 'web', pull_number: 1 });
    expect(commits.map((c) => c.sha)).toEqual([headSha]);
    const { data: compare } = await octokit.repos.compareCommitsWithBasehead({ owner: 'acme', repo: 'web', basehead: 'main...wrench/fix-line-10' });
    expect(compare).toMatchObject({ status: 'ahead', ahead_by: 1, behind_by: 0, total_commits: 1 });
  });

  it('accepts review comments inside the diff and refuses others with 422', async () => {
    const { data: review } = await octokit.pulls.createReview({
      owner: 'acme',
      repo: 'web',
      pull_number: 1,
      event: 'COMMENT',
      body: 'Looks fine',
      comments: [
        { path: 'src/app.ts', line: 10, side: 'RIGHT', body: 'why 100?' },
        { path: 'src/app.ts', line: 8, body: 'context line is fine' },
      ],
    });
    expect(review).toMatchObject({ state: 'COMMENTED', body: 'Looks fine', commit_id: headSha });
    const { data: comments } = await octokit.pulls.listReviewComments({ owner: 'acme', repo: 'web', pull_number: 1 });
    expect(comments.map((c) => [c.path, c.line, c.body])).toEqual([
      ['src/app.ts', 10, 'why 100?'],
      ['src/app.ts', 8, 'context line is fine'],
    ]);
    expect(comments[0]!.diff_hunk).toContain('+export const line10 = 100;');

    const invalidLine = octokit.pulls.createReview({
      owner: 'acme',
      repo: 'web',
      pull_number: 1,
      event: 'COMMENT',
      body: 'x',
      comments: [{ path: 'src/app.ts', line: 25, body: 'outside the hunk' }],
    });
    await expect(invalidLine).rejects.toMatchObject({ status: 422, response: { data: { errors: ['Line could not be resolved'] } } });
    const invalidPath = octokit.pulls.createReview({
      owner: 'acme',
      repo: 'web',
      pull_number: 1,
      event: 'COMMENT',
      body: 'x',
      comments: [{ path: 'README.md', line: 1, body: 'not in diff' }],
    });
    await expect(invalidPath).rejects.toMatchObject({ status: 422, response: { data: { errors: ['Path could not be resolved'] } } });
    await expect(octokit.pulls.createReview({ owner: 'acme', repo: 'web', pull_number: 1, event: 'APPROVE' })).rejects.toMatchObject({ status: 422 });
    const { data: reviews } = await octokit.pulls.listReviews({ owner: 'acme', repo: 'web', pull_number: 1 });
    expect(reviews).toHaveLength(1);
  });

  it('comments on the pull request conversation', async () => {
    const { data: comment } = await octokit.issues.createComment({ owner: 'acme', repo: 'web', issue_number: 1, body: 'Tests pass.' });
    expect(comment.body).toBe('Tests pass.');
    const { data: comments } = await octokit.issues.listComments({ owner: 'acme', repo: 'web', issue_number: 1 });
    expect(comments.map((c) => c.body)).toEqual(['Tests pass.']);
    expect(fake.issueComments).toHaveLength(1);
  });

  it('merges for real and reports merged pull requests as closed', async () => {
    const mergeSha = await fake.mergePull(1);
    const { data: closed } = await octokit.pulls.list({ owner: 'acme', repo: 'web', state: 'closed' });
    expect(closed[0]).toMatchObject({ number: 1, state: 'closed', merge_commit_sha: mergeSha });
    expect(closed[0]!.merged_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const { data: pr } = await octokit.pulls.get({ owner: 'acme', repo: 'web', pull_number: 1 });
    expect(pr.merged).toBe(true);
    expect(await fake.branchSha('acme', 'web', 'main')).toBe(mergeSha);
    const log = await gitOut(['log', '--format=%s', '-1', 'main'], { gitDir: fake.gitDir('acme', 'web') });
    expect(log).toBe('Merge pull request #1 from acme/wrench/fix-line-10');
    const { data: files } = await octokit.pulls.listFiles({ owner: 'acme', repo: 'web', pull_number: 1 });
    expect(files).toHaveLength(2);
  });

  it('lets someone else open a pull request that Wrench can approve', async () => {
    await fake.commit('acme', 'web', 'feature/other', { message: 'Other change', files: { 'src/other.ts': 'export {};\n' } });
    const seeded = await fake.createPull('acme', 'web', { title: 'Other', head: 'feature/other', user: 'octocat' });
    const { data: review } = await octokit.pulls.createReview({ owner: 'acme', repo: 'web', pull_number: seeded.number as number, event: 'APPROVE' });
    expect(review.state).toBe('APPROVED');
  });

  it('refuses requests without a token', async () => {
    const anonymous = new Octokit({ baseUrl: fake.url, log: quiet });
    await expect(anonymous.repos.get({ owner: 'acme', repo: 'web' })).rejects.toMatchObject({ status: 401 });
    expect(fake.requests.at(-1)).toMatchObject({ status: 401, token: undefined });
  });

  it('simulates rate limits and server errors that Octokit retries', async () => {
    const limited: string[] = [];
    const throttled = new (Octokit.plugin(throttling, retry))({
      auth: 'ghp_test',
      baseUrl: fake.url,
      log: quiet,
      retry: { retryAfterBaseValue: 10 },
      throttle: {
        retryAfterBaseValue: 10,
        onRateLimit: () => {
          limited.push('primary');
          return true;
        },
        onSecondaryRateLimit: () => {
          limited.push('secondary');
          return true;
        },
      },
    });
    fake.failNext('GET /repos/acme/web', { status: 403 });
    fake.failNext('GET /repos/acme/web', { status: 429 });
    fake.failNext('/repos/acme/web/pulls/*', { status: 502 });
    const before = fake.requests.length;
    expect((await throttled.repos.get({ owner: 'acme', repo: 'web' })).status).toBe(200);
    expect((await throttled.pulls.get({ owner: 'acme', repo: 'web', pull_number: 1 })).status).toBe(200);
    expect(limited).toEqual(['primary', 'secondary']);
    expect(fake.requests.slice(before).map((r) => r.status)).toEqual([403, 429, 200, 502, 200]);
    expect(fake.requests.at(-1)?.headers.authorization).toBe('token ghp_test');
  });
});

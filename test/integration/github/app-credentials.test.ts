import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGitHub } from '../../../app/cli/doctor-checks.js';
import { parseConfigFile, type Config } from '../../../src/config/load-config.js';
import { envSchema } from '../../../src/config/env-options.js';
import { createGitHubAccess } from '../../../src/github/github-access.js';
import { startGitHubFake, type GitHubFake } from '../../fakes/github-fake.js';

const keys = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs1', format: 'pem' } });

describe('GitHub App credentials against the fake (JWT checked with the App public key)', () => {
  const appKeys = keys();
  let fake: GitHubFake;
  const env = (extra: Record<string, string> = {}) =>
    envSchema.parse({ GITHUB_APP_ID: '4242', GITHUB_APP_PRIVATE_KEY: appKeys.privateKey, GITHUB_API_URL: fake.url, ...extra });
  const tokenPosts = () => fake.requests.filter((r) => r.method === 'POST' && /^\/app\/installations\/\d+\/access_tokens$/.test(r.path));

  beforeAll(async () => {
    fake = await startGitHubFake({
      strictTokens: true,
      app: { id: 4242, slug: 'wrench-test', publicKey: appKeys.publicKey, installations: { acme: 7, 'solo/tool': 8 } },
    });
    await fake.createRepo('acme', 'web', { 'README.md': '# web\n' });
    await fake.createRepo('solo', 'tool', { 'README.md': '# tool\n' });
    await fake.createRepo('other', 'lib', { 'README.md': '# lib\n' });
  });
  afterAll(() => fake.stop());

  it("uses each repository's installation token for API calls and git, reused while it is fresh", async () => {
    const access = createGitHubAccess(env())!;
    expect(access.kind).toBe('app');
    const before = tokenPosts().length;
    const web = await access.octokit.repos.get({ owner: 'acme', repo: 'web' });
    await access.octokit.pulls.list({ owner: 'acme', repo: 'web' });
    const tool = await access.octokit.repos.get({ owner: 'solo', repo: 'tool' });
    expect([web.data.full_name, tool.data.full_name]).toEqual(['acme/web', 'solo/tool']);
    // One token per installation, then the cache.
    expect(tokenPosts().length - before).toBe(2);
    const webCalls = fake.requests.filter((r) => r.path.startsWith('/repos/acme/web') && !r.path.endsWith('/installation'));
    expect(new Set(webCalls.map((r) => r.token)).size).toBe(1);
    expect(webCalls[0]!.token).toMatch(/^ghs_/);
    expect(await access.gitCredential('acme', 'web')).toBe(webCalls[0]!.token);
    // The installation lookup and the token request carry the App's JWT, never an installation token.
    const lookups = fake.requests.filter((r) => r.path === '/repos/acme/web/installation');
    expect(lookups.length).toBe(1);
    expect(lookups[0]!.token?.split('.')).toHaveLength(3);
  });

  it('renews a token that is about to expire', async () => {
    fake.app!.options.tokenTtlSeconds = 120;
    try {
      const access = createGitHubAccess(env(), undefined, { renewBeforeMs: 5 * 60_000 })!;
      const before = tokenPosts().length;
      const first = await access.gitCredential('acme', 'web');
      const second = await access.gitCredential('acme', 'web');
      expect(second).not.toBe(first);
      expect(tokenPosts().length - before).toBe(2);
    } finally {
      fake.app!.options.tokenTtlSeconds = 3600;
    }
  });

  it('says plainly when the App is not installed on a repository, or its key is wrong', async () => {
    const access = createGitHubAccess(env())!;
    await expect(access.octokit.repos.get({ owner: 'other', repo: 'lib' })).rejects.toMatchObject({
      code: 'github_app_not_installed',
      message: expect.stringMatching(/not installed on other\/lib/),
    });
    const wrong = createGitHubAccess(env({ GITHUB_APP_PRIVATE_KEY: keys().privateKey }))!;
    await expect(wrong.gitCredential('acme', 'web')).rejects.toMatchObject({ code: 'github_app_credentials' });
  });

  it('wrench doctor lists what the App can see, with its permissions, and what it cannot', async () => {
    const config = (repos: string[]): Config => ({
      env: env(),
      file: parseConfigFile({ channels: Object.fromEntries(repos.map((repo, i) => [`C0${i}`, { repo }])) }),
      configPath: null,
      dataDir: '/tmp',
    });
    const good = await checkGitHub(config(['acme/web', 'solo/tool']));
    expect(good.ok).toBe(true);
    expect(good.detail).toMatch(/acme\/web \(installation 7: .*contents:write.*pull_requests:write/);
    const bad = await checkGitHub(config(['acme/web', 'other/lib']));
    expect(bad).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/not installed on other\/lib/),
      fix: expect.stringMatching(/Install the GitHub App/),
    });
    // A key that is not the App's: a credentials problem, not an installation to add.
    const wrongKey = await checkGitHub({ ...config(['acme/web']), env: env({ GITHUB_APP_PRIVATE_KEY: keys().privateKey }) });
    expect(wrongKey).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^GitHub refused the App's signed token \(GITHUB_APP_ID 4242\): a credentials problem, not the installation/),
      fix: expect.stringMatching(/GITHUB_APP_PRIVATE_KEY_PATH \(or GITHUB_APP_PRIVATE_KEY\) is one of its current private keys/),
    });
    expect(wrongKey.fix).not.toMatch(/Install/);
  });

  it("an installation token reaches only what the App was granted: GitHub's 403 and the permissions that would do, else the answer", async () => {
    const access = createGitHubAccess(env())!;
    const issue = fake.createIssue('acme', 'web', { title: 'Permissions' });
    fake.app!.options.permissions = { contents: 'read', metadata: 'read', pull_requests: 'read' };
    try {
      await expect(access.octokit.checks.get({ owner: 'acme', repo: 'web', check_run_id: 1 })).rejects.toMatchObject({
        status: 403,
        response: {
          data: { message: 'Resource not accessible by integration', documentation_url: expect.stringContaining('docs.github.com/rest/checks'), status: '403' },
          headers: { 'x-accepted-github-permissions': 'checks=read' },
        },
      });
      // Issues or pull requests at the level asked is enough for a pull request's comments.
      expect((await access.octokit.issues.listComments({ owner: 'acme', repo: 'web', issue_number: issue.number })).status).toBe(200);
      await expect(access.octokit.issues.createComment({ owner: 'acme', repo: 'web', issue_number: issue.number, body: 'x' })).rejects.toMatchObject({
        status: 403,
        response: { headers: { 'x-accepted-github-permissions': 'issues=write; pull_requests=write' } },
      });
    } finally {
      fake.app!.options.permissions = undefined;
    }
  });
});

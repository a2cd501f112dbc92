import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envSchema } from '../../../src/config/env-options.js';
import { createGitHubAccess, type GitHubAccess } from '../../../src/github/github-access.js';
import { commitAll } from '../../../src/workspace/commit-changes.js';
import { prepareWorkspace } from '../../../src/workspace/job-workspace.js';
import { pushBranch } from '../../../src/workspace/push-branch.js';
import { startGitHubFake, type GitHubFake } from '../../fakes/github-fake.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { startHttpGitServer, type HttpGitServer } from '../workspace/helpers/http-git-server.js';

describe('GitHub App installation tokens for git over HTTP (clone, fetch, push)', () => {
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  let fake: GitHubFake;
  let git: HttpGitServer;
  let data: TempDir;
  let access: GitHubAccess;
  const presented: string[] = [];

  beforeAll(async () => {
    fake = await startGitHubFake({
      strictTokens: true,
      app: { id: 9, slug: 'wrench-git', publicKey: keys.publicKey, installations: { 'acme/web': 1, 'solo/tool': 2 } },
    });
    await fake.createRepo('acme', 'web', { 'README.md': '# web\n' });
    await fake.createRepo('solo', 'tool', { 'README.md': '# tool\n' });
    // The git server accepts what GitHub accepts: a live installation token of the repository's installation.
    git = await startHttpGitServer(fake.root, (header, path) => {
      const basic = /^Basic (.+)$/.exec(header ?? '')?.[1];
      const [user, token] = Buffer.from(basic ?? '', 'base64')
        .toString('utf8')
        .split(':');
      const [, owner, repo] = /^\/([^/]+)\/([^/]+?)\.git\//.exec(path) ?? [];
      if (token) presented.push(token);
      const issued = token ? fake.app!.liveToken(token) : undefined;
      return user === 'x-access-token' && !!issued && fake.app!.covers(issued, owner!, repo!);
    });
    data = await makeTempDir('wrench-app-git-');
    access = createGitHubAccess(envSchema.parse({ GITHUB_APP_ID: '9', GITHUB_APP_PRIVATE_KEY: keys.privateKey, GITHUB_API_URL: fake.url }))!;
  });
  afterAll(async () => {
    await git?.close();
    await fake?.stop();
    await data?.remove();
  });

  it("clones and pushes with the repository's installation token, asked for at the moment git needs it", async () => {
    const workspace = await prepareWorkspace({
      dataDir: data.path,
      gitBaseUrl: git.url,
      owner: 'acme',
      repo: 'web',
      branch: 'wrench/app-token',
      jobId: 'job-1',
      credential: await access.gitCredential('acme', 'web'),
    });
    await writeFile(join(workspace.dir, 'NOTE.md'), 'pushed with an installation token\n');
    await commitAll({ dir: workspace.dir, message: 'Add a note', requester: { name: 'Alice', slackUserId: 'U0ALICE' } });
    const pushed = await pushBranch({
      guard: { secrets: [] },
      dir: workspace.dir,
      branch: 'wrench/app-token',
      gitBaseUrl: git.url,
      owner: 'acme',
      repo: 'web',
      credential: await access.gitCredential('acme', 'web'),
    });
    expect(await fake.branchSha('acme', 'web', 'wrench/app-token')).toBe(pushed.sha);
    expect(presented.length).toBeGreaterThan(0);
    expect(presented.every((token) => token.startsWith('ghs_'))).toBe(true);
    expect(git.requests.some((r) => r.authorized && r.path.endsWith('/git-receive-pack'))).toBe(true);
  });

  it("another installation's token is refused for this repository, and the push fails with a typed error", async () => {
    const workspace = await prepareWorkspace({
      dataDir: data.path,
      gitBaseUrl: git.url,
      owner: 'acme',
      repo: 'web',
      branch: 'wrench/wrong-token',
      jobId: 'job-2',
      credential: await access.gitCredential('acme', 'web'),
    });
    await writeFile(join(workspace.dir, 'NOTE2.md'), 'x\n');
    await commitAll({ dir: workspace.dir, message: 'x', requester: { name: 'Alice', slackUserId: 'U0ALICE' } });
    const wrong = await access.gitCredential('solo', 'tool');
    await expect(
      pushBranch({
        guard: { secrets: [] },
        dir: workspace.dir,
        branch: 'wrench/wrong-token',
        gitBaseUrl: git.url,
        owner: 'acme',
        repo: 'web',
        credential: wrong,
      }),
    ).rejects.toMatchObject({ code: 'push_failed' });
    expect(await fake.branchSha('acme', 'web', 'wrench/wrong-token')).toBeUndefined();
  });
});

import type { EnvOptions } from '../config/env-options.js';
import type { Logger } from '../logging/logger.js';
import { createOctokit, type GitHubClient } from './create-octokit.js';
import { InstallationAuth } from './installation-auth.js';

/** How Wrench talks to GitHub: one API client and a git credential per repository, from a token or an App. */
export interface GitHubAccess {
  kind: 'token' | 'app';
  /** Every API call; with an App, each /repos/{owner}/{repo} request carries that repository's installation token. */
  octokit: GitHubClient;
  /** For clone, fetch and push, asked for at the moment git needs it (an App's token may have been renewed). */
  gitCredential(owner: string, repo: string): Promise<string>;
  /** Set for an App: installation lookups and tokens (`wrench doctor`). */
  app?: InstallationAuth;
}

/** GITHUB_TOKEN when set, else the App (GITHUB_APP_ID + private key); null when neither is configured. */
export function createGitHubAccess(env: EnvOptions, logger?: Logger, options: { renewBeforeMs?: number } = {}): GitHubAccess | null {
  const baseUrl = env.GITHUB_API_URL;
  if (env.GITHUB_TOKEN) {
    const token = env.GITHUB_TOKEN;
    return { kind: 'token', octokit: createOctokit({ token, baseUrl, logger }), gitCredential: async () => token };
  }
  if (env.GITHUB_APP_ID && env.GITHUB_APP_PRIVATE_KEY) {
    const app = new InstallationAuth({ appId: env.GITHUB_APP_ID, privateKey: env.GITHUB_APP_PRIVATE_KEY, baseUrl, renewBeforeMs: options.renewBeforeMs });
    return {
      kind: 'app',
      app,
      octokit: createOctokit({ baseUrl, logger, authStrategy: () => app.strategy() }),
      gitCredential: async (owner, repo) => (await app.tokenFor(owner, repo)).token,
    };
  }
  return null;
}

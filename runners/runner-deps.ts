import type Anthropic from '@anthropic-ai/sdk';
import type { Config } from '../src/config/load-config.js';
import type { GitHubClient } from '../src/github/create-octokit.js';
import type { Logger } from '../src/logging/logger.js';
import type { Redactor } from '../src/security/redact.js';

/** What runners need; built once per process by the service or the CLI, injected in tests. */
export interface RunnerDeps {
  config: Config;
  logger: Logger;
  redact: Redactor;
  anthropic: Anthropic;
  /** null when no GitHub credential is configured (`wrench run` on a local path). */
  github: GitHubClient | null;
  /** The git credential for one repository, asked for right before git needs it (an App's tokens are renewed). */
  gitCredential?: (owner: string, repo: string) => Promise<string>;
  /** Every configured secret value, kept out of the sandbox and masked everywhere. */
  secrets: string[];
}

import { RequestError } from '@octokit/request-error';
import Anthropic from '@anthropic-ai/sdk';
import { isWrenchError, type WrenchErrorCode } from '../src/errors.js';
import type { TaskJob } from '../src/queue/task-job.js';

/** Errors worth another attempt of the whole job when they happen before the agent starts. */
const TRANSIENT_CODES = new Set<WrenchErrorCode>(['git_failed', 'redis_failed']);

export function isTransient(error: unknown): boolean {
  if (isWrenchError(error)) return TRANSIENT_CODES.has(error.code);
  if (error instanceof Anthropic.APIError) return false;
  if (error instanceof RequestError) return error.status >= 500 || error.status === 429;
  return true;
}

/** What the person in Slack reads when a run fails: the reason and what to do, never a stack trace. */
export function failureMessage(error: unknown): string {
  const text = error instanceof Error ? (error.message.split('\n')[0] ?? '').slice(0, 500) : String(error);
  if (isWrenchError(error)) return `The run failed: ${error.message}`;
  if (error instanceof RequestError) {
    const status = error.status;
    if (status === 401 || status === 403)
      return `GitHub refused the request (HTTP ${status}): ${text}. Check that GITHUB_TOKEN can push and open pull requests on this repository.`;
    if (status === 404) return `GitHub could not find the repository or branch (HTTP 404). Check the repository name and the token's access.`;
    if (status === 422) return `GitHub rejected the pull request (HTTP 422): ${text}.`;
    return `GitHub failed (HTTP ${status}): ${text}. Try again in a few minutes.`;
  }
  return `The run failed unexpectedly: ${text}. Try again; if it keeps failing, an administrator can check the logs for this job.`;
}

/** How to go on from here, in the words of where the run was asked for. */
export function continueHint(job: TaskJob, branchKept = false, what = 'continue'): string {
  const repo = job.localPath ?? `${job.repo.owner}/${job.repo.name}`;
  if (job.origin.type === 'cli') return `to ${what}, run \`wrench run --repo ${repo}${branchKept ? ' --continue' : ''} "…"\`.`;
  return `mention me in this thread to ${what}.`;
}

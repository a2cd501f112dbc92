import { RequestError } from '@octokit/request-error';
import Anthropic from '@anthropic-ai/sdk';
import { type ErrorStrings, renderError } from '../src/error-words.js';
import { describeError, isWrenchError, type WrenchErrorCode } from '../src/errors.js';
import type { TaskJob } from '../src/queue/task-job.js';
import { isDiskFull } from '../src/workspace/disk-space.js';
import { stringsFor } from '../src/slack/strings/index.js';

/** Errors worth another attempt of the whole job when they happen before the agent starts. */
const TRANSIENT_CODES = new Set<WrenchErrorCode>(['git_failed', 'redis_failed']);

export function isTransient(error: unknown): boolean {
  if (isWrenchError(error)) return TRANSIENT_CODES.has(error.code);
  if (error instanceof Anthropic.APIError) return false;
  if (error instanceof RequestError) return error.status >= 500 || error.status === 429;
  return true;
}

/**
 * What the person in Slack reads when a run fails: the reason and what to do, never a stack trace; Wrench's words in
 * the thread's language (`language`), as is a typed error's with a detail; any other error's own words as they are.
 */
export function failureMessage(error: unknown, language?: string): string {
  const strings = stringsFor(language);
  const t = strings.failure;
  const text = error instanceof Error ? (error.message.split('\n')[0] ?? '').slice(0, 500) : String(error);
  // A full disk said plainly wherever it struck (git's `No space left on device`, Node's ENOSPC), not as git's raw words.
  if (!(isWrenchError(error) && error.detail) && isDiskFull(error)) return t.runFailed(renderError({ key: 'diskFull' }, strings.errors));
  if (isWrenchError(error)) return t.runFailed(errorSaid(error, strings.errors));
  if (error instanceof RequestError) {
    const status = error.status;
    if (status === 401 || status === 403) return t.githubRefused(status, text);
    if (status === 404) return t.githubNotFound;
    if (status === 422) return t.githubRejected(text);
    return t.githubFailed(status, text);
  }
  return t.unexpected(text);
}

/** What an error says in a thread whose `errors` are `strings`: a typed error's detail in them, any other its own words. */
export function errorSaid(error: unknown, strings: ErrorStrings): string {
  return isWrenchError(error) && error.detail ? renderError(error.detail, strings) : describeError(error);
}

/** How to go on from here, in the words of where the run was asked for. */
export function continueHint(job: TaskJob, branchKept = false, what = 'continue'): string {
  const repo = job.localPath ?? `${job.repo.owner}/${job.repo.name}`;
  if (job.origin.type === 'cli') return `to ${what}, run \`wrench run --repo ${repo}${branchKept ? ' --continue' : ''} "…"\`.`;
  return `mention me in this thread to ${what}.`;
}

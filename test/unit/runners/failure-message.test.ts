import Anthropic from '@anthropic-ai/sdk';
import { RequestError } from '@octokit/request-error';
import { describe, expect, it } from 'vitest';
import { WrenchError, wrenchErrorSaying } from '../../../src/errors.js';
import { failureMessage, isTransient } from '../../../runners/failure-message.js';
import { GitError } from '../../../src/workspace/run-git.js';
import { isDiskFull } from '../../../src/workspace/disk-space.js';

const gitHubError = (status: number, message = 'Validation Failed') =>
  new RequestError(message, status, { request: { method: 'POST', url: 'https://api.github.com/repos/acme/web/pulls', headers: {} } });

describe('failure message and the transient rule: GitHub errors are Octokit RequestErrors', () => {
  it('names what GitHub refused and what to check', () => {
    expect(failureMessage(gitHubError(403, 'Resource not accessible'))).toMatch(/^GitHub refused the request \(HTTP 403\).*GITHUB_TOKEN/);
    expect(failureMessage(gitHubError(404, 'Not Found'))).toMatch(/could not find the repository or branch/);
    expect(failureMessage(gitHubError(422))).toBe('GitHub rejected the pull request (HTTP 422): Validation Failed.');
    expect(failureMessage(gitHubError(502, 'Bad Gateway'))).toMatch(/^GitHub failed \(HTTP 502\).*Try again/);
  });

  it("speaks the thread's language, the error's own words as they are; English for a language without a catalogue", () => {
    expect(failureMessage(gitHubError(403, 'Resource not accessible'), 'de')).toBe(
      'GitHub hat die Anfrage abgelehnt (HTTP 403): Resource not accessible. Prüfe, ob GITHUB_TOKEN in diesem Repository pushen und Pull Requests öffnen darf.',
    );
    expect(failureMessage(new WrenchError('git_failed', 'could not clone acme/web'), 'ja')).toBe('実行に失敗しました: could not clone acme/web');
    expect(failureMessage(new Error('teapot'), 'ja')).toMatch(/^実行が予期せず失敗しました: teapot。/);
    expect(failureMessage(gitHubError(422), 'it')).toBe(failureMessage(gitHubError(422)));
  });

  it("a missing GitHub credential is said in the thread's language, its English word for word", () => {
    const review = wrenchErrorSaying('github_not_configured', { key: 'githubNotConfigured', need: 'review' });
    expect(review.message).toBe(
      'Reviewing a pull request needs a GitHub credential; set GITHUB_TOKEN, or GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY_PATH for a GitHub App.',
    );
    expect(failureMessage(review, 'fr')).toBe(
      'L’exécution a échoué : Relire une pull request demande un identifiant GitHub ; définissez GITHUB_TOKEN ou, pour une GitHub App, GITHUB_APP_ID et GITHUB_APP_PRIVATE_KEY_PATH.',
    );
    const pullRequest = wrenchErrorSaying('github_not_configured', { key: 'githubNotConfigured', need: 'pullRequest' });
    expect(failureMessage(pullRequest, 'ja')).toMatch(/GitHub の認証情報が設定されていないため、プルリクエストを作成できません。/);
  });

  it("a full disk is said plainly in the thread's language, with where the work is kept, never as git's raw words", () => {
    const git = new GitError(
      'git add --all -- . failed (exit 128): error: unable to create temporary file: No space left on device\nfatal: adding files failed',
      128,
      '',
      'error: unable to create temporary file: No space left on device',
      false,
    );
    expect(isDiskFull(git)).toBe(true);
    expect(isDiskFull(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))).toBe(true);
    expect(isDiskFull(new Error('outer', { cause: Object.assign(new Error('inner'), { code: 'EDQUOT' }) }))).toBe(true);
    expect(isDiskFull(new Error('ECONNRESET'))).toBe(false);
    expect(failureMessage(git)).toBe(
      "The run failed: The disk of Wrench's data dir is full (no space left on device), so the run could not start its work; nothing was changed. Once an operator frees space, mention me to try again.",
    );
    const kept = wrenchErrorSaying('disk_full', { key: 'diskFull', kept: { id: 'job-7-abc123', host: 'worker-2', days: 14 } }, { cause: git });
    expect(kept.message).toMatch(/kept on Wrench worker `worker-2` in `\$WRENCH_DATA_DIR\/held\/job-7-abc123\.tree` for 14 days\./);
    expect(failureMessage(kept, 'de')).toMatch(
      /^Der Lauf ist fehlgeschlagen: .*auf dem Wrench-Worker `worker-2` in `\$WRENCH_DATA_DIR\/held\/job-7-abc123\.tree` für 14 Tage/,
    );
    expect(failureMessage(kept, 'de')).not.toMatch(/fatal|git add/);
    expect(isTransient(kept)).toBe(false);
  });

  it('does not take an arbitrary object with a status for a GitHub answer', () => {
    const lookalike = Object.assign(new Error('teapot'), { status: 418, request: {} });
    expect(failureMessage(lookalike)).toMatch(/^The run failed unexpectedly: teapot/);
  });

  it('retries GitHub 5xx and 429, not its 4xx; Wrench errors by their code; model errors never', () => {
    expect(isTransient(gitHubError(503))).toBe(true);
    expect(isTransient(gitHubError(429))).toBe(true);
    expect(isTransient(gitHubError(422))).toBe(false);
    expect(isTransient(new WrenchError('git_failed', 'fetch failed'))).toBe(true);
    expect(isTransient(new WrenchError('invalid_branch', 'bad name'))).toBe(false);
    expect(isTransient(new Anthropic.APIError(500, undefined, 'overloaded', new Headers()))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { readPushEvent, readWebhookEvent } from '../../../src/github/read-webhook-event.js';

/* Payloads trimmed to documented fields (docs.github.com/webhooks/webhook-events-and-payloads), with the
   optional and nullable ones present as null where GitHub sends them so. */

const repository = { id: 1, name: 'app', full_name: 'acme/app', owner: { login: 'acme', type: 'Organization' } };
const wrench = { login: 'wrench-app[bot]', type: 'Bot' };
const alice = { login: 'alice', type: 'User' };
const pullRequest = (extra: Record<string, unknown> = {}) => ({
  number: 7,
  html_url: 'https://github.com/acme/app/pull/7',
  user: wrench,
  merged: false,
  merged_at: null,
  ...extra,
});

describe('reading GitHub webhook events', () => {
  it('a review comment: the body, the file, the lines and the diff hunk', () => {
    const read = readWebhookEvent('pull_request_review_comment', {
      action: 'created',
      comment: {
        id: 11,
        body: 'use a constant',
        html_url: 'https://github.com/acme/app/pull/7#discussion_r11',
        path: 'src/a.js',
        line: 12,
        start_line: 10,
        diff_hunk: '@@ -1,2 +1,3 @@\n+x',
        in_reply_to_id: null,
        pull_request_review_id: 42,
      },
      pull_request: pullRequest(),
      repository,
      sender: alice,
    });
    expect(read).toEqual({
      events: [
        {
          kind: 'review-comment',
          repo: { owner: 'acme', name: 'app' },
          pull: 7,
          url: 'https://github.com/acme/app/pull/7#discussion_r11',
          author: 'alice',
          body: 'use a constant',
          commentId: 11,
          path: 'src/a.js',
          line: 12,
          startLine: 10,
          diffHunk: '@@ -1,2 +1,3 @@\n+x',
          reviewId: 42,
          inReplyTo: null,
        },
      ],
    });
  });

  it('a review: only changes requested with a body; its line comments come as their own events', () => {
    const review = (state: string, body: string | null) =>
      readWebhookEvent('pull_request_review', {
        action: 'submitted',
        review: { id: 5, body, state, html_url: 'https://github.com/acme/app/pull/7#pullrequestreview-5' },
        pull_request: pullRequest(),
        repository,
        sender: alice,
      });
    expect(review('changes_requested', 'split this function')).toMatchObject({
      events: [{ kind: 'review', body: 'split this function', reviewId: 5, author: 'alice' }],
    });
    expect(review('commented', 'nice')).toMatchObject({ ignored: expect.stringMatching(/not changes_requested/) });
    expect(review('approved', null)).toMatchObject({ ignored: expect.any(String) });
    expect(review('changes_requested', null)).toMatchObject({ ignored: expect.stringMatching(/without a body/) });
  });

  it('a pull request comment only when it mentions the account that opened the pull request, as a whole word', () => {
    const comment = (body: string, issue: Record<string, unknown> = {}) =>
      readWebhookEvent('issue_comment', {
        action: 'created',
        issue: { number: 7, user: wrench, pull_request: { html_url: 'https://github.com/acme/app/pull/7', merged_at: null }, ...issue },
        comment: { id: 3, body, html_url: 'https://github.com/acme/app/pull/7#issuecomment-3' },
        repository,
        sender: alice,
      });
    expect(comment('@wrench-app please add a test')).toMatchObject({ events: [{ kind: 'comment', body: '@wrench-app please add a test', commentId: 3 }] });
    expect(comment('thanks @Wrench-App!')).toMatchObject({ events: [{ kind: 'comment' }] });
    expect(comment('@wrench-apprentice look')).toMatchObject({ ignored: expect.stringMatching(/does not mention @wrench-app/) });
    expect(comment('email me at x@wrench-app.io')).toMatchObject({ ignored: expect.any(String) });
    expect(comment('@wrench-app hi', { pull_request: undefined })).toMatchObject({ ignored: expect.stringMatching(/issue, not a pull request/) });
  });

  it('never takes instructions from bots, Wrench included, nor from edits and deletions', () => {
    const base = {
      comment: { id: 1, body: '@wrench-app x', html_url: 'u', path: 'a', line: null, start_line: null, diff_hunk: null },
      pull_request: pullRequest(),
      repository,
    };
    expect(readWebhookEvent('pull_request_review_comment', { ...base, action: 'created', sender: wrench })).toMatchObject({
      ignored: expect.stringMatching(/bot/),
    });
    expect(readWebhookEvent('pull_request_review_comment', { ...base, action: 'created', sender: { login: 'dependabot[bot]', type: 'Bot' } })).toMatchObject({
      ignored: expect.stringMatching(/bot/),
    });
    expect(readWebhookEvent('pull_request_review_comment', { ...base, action: 'edited', sender: alice })).toMatchObject({
      ignored: expect.stringMatching(/edited is not used/),
    });
  });

  it('failing and passing check runs and workflow runs, per pull request; pending ones are left alone', () => {
    const checkRun = (conclusion: string | null, pulls = [{ number: 7 }, { number: 9 }]) =>
      readWebhookEvent('check_run', {
        action: 'completed',
        check_run: {
          id: 40,
          name: 'test',
          head_sha: 'abc',
          status: 'completed',
          conclusion,
          html_url: 'https://github.com/acme/app/runs/40',
          pull_requests: pulls,
        },
        repository,
      });
    expect(checkRun('failure')).toMatchObject({ events: [{ kind: 'check-failed', pull: 7, jobIds: [40], checkName: 'test', headSha: 'abc' }, { pull: 9 }] });
    expect(checkRun('timed_out')).toMatchObject({ events: [{ kind: 'check-failed' }, {}] });
    // A pass is read too: the thread hears of it when a fix round was about that check.
    expect(checkRun('success')).toMatchObject({ events: [{ kind: 'check-passed', pull: 7, checkName: 'test', headSha: 'abc' }, { pull: 9 }] });
    expect(checkRun(null)).toMatchObject({ ignored: expect.any(String) });
    expect(checkRun('failure', [])).toMatchObject({ ignored: expect.stringMatching(/no pull request/) });
    const workflow = readWebhookEvent('workflow_run', {
      action: 'completed',
      workflow_run: {
        id: 90,
        name: 'CI',
        head_sha: 'abc',
        conclusion: 'failure',
        html_url: 'https://github.com/acme/app/actions/runs/90',
        pull_requests: [{ number: 7 }],
      },
      repository,
    });
    expect(workflow).toMatchObject({ events: [{ kind: 'check-failed', pull: 7, workflowRunId: 90, jobIds: [], checkName: 'CI' }] });
  });

  it('a pull request merged or closed; other pull request actions, unknown events and malformed payloads are left alone', () => {
    expect(
      readWebhookEvent('pull_request', {
        action: 'closed',
        number: 7,
        pull_request: pullRequest({ merged: true, merged_at: '2026-11-22T10:00:00Z' }),
        repository,
        sender: alice,
      }),
    ).toMatchObject({ events: [{ kind: 'closed', merged: true, by: 'alice' }] });
    expect(readWebhookEvent('pull_request', { action: 'closed', number: 7, pull_request: pullRequest(), repository, sender: alice })).toMatchObject({
      events: [{ kind: 'closed', merged: false }],
    });
    expect(readWebhookEvent('pull_request', { action: 'synchronize', number: 7, pull_request: pullRequest(), repository, sender: alice })).toMatchObject({
      ignored: expect.any(String),
    });
    expect(readWebhookEvent('check_suite', { action: 'completed' })).toMatchObject({ ignored: 'event check_suite is not used' });
    expect(readWebhookEvent('issue_comment', { action: 'created', issue: {} })).toMatchObject({
      ignored: expect.stringMatching(/without the fields Wrench reads/),
    });
  });
});

describe('reading push deliveries', () => {
  const push = (overrides: Record<string, unknown> = {}) => ({
    ref: 'refs/heads/main',
    before: 'a'.repeat(40),
    after: 'b'.repeat(40),
    created: false,
    deleted: false,
    forced: false,
    base_ref: null,
    repository: { name: 'web', full_name: 'Acme/web', owner: { name: 'Acme', email: null, login: 'Acme' }, default_branch: 'main' },
    ...overrides,
  });

  it('a branch that moved: owner and name from the full name, the new tip and the default branch', () => {
    expect(readPushEvent(push())).toEqual({ owner: 'Acme', repo: 'web', branch: 'main', after: 'b'.repeat(40), defaultBranch: 'main' });
    expect(readPushEvent(push({ ref: 'refs/heads/release/2.x' }))).toMatchObject({ branch: 'release/2.x' });
  });

  it('tags, deletions and payloads without the fields are left alone, each with its reason', () => {
    expect(readPushEvent(push({ ref: 'refs/tags/v1' }))).toEqual({ ignored: 'a push to refs/tags/v1, not to a branch' });
    expect(readPushEvent(push({ deleted: true, after: '0'.repeat(40) }))).toEqual({ ignored: 'a branch deletion' });
    expect(readPushEvent({ ref: 'refs/heads/main' })).toEqual({ ignored: 'a push payload without the fields Wrench reads (after)' });
  });
});

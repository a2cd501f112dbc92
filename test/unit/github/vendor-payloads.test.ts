import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readIssueEvent, readPushEvent, readStatusEvent, readWebhookEvent } from '../../../src/github/read-webhook-event.js';

/* GitHub's own example payloads (octokit/webhooks, collected from real deliveries), not ones the fake builds: every
   delivery of an event Wrench reads must parse, whatever optional or null fields it carries. */

interface ExampleSet {
  name: string;
  examples: Array<Record<string, unknown>>;
}
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as ExampleSet[];
const READ = ['pull_request_review_comment', 'pull_request_review', 'issue_comment', 'check_run', 'workflow_run', 'pull_request'];
const MALFORMED = /without the fields Wrench reads/;

describe("GitHub's example payloads", () => {
  for (const name of READ) {
    const set = examples.find((e) => e.name === name);
    it(`${name}: every example is read (an event, or a reason it is left alone), none as malformed`, () => {
      expect(set?.examples.length).toBeGreaterThan(0);
      for (const example of set?.examples ?? []) {
        const read = readWebhookEvent(name, example);
        expect(read.ignored ?? '', `${name}.${String(example.action)}`).not.toMatch(MALFORMED);
      }
    });
  }

  it('status: every example is read as a failure with its branches, or a state left alone', () => {
    const set = examples.find((e) => e.name === 'status');
    expect(set?.examples.length).toBeGreaterThan(0);
    for (const example of set?.examples ?? []) {
      const read = readStatusEvent(example);
      if ('ignored' in read) expect(read.ignored).toMatch(/^status (pending|success)$/);
      else expect(read).toMatchObject({ sha: expect.stringMatching(/^[0-9a-f]{40}$/), context: expect.any(String), branches: expect.any(Array) });
    }
  });

  it('push: every example is read as a moved branch, or a tag or deletion left alone', () => {
    const set = examples.find((e) => e.name === 'push');
    expect(set?.examples.length).toBeGreaterThan(0);
    for (const example of set?.examples ?? []) {
      const read = readPushEvent(example);
      if ('ignored' in read) expect(read.ignored).toMatch(/not to a branch|a branch deletion/);
      else
        expect(read).toMatchObject({
          owner: expect.any(String),
          repo: expect.any(String),
          branch: expect.any(String),
          after: expect.stringMatching(/^[0-9a-f]{40}$/),
        });
    }
  });

  it('issues: every example is read as a labelled or assigned issue, or left alone for a reason, none as malformed', () => {
    const set = examples.find((e) => e.name === 'issues');
    expect(set?.examples.length).toBeGreaterThan(0);
    for (const example of set?.examples ?? []) {
      const read = readIssueEvent(example);
      if ('ignored' in read) expect(read.ignored, `issues.${String(example.action)}`).not.toMatch(MALFORMED);
      else expect(read.label ?? read.assignee, `issues.${String(example.action)}`).toEqual(expect.any(String));
    }
    const labelled = readIssueEvent(set?.examples.find((e) => e.action === 'labeled'));
    expect(labelled).toMatchObject({ number: expect.any(Number), title: expect.any(String), label: expect.any(String), author: expect.any(String) });
    const assigned = readIssueEvent(set?.examples.find((e) => e.action === 'assigned'));
    expect(assigned).toMatchObject({ number: expect.any(Number), assignee: expect.any(String) });
  });

  it("issue_comment: GitHub's example of a comment on someone's pull request, mentioning github.mention, is a comment that may start a thread", () => {
    // GitHub's examples are all on issues; a comment on a pull request is the same payload with issue.pull_request set.
    const created = examples.find((e) => e.name === 'issue_comment')?.examples.find((e) => e.action === 'created') as Record<string, any> | undefined;
    expect(created).toBeDefined();
    const onPull: Record<string, any> = {
      ...created,
      issue: { ...created?.issue, pull_request: { url: 'https://api.github.com/repos/o/r/pulls/1', html_url: 'https://github.com/o/r/pull/1' } },
    };
    const asked = {
      ...onPull,
      comment: { ...onPull.comment, body: 'Could you add tests? @wrench-app' },
      sender: { ...onPull.sender, login: 'alice', type: 'User' },
    };
    const read = readWebhookEvent('issue_comment', asked, { mention: 'wrench-app' });
    expect(read.ignored === undefined && read.events[0]).toMatchObject({
      kind: 'comment',
      author: 'alice',
      guestPull: onPull.issue.state !== 'closed' && onPull.issue.user.type !== 'Bot',
    });
    expect(readWebhookEvent('issue_comment', asked).ignored).toMatch(/does not mention/);
  });

  it('the examples Wrench acts on become the events it expects', () => {
    const first = (name: string, action: string, when: (e: Record<string, unknown>) => boolean = () => true) =>
      examples.find((e) => e.name === name)?.examples.find((e) => e.action === action && when(e));
    const comment = readWebhookEvent('pull_request_review_comment', first('pull_request_review_comment', 'created'));
    expect(comment.ignored ?? comment.events[0]?.kind).toMatch(/review-comment|bot|Wrench/);
    const closed = readWebhookEvent('pull_request', first('pull_request', 'closed'));
    expect(closed.ignored === undefined && closed.events[0]).toMatchObject({ kind: 'closed', merged: expect.any(Boolean) });
    const reopened = readWebhookEvent('pull_request', first('pull_request', 'reopened'));
    expect(reopened.ignored === undefined && reopened.events[0]).toMatchObject({ kind: 'reopened', pull: expect.any(Number), by: expect.any(String) });
    const completed = readWebhookEvent('check_run', first('check_run', 'completed'));
    expect(completed.ignored ?? completed.events[0]?.kind).toMatch(/check-(passed|failed)|no pull request|check run completed/);
  });
});

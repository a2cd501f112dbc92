import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { mention, replyIn } from './category-helpers.js';

const CONFIG = `
channels:
  C0REVIEW: { repo: acme/web, baseBranch: main }
repos: [acme/*]
sandbox: { mode: bwrap }
review: { githubReview: true }
`;

const LOGIN_BASE = ['export function login(db, user, password) {', '  const row = db.find(user);', '  return row && row.password === password;', '}', ''].join(
  '\n',
);

// The pull request: builds SQL from the user name, logs the password, swallows errors.
const LOGIN_HEAD = [
  'export async function login(db, user, password) {',
  '  console.log(`login ${user} ${password}`);',
  '  try {',
  "    const row = await db.query(`SELECT * FROM users WHERE name = '${user}'`);",
  '    return row && row.password === password;',
  '  } catch (error) {',
  '    return true;',
  '  }',
  '}',
  '',
].join('\n');

const finding = (severity: string, file: string, line: number, problem: string, suggestedFix: string) => ({ severity, file, line, problem, suggestedFix });

describe('code review, end to end', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'web', {
      'package.json': JSON.stringify({ name: 'web', type: 'module', scripts: { test: 'node --test' } }),
      'src/login.js': LOGIN_BASE,
      'src/util.js': 'export const id = (x) => x;\n',
    });
    await world.github.commit('acme', 'web', 'feature/login', { message: 'Query users from the database', files: { 'src/login.js': LOGIN_HEAD } });
    await world.github.createPull('acme', 'web', {
      title: 'Query users from the database',
      head: 'feature/login',
      base: 'main',
      body: 'Moves login to SQL.',
      user: 'octocat',
    });
    await world.github.commit('acme', 'web', 'feature/tidy', { message: 'Tidy', files: { 'src/util.js': 'export const id = (value) => value;\n' } });
    await world.github.createPull('acme', 'web', { title: 'Tidy util', head: 'feature/tidy', base: 'main', user: 'octocat' });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('reviews the PR head read-only with the requested labels: grouped report in the thread, comment-only GitHub review with inline comments on diff lines', async () => {
    const { anthropic, github } = world;
    const headBefore = await github.branchSha('acme', 'web', 'feature/login');
    const refs = () =>
      execFileSync('git', ['--git-dir', github.gitDir('acme', 'web'), 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'], { encoding: 'utf8' });
    const branchesBefore = refs();
    anthropic.setScript([
      toolUseResponse([{ name: 'bash', input: { command: 'git log --oneline -1 && cat src/login.js && touch probe.txt; echo touch=$?' } }]),
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            summary: 'The change moves login to SQL but opens an injection and leaks passwords.',
            findings: [
              finding(
                'Critical',
                'src/login.js',
                4,
                'The user name is interpolated into SQL: SQL injection.',
                'Use a parameterised query: `db.query("SELECT * FROM users WHERE name = ?", [user])`.',
              ),
              finding('High', 'src/login.js', 2, 'The password is written to the log.', 'Remove the log line, or log the user only.'),
              finding('Medium', 'src/login.js', 7, 'A failing query logs the user in.', 'Return false (and log the error) in the catch block.'),
              finding('Low', 'src/util.js', 1, 'Unrelated helper has no test.', 'Add a unit test for `id`.'),
            ],
            focusAreas: [
              { area: 'security', assessment: 'SQL injection and a password in the logs.' },
              { area: 'error handling', assessment: 'Errors are swallowed and grant access.' },
            ],
          },
        },
      ]),
    ]);

    const ts = await mention(world, 'C0REVIEW', 'review PR #1, focus on security and error handling. Use Critical/High/Medium/Low severity labels.');
    const { text } = await replyIn(world, ts, /Review of PR #1/);

    // The report: grouped by severity in the requested labels, each finding at file:line with a fix.
    expect(text).toContain('4 findings: 1 Critical, 1 High, 1 Medium, 1 Low');
    for (const group of ['*Critical (1)*', '*High (1)*', '*Medium (1)*', '*Low (1)*']) expect(text).toContain(group);
    expect(text.indexOf('*Critical (1)*')).toBeLessThan(text.indexOf('*High (1)*'));
    expect(text).toContain('`src/login.js:4`: The user name is interpolated into SQL');
    expect(text).toContain('Suggested fix: Use a parameterised query');
    expect(text).toContain('*Focus areas*');
    expect(text).toMatch(/comment-only review with 3 inline comments/);
    expect(text).not.toMatch(/\*Critical\*\u200B?\n/); // no default Critical/Major/Minor groups
    expect(text).not.toContain('Major');

    // The agent read the PR head, the diff came from GitHub, and the checkout was read-only.
    const first = JSON.stringify(anthropic.requests[0]!.body);
    expect(first).toContain('Pull request #1: Query users from the database');
    expect(first).toContain('SELECT * FROM users WHERE name');
    expect(first).toContain('security');
    const second = JSON.stringify(anthropic.requests[1]!.body);
    expect(second).toContain('Query users from the database');
    expect(second).toMatch(/touch=[1-9]/);
    expect(second).toContain('Critical, High, Medium, Low');

    // GitHub: one review, COMMENT only, inline comments on lines inside the diff's hunks, the rest in the body.
    const reviews = github.reviews.filter((r) => r.pull === 1);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.state).toBe('COMMENTED');
    const comments = github.reviewComments.filter((c) => c.reviewId === reviews[0]!.id);
    expect(comments.map((c) => [c.path, c.line, c.side])).toEqual([
      ['src/login.js', 4, 'RIGHT'],
      ['src/login.js', 2, 'RIGHT'],
      ['src/login.js', 7, 'RIGHT'],
    ]);
    expect(comments[0]!.body).toContain('**Critical**');
    expect(reviews[0]!.body).toContain('`src/util.js:1`');
    expect(github.requests.some((r) => /\/merge$/.test(r.path) && r.method === 'PUT')).toBe(false);
    expect(github.requests.some((r) => (r.body as { event?: string })?.event === 'APPROVE')).toBe(false);
    // Nothing pushed, no pull request opened by the review.
    expect(github.pulls('acme', 'web')).toHaveLength(2);
    expect(await github.branchSha('acme', 'web', 'feature/login')).toBe(headBefore);
    expect(refs()).toBe(branchesBefore);
  });

  it('says plainly when a PR has no findings', async () => {
    world.anthropic.setScript([toolUseResponse([{ name: 'finish_task', input: { summary: 'A harmless rename.', findings: [] } }])]);
    const ts = await mention(world, 'C0REVIEW', 'review https://github.com/acme/web/pull/2 please, check for correctness');
    const { text } = await replyIn(world, ts, /Review of PR #2/);
    expect(text).toContain('no findings');
    expect(text).toContain('No findings: I found nothing to flag.');
    const review = world.github.reviews.find((r) => r.pull === 2)!;
    expect(review.state).toBe('COMMENTED');
    expect(review.body).toContain('no findings');
  });

  it("speaks the requester's language in the thread (their Slack locale), while the review on GitHub stays English", async () => {
    world.slack.addUser({ id: 'U0KENJI', name: 'kenji', locale: 'ja-JP' });
    world.anthropic.setScript([
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            summary: 'Renames the parameter.',
            findings: [finding('Minor', 'src/util.js', 1, 'The new name says less than before.', 'Keep `x`.')],
          },
        },
      ]),
    ]);
    const envelope = appMentionEnvelope({ channel: 'C0REVIEW', user: 'U0KENJI', text: '<@U0BOT> review PR #2 please, check for correctness' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const { text } = await replyIn(world, ts, /のレビュー/);
    expect(text).toMatch(/^:mag: PR #2 \(http[^)]+\/acme\/web\/pull\/2\) のレビュー: 指摘 1 件: Minor 1 件\n/);
    // The run's streamed message (the default) says it in Markdown.
    expect(text).toMatch(/\*\*Minor \(1\)\*\*\n- `src\/util\.js:1`: The new name says less than before\.\n\s+修正案: Keep `x`\./);
    expect(text).toContain('**Critical (0)**\nなし。');
    expect(text).toContain('**GitHub**\nコメントのみのレビューとして投稿しました(インラインコメント 1 件): ');
    const review = world.github.reviews.filter((r) => r.pull === 2).at(-1)!;
    expect(review.body).toContain('(1 finding: 1 Minor)');
  });

  it('answers clearly when the PR does not exist, without running the agent', async () => {
    const before = world.anthropic.requests.length;
    const ts = await mention(world, 'C0REVIEW', 'review PR #99 for security issues');
    const { text } = await replyIn(world, ts, /no pull request #99/);
    expect(text).toContain('`acme/web` has no pull request #99');
    expect(world.anthropic.requests.length).toBe(before);
  });
});

import { pollFor } from '../fakes/shared/wait-for.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { createE2eWorld, GITHUB_TOKEN, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/web, baseBranch: main }
repos: [acme/*]
sandbox: { mode: bwrap }
`;

describe('mention to pull request, end to end', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'web', {
      'package.json': JSON.stringify({ name: 'web', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2),
      'src/format.js': 'export function formatBytes(n) {\n  return `${n} B`;\n}\n',
    });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('turns a mention into a commit on a new branch, one pull request and a thread reply with its URL', async () => {
    const { slack, anthropic, github } = world;
    anthropic.setScript([
      toolUseResponse([{ name: 'bash', input: { command: 'cat src/format.js' } }], 'Let me look at the file.'),
      toolUseResponse([
        {
          name: 'str_replace_based_edit_tool',
          input: {
            command: 'create',
            path: 'src/format.test.js',
            file_text:
              "import test from 'node:test';\nimport assert from 'node:assert';\nimport { formatBytes } from './format.js';\n\ntest('formats bytes', () => assert.equal(formatBytes(0), '0 B'));\n",
          },
        },
      ]),
      toolUseResponse([{ name: 'bash', input: { command: 'node --test 2>&1 | tail -5' } }]),
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            summary: 'Added a test for formatBytes.',
            filesChanged: [{ path: 'src/format.test.js', change: 'new test' }],
            verification: 'node --test: 1 passed',
            openQuestions: [],
          },
        },
      ]),
    ]);

    const envelope = appMentionEnvelope({
      channel: 'C0DEV',
      user: 'U0ALICE',
      text: '<@U0BOT> add a test for `formatBytes` in src/format.js covering 0 bytes. `npm test` must pass.',
    });
    const delivered = await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    expect(delivered.status).toBe(200);

    const event = envelope.event as { ts: string };
    // By default (slack.streamRuns) the run is one streamed message: its plan, then the reply with the PR's URL.
    const stream = await pollFor(
      () => slack.streamsIn('C0DEV', event.ts).find((s) => s.state === 'stopped'),
      60_000,
      () => `streams: ${JSON.stringify(slack.streamsIn('C0DEV', event.ts))}`,
    );
    const reply = stream.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('');
    expect(reply).toContain('/pull/');

    const pulls = github.pulls('acme', 'web');
    expect(pulls).toHaveLength(1);
    const pull = pulls[0];
    expect(pull!.baseRef).toBe('main');
    expect(pull!.headRef).toMatch(/^wrench\/add-a-test-for-formatbytes.*-[0-9a-f]{6}$/);
    expect(reply).toContain(`/pull/${pull!.number}`);

    // The scripted agent's file is committed on the new branch of the bare remote, authored by Wrench.
    const gitDir = github.gitDir('acme', 'web');
    const show = execFileSync('git', ['--git-dir', gitDir, 'show', '--stat', '--format=%an <%ae>%n%B', pull!.headRef], { encoding: 'utf8' });
    expect(show).toContain('Wrench <wrench@users.noreply.github.com>');
    expect(show).toContain('Requested-by:');
    expect(show).toContain('src/format.test.js');
    const file = execFileSync('git', ['--git-dir', gitDir, 'show', `${pull!.headRef}:src/format.test.js`], { encoding: 'utf8' });
    expect(file).toContain("formatBytes(0), '0 B'");

    // The model saw the tool results; the agent never held a credential.
    expect(anthropic.requests).toHaveLength(4);
    const transcript = JSON.stringify(anthropic.requests.map((r) => r.body));
    expect(transcript).toContain('export function formatBytes');
    expect(transcript).not.toContain(GITHUB_TOKEN);

    // The message was marked as seen, and the run's one message ended as done, naming the pull request; no card.
    expect(slack.callsTo('reactions.add').some((c) => c.args.name === 'eyes' && c.args.timestamp === event.ts)).toBe(true);
    expect(stream.planTitle).toBe('Done: acme/web');
    expect(reply).toContain(`[PR #${pull!.number}: `);
    expect(
      slack
        .messages('C0DEV', event.ts)
        .filter((m) => m.bot_id)
        .map((m) => m.ts),
    ).toEqual([stream.ts]);
    // The :eyes: on the mention gives way to a check mark.
    await slack.waitFor((c) => c.method === 'reactions.add' && c.args.name === 'white_check_mark' && c.args.timestamp === event.ts, 10_000);
    expect(slack.callsTo('reactions.remove').some((c) => c.args.name === 'eyes' && c.args.timestamp === event.ts)).toBe(true);

    // The status under the thread said what Wrench did between messages, in order with them, and is gone now.
    const inThread = slack.calls.filter((c) => c.args.thread_ts === event.ts && ['assistant.threads.setStatus', 'chat.startStream'].includes(c.method));
    const statuses = inThread.filter((c) => c.method === 'assistant.threads.setStatus').map((c) => c.args.status);
    // "is waiting for a worker…" may give way to the clear before Slack is told (a newer status replaces a waiting one).
    expect(statuses[0]).toBe('is reading your request…');
    expect(statuses.at(-1)).toBe('');
    expect(statuses.slice(1, -1).every((status) => status === 'is waiting for a worker…')).toBe(true);
    expect(inThread[0]?.args.status).toBe('is reading your request…');
    expect(inThread.findIndex((c) => c.args.status === '')).toBeGreaterThan(inThread.findIndex((c) => c.method === 'chat.startStream'));
    expect(slack.threadStatus('C0DEV', event.ts)).toBeUndefined();

    // Nothing sent to Slack or GitHub carries the token.
    expect(JSON.stringify(slack.calls)).not.toContain(GITHUB_TOKEN);
    expect(JSON.stringify(github.requests.map((r) => r.body))).not.toContain(GITHUB_TOKEN);

    // Slack retries the same event: no new job, no PR, no reply, no model call.
    const callsBefore = slack.calls.length;
    const modelCallsBefore = anthropic.requests.length;
    const retried = await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope, { retryNum: 1, retryReason: 'http_timeout' });
    expect(retried.status).toBe(200);
    // The redelivery was handled (claimed already: a duplicate) before anything is checked.
    await pollFor(
      () => (world.wrench!.output().includes(`"eventId":"${envelope.event_id}","msg":"duplicate event: already handled"`) ? true : undefined),
      10_000,
      () => 'no duplicate handled',
    );
    expect(github.pulls('acme', 'web')).toHaveLength(1);
    expect(
      slack.calls.slice(callsBefore).filter((c) => ['chat.postMessage', 'chat.startStream', 'chat.appendStream', 'reactions.add'].includes(c.method)),
    ).toHaveLength(0);
    expect(anthropic.requests.length).toBe(modelCallsBefore);
  });

  it('rejects a request with a bad signature with 401 and queues nothing', async () => {
    const callsBefore = world.slack.calls.length;
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> add a --json flag to src/cli/status.ts' });
    const response = await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope, { badSignature: true });
    // Refused before any listener ran: nothing can follow a 401.
    expect(response.status).toBe(401);
    expect(world.slack.calls.length).toBe(callsBefore);
  });

  it('answers a mention in an unlinked channel with how to link it, and an empty mention with help', async () => {
    const unlinked = appMentionEnvelope({ channel: 'C0OTHER', user: 'U0ALICE', text: '<@U0BOT> fix the flaky test in src/a.test.ts' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, unlinked);
    const link = await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.channel === 'C0OTHER');
    expect(String(link.args.text)).toContain('C0OTHER: { repo: acme/web');

    const empty = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT>' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, empty);
    const help = await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === (empty.event as { ts: string }).ts);
    expect(String(help.args.text)).toMatch(/For example/);
  });

  it('refuses a repository outside repos in the thread', async () => {
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> fix the bug in src/x.ts in evil/repo' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const refusal = await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === (envelope.event as { ts: string }).ts);
    expect(String(refusal.args.text)).toContain('not allowed to work on `evil/repo`');
    const ts = (envelope.event as { ts: string }).ts;
    await world.slack.waitFor((c) => c.method === 'reactions.add' && c.args.name === 'no_entry_sign' && c.args.timestamp === ts, 10_000);
    expect(world.slack.callsTo('reactions.remove').some((c) => c.args.name === 'eyes' && c.args.timestamp === ts)).toBe(true);
  });
});

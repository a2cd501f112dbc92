import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';
import { threadReply } from './thread-replies.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/web }
sandbox: { mode: bwrap }
`;
describe("a run's Slack lookups (thread link, requester, the thread's images) are not waited for before its work starts", () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'web', { 'README.md': '# web\n', 'src/index.js': 'export const a = 1;\n' });
    await world.start();
    world.anthropic.setScript(
      scriptByRun({
        'module one ': [createFileStep('src/one.js', 'export const one = 1;\n'), finishStep('Added module one.')],
        'module two ': [createFileStep('src/two.js', 'export const two = 2;\n'), finishStep('Added module two.')],
      }).items,
    );
  });

  afterAll(async () => {
    await world?.stop();
  });

  const mention = async (marker: string) => {
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> add a module: ${marker} in src exporting a constant.` });
    const sent = Date.now();
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    const threadTs = (envelope.event as { ts: string }).ts;
    await threadReply(world, threadTs, /PR #\d+/, 120_000);
    return { threadTs, sent };
  };

  it("asks for the thread's images beside the working tree, and still credits the requester and links the thread in the commit and pull request", async () => {
    // A first job readies the repository's tree; the second one, on the warm tree, is the one looked at.
    await mention('module one ');
    const { threadTs, sent } = await mention('module two ');

    // The thread's images were asked for beside the working tree, not just before the model: before the run had read
    // the repository's instructions (which come after the tree's hand-over; the images were asked for only after them,
    // as the agent started). Not against the first git request: the two start together, and either may arrive first.
    const replies = world.slack.calls.find((c) => c.method === 'conversations.replies' && c.args.ts === threadTs)!;
    const instructionsRead = world
      .wrench!.output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { time: number; msg: string })
      .find((entry) => entry.time >= sent && entry.msg === 'repository instructions read')!;
    expect(replies.at).toBeLessThanOrEqual(instructionsRead.time);

    // Publishing has what the lookups found: the pull request links the thread, the commit credits the requester.
    const pull = world.github.pulls('acme', 'web').find((p) => p.headRef.includes('module-two'))!;
    expect(pull.body).toContain(`/archives/C0DEV/p${threadTs.replace('.', '')}`);
    const log = execFileSync('git', ['--git-dir', world.github.gitDir('acme', 'web'), 'log', '--format=%B', '-1', `refs/heads/${pull.headRef}`], {
      encoding: 'utf8',
    });
    expect(log).toContain('Co-authored-by: user-u0alice <user-u0alice@example.com>');
  });
});

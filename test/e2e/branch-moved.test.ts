import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/app }
sandbox: { mode: bwrap }
`;

/** Someone pushes to the run's branch while a follow-up works on it. */
describe('a follow-up whose branch moved on the remote', () => {
  let world: E2eWorld;
  const trace: Array<{ run: string; step: number }> = [];

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'app', { 'README.md': '# app\n', 'src/index.js': 'export const a = 1;\n' });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  const mention = async (text: string, threadTs?: string) => {
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> ${text}`, thread_ts: threadTs });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    return (envelope.event as { ts: string }).ts;
  };
  // The run's reply on its surface (the streamed message by default), leaving out the thread's earlier runs.
  const reply = (threadTs: string, pattern: RegExp, since = 0) => threadReply(world, threadTs, pattern, 150_000, since);
  const git = (...args: string[]) => execFileSync('git', ['--git-dir', world.github.gitDir('acme', 'app'), ...args], { encoding: 'utf8' });

  /** A first run opens the PR; the follow-up starts, and while its agent works someone pushes `theirs` to the branch. */
  const followUpAfterSomeonePushed = async (name: string, mine: { path: string; content: string }, theirs: Record<string, string>) => {
    world.anthropic.setScript(
      scriptByRun(
        {
          [`${name} first`]: [createFileStep(`src/${name}.js`, 'export const first = 1;\n'), finishStep('first')],
          // The follow-up's last turn comes late: the other push lands while its agent is still working.
          [`${name} again`]: [createFileStep(mine.path, mine.content), { ...finishStep('again'), delayMs: 1500 }],
        },
        trace,
      ).items,
    );
    const ts = await mention(`${name} first: add src/${name}.js exporting \`first\`.`);
    await reply(ts, /Opened PR #/);
    const pull = world.github.pulls('acme', 'app').find((p) => p.title.toLowerCase().includes(`${name} first`))!;
    const since = world.slack.calls.length;
    await mention(`${name} again: also add ${mine.path}.`, ts);
    await pollFor(
      () => trace.find((t) => t.run === `${name} again` && t.step === 1),
      60_000,
      () => `follow-up not at its last step: ${JSON.stringify(trace)}`,
    );
    const theirSha = await world.github.commit('acme', 'app', pull.headRef, {
      message: 'A colleague pushed',
      files: theirs,
      author: { name: 'Colleague', email: 'colleague@example.com' },
    });
    return { ts, pull, theirSha, since };
  };

  it('replays its commit on top and pushes without force: the PR has the first run, their commit and the follow-up', async () => {
    const { ts, pull, theirSha, since } = await followUpAfterSomeonePushed(
      'rebase',
      { path: 'src/mine.js', content: 'export const mine = 1;\n' },
      { 'src/theirs.js': 'export const theirs = 1;\n' },
    );
    await reply(ts, /Updated PR #/, since);
    const log = git('log', '--format=%an %s', `main..${pull.headRef}`).trim().split('\n');
    expect(log).toHaveLength(3);
    expect(log[1]).toBe('Colleague A colleague pushed');
    // Their commit is an ancestor of the new head: nothing was overwritten.
    expect(() => git('merge-base', '--is-ancestor', theirSha, pull.headRef)).not.toThrow();
    expect(git('show', `${pull.headRef}:src/mine.js`)).toContain('mine');
    expect(git('show', `${pull.headRef}:src/theirs.js`)).toContain('theirs');
    expect(world.github.pulls('acme', 'app').filter((p) => p.headRef === pull.headRef)).toHaveLength(1);
  });

  it('a real conflict stops it, keeps the work on a side branch and names it in the thread', async () => {
    const { ts, pull, theirSha, since } = await followUpAfterSomeonePushed(
      'clash',
      { path: 'src/shared.js', content: 'export const shared = "mine";\n' },
      { 'src/shared.js': 'export const shared = "theirs";\n' },
    );
    const failure = await reply(ts, /conflict/, since);
    const side = /`(wrench\/[^`]+-conflict-[a-z0-9]+)`/.exec(failure.text)?.[1];
    expect(failure.text).toContain('src/shared.js');
    expect(side).toBeTruthy();
    // Their work is untouched on the PR branch; mine is on the side branch.
    expect(git('rev-parse', pull.headRef).trim()).toBe(theirSha);
    expect(git('show', `${side}:src/shared.js`)).toContain('mine');
  });
});

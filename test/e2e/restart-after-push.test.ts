import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunLogStore } from '../../src/run-log/run-log-store.js';
import type { RecordedRequest, ScriptItem } from '../fakes/anthropic-fake.js';
import type { HeldRequest } from '../fakes/github-fake.js';
import { commitsBetween, listBranches, readBlob } from '../fakes/github/git-read.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { createFileStep, finishStep } from './scripted-runs.js';

const CONFIG = `
channels:
  C0PUSHED: { repo: acme/pushed }
  C0OPENED: { repo: acme/opened }
sandbox: { mode: none }
# The card surface: the final reply is one thread message (chat.postMessage).
slack: { streamRuns: false }
`;

/** The words the task message opens an earlier attempt's context with (src/agent/task-message.ts). */
const EARLIER_ATTEMPT = 'An earlier attempt at this same instruction';

interface Seen {
  repo: string;
  resumed: boolean;
  step: number;
  firstMessage: string;
}

/**
 * Each run writes src/<repo>.js on its first attempt; an attempt told of an earlier one writes src/<repo>-more.js
 * instead, so the remote's commits show which attempt made which.
 */
function attemptScript(seen: Seen[]): ScriptItem[] {
  const responder = (request: RecordedRequest) => {
    const body = request.body as { messages: Array<{ role: string; content: unknown }> };
    const firstMessage = JSON.stringify(body.messages[0]?.content ?? '').replace(/\\n/g, '\n');
    const repo = /keep going after a push/.test(firstMessage) ? 'pushed' : 'opened';
    const resumed = firstMessage.includes(EARLIER_ATTEMPT);
    const step = body.messages.filter((m) => m.role === 'assistant').length;
    seen.push({ repo, resumed, step, firstMessage });
    const file = resumed ? `src/${repo}-more.js` : `src/${repo}.js`;
    if (step === 0) return createFileStep(file, `export const value = '${file}';\n`);
    return finishStep(`Added ${file}.`);
  };
  return Array.from({ length: 40 }, () => responder);
}

/** Held, then killed: one run after its push (its pull request never opened), one after GitHub opened its pull request. */
describe('a run killed after it pushed', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'pushed', { 'README.md': '# pushed\n' });
    await world.github.createRepo('acme', 'opened', { 'README.md': '# opened\n' });
    await world.start();
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await world?.stop();
  });

  it('goes on from its branch and pull request after the restart: one branch, one PR, one reply', async () => {
    const seen: Seen[] = [];
    world.anthropic.setScript(attemptScript(seen));
    const holds: Record<string, HeldRequest> = {
      // Pushed, then killed while asking for its pull request: GitHub never got the request.
      pushed: world.github.holdNext('POST /repos/acme/pushed/pulls', 'before'),
      // GitHub opened the pull request, and Wrench was killed before it heard so.
      opened: world.github.holdNext('POST /repos/acme/opened/pulls', 'after'),
    };
    const threads: Record<string, string> = {};
    for (const [repo, user, words] of [
      ['pushed', 'U0ALICE', 'keep going after a push: add src/pushed.js'],
      ['opened', 'U0BOB', 'keep going after a pull request: add src/opened.js'],
    ] as const) {
      const channel = repo === 'pushed' ? 'C0PUSHED' : 'C0OPENED';
      const envelope = appMentionEnvelope({ channel, user, text: `<@U0BOT> ${words}` });
      await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
      threads[repo] = (envelope.event as { ts: string }).ts;
    }
    let reached = 0;
    for (const hold of Object.values(holds)) void hold.reached.then(() => (reached += 1));
    await pollFor(
      () => (reached === 2 ? true : undefined),
      90_000,
      () => `the runs did not both reach their pull request; model requests: ${JSON.stringify(seen.map(({ repo, step }) => ({ repo, step })))}`,
    );

    // What the first attempts left on the remote: one branch each, with one commit; a pull request only where GitHub opened it.
    const first: Record<string, { name: string; sha: string }> = {};
    for (const repo of ['pushed', 'opened']) {
      const branches = (await listBranches(world.github.gitDir('acme', repo))).filter((b) => b.name !== 'main');
      expect(branches).toHaveLength(1);
      first[repo] = branches[0]!;
    }
    expect(world.github.pulls('acme', 'pushed')).toHaveLength(0);
    expect(world.github.pulls('acme', 'opened')).toHaveLength(1);

    const { child } = world.wrench!;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    for (const hold of Object.values(holds)) hold.release();
    await world.start();

    // BullMQ hands each job on once the dead worker's lock expires (about 30 s).
    const replies = (repo: string) =>
      world.slack
        .callsTo('chat.postMessage')
        .filter((c) => c.args.thread_ts === threads[repo] && /(Opened|Updated) PR #/.test(String(c.args.text)))
        .map((c) => String(c.args.text));
    await pollFor(
      () => (replies('pushed').length > 0 && replies('opened').length > 0 ? true : undefined),
      180_000,
      () =>
        `threads: ${JSON.stringify(Object.values(threads).map((ts) => world.slack.messages(ts === threads.pushed ? 'C0PUSHED' : 'C0OPENED', ts).map((m) => m.text)))}`,
    );

    for (const repo of ['pushed', 'opened']) {
      const gitDir = world.github.gitDir('acme', repo);
      const branches = (await listBranches(gitDir)).filter((b) => b.name !== 'main');
      // One branch, the first attempt's, now carrying the second attempt's commit on top of the first's.
      expect(branches.map((b) => b.name)).toEqual([first[repo]!.name]);
      const commits = await commitsBetween(gitDir, 'main', branches[0]!.sha);
      expect(commits).toHaveLength(2);
      expect(commits[0]!.sha).toBe(first[repo]!.sha);
      expect(commits[1]!.parents).toEqual([first[repo]!.sha]);
      expect((await readBlob(gitDir, branches[0]!.sha, `src/${repo}.js`))?.toString()).toContain(`src/${repo}.js`);
      expect((await readBlob(gitDir, branches[0]!.sha, `src/${repo}-more.js`))?.toString()).toContain(`src/${repo}-more.js`);
      // One pull request, on that branch, at its tip.
      const pulls = world.github.pulls('acme', repo);
      expect(pulls).toHaveLength(1);
      expect(pulls[0]).toMatchObject({ headRef: first[repo]!.name, headSha: branches[0]!.sha, state: 'open' });
      // One final reply, naming that pull request.
      expect(replies(repo)).toHaveLength(1);
      // The thread is told the run goes on from the pushed branch, not that it starts again from the beginning.
      const said = ['chat.postMessage', 'chat.update']
        .flatMap((method) => world.slack.callsTo(method))
        .filter((c) => c.args.thread_ts === threads[repo] || c.args.channel === (repo === 'pushed' ? 'C0PUSHED' : 'C0OPENED'))
        .map((c) => JSON.stringify(c.args))
        .join('\n');
      expect(said).toContain(`goes on from the commits its earlier attempt pushed to \`${first[repo]!.name}\``);
      expect(said).not.toContain('starts again from the beginning');
      expect(replies(repo)[0]).toContain(`PR #${pulls[0]!.number}`);
      // The second attempt was told of the first: its branch, and Wrench's record of its steps.
      const resumedStart = seen.find((s) => s.repo === repo && s.resumed && s.step === 0);
      expect(resumedStart?.firstMessage).toContain(first[repo]!.name);
      expect(resumedStart?.firstMessage).toMatch(new RegExp(`<wrench_record>[\\s\\S]*edited src/${repo}\\.js[\\s\\S]*</wrench_record>`));
    }
    // The run page's record (one per job, started again by the second attempt) keeps the first attempt's steps in a note.
    const redis = new Redis(world.redis.url);
    try {
      const runLog = new RunLogStore(redis, world.env.WRENCH_QUEUE_PREFIX!, { retentionDays: 1 });
      const recorded = await runLog.recentFor('U0ALICE');
      expect(recorded).toHaveLength(1);
      const notes = (await runLog.entries(recorded[0]!.id)).flatMap((e) => (e.kind === 'note' ? [e.text] : []));
      expect(notes.join('\n')).toContain(`An earlier attempt of this run pushed to ${first.pushed!.name}`);
      expect(notes.join('\n')).toContain('edited src/pushed.js');
    } finally {
      redis.disconnect();
    }
  });
});

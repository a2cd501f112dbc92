import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';
import { bashStep, createFileStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/budget }
sandbox: { mode: bwrap }
limits: { steps: 3 }
`;

describe('budgets', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'budget', { 'README.md': '# budget\n' });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('when the step budget runs out the work so far is kept in a draft PR and the reply says so', async () => {
    const script = scriptByRun({
      'budget task': [createFileStep('src/part1.js', 'export const p1 = 1;\n'), bashStep('ls'), bashStep('ls src'), bashStep('never reached')],
    });
    world.anthropic.setScript(script.items);
    const envelope = appMentionEnvelope({
      channel: 'C0DEV',
      user: 'U0ALICE',
      text: '<@U0BOT> budget task: add src/part1.js and src/part2.js exporting `p1` and `p2`',
    });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const reply = await threadReply(world, ts, /draft PR #/, 150_000);
    expect(reply.text).toMatch(/step limit \(3 steps\)/);
    const pull = world.github.pulls('acme', 'budget')[0];
    expect(reply.text).toContain(`The work done until then is in draft pull request #${pull!.number} (branch \`${pull!.headRef}\`).`);
    expect(pull!.draft).toBe(true);
    expect(script.trace).toHaveLength(3);
  });

  it("says the limit and what became of the work in the requester's language (their Slack locale), the figures as they are", async () => {
    world.slack.addUser({ id: 'U0KENJI', name: 'kenji', locale: 'ja-JP' });
    const script = scriptByRun({
      'ja budget task': [createFileStep('src/ja1.js', 'export const j1 = 1;\n'), bashStep('ls'), bashStep('ls src'), bashStep('never reached')],
    });
    world.anthropic.setScript(script.items);
    const envelope = appMentionEnvelope({
      channel: 'C0DEV',
      user: 'U0KENJI',
      text: '<@U0BOT> ja budget task: add src/ja1.js and src/ja2.js exporting `j1` and `j2`',
    });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const reply = await threadReply(world, ts, /ステップ数の上限/, 150_000);
    const pull = world.github.pulls('acme', 'budget').find((p) => p.body?.includes('ja budget task'));
    // The run's streamed message (the default) says it in Markdown.
    expect(reply.text).toContain(
      `**途中で停止**\nステップ数の上限(3 ステップ)に達しました。それまでの作業はドラフトのプルリクエスト #${pull?.number}(ブランチ \`${pull?.headRef}\`)にあります。続けるには、このスレッドで私をメンションしてください。`,
    );
    expect(pull?.draft).toBe(true);
  });

  it("says in the requester's language that the model refused, and what became of the work so far", async () => {
    world.slack.addUser({ id: 'U0HANS', name: 'hans', locale: 'de-DE' });
    const script = scriptByRun({
      'de refusal task': [createFileStep('src/de1.js', 'export const d1 = 1;\n'), { content: [], stop_reason: 'refusal' }],
    });
    world.anthropic.setScript(script.items);
    const envelope = appMentionEnvelope({
      channel: 'C0DEV',
      user: 'U0HANS',
      text: '<@U0BOT> de refusal task: add src/de1.js and src/de2.js exporting `d1` and `d2`',
    });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const reply = await threadReply(world, ts, /Vorzeitig beendet/, 150_000);
    const pull = world.github.pulls('acme', 'budget').find((p) => p.body?.includes('de refusal task'));
    expect(reply.text).toContain(
      `**Vorzeitig beendet**\nDas Modell hat abgelehnt, diese Aufgabe weiter zu bearbeiten. Die bis dahin erledigte Arbeit steht im Entwurfs-Pull-Request #${pull?.number} (Branch \`${pull?.headRef}\`). Um weiterzumachen, erwähne mich in diesem Thread.`,
    );
    expect(reply.text).not.toMatch(/declined|To go on/);
    expect(pull?.draft).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0SHOP: { repo: acme/shop, baseBranch: main }
repos: [acme/*]
sandbox: { mode: bwrap }
`;

describe('a question on the streamed surface', () => {
  let world: E2eWorld;
  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'shop', { 'src/checkout.js': 'const MAX_ATTEMPTS = 3;\nexport const x = 1;\n' });
    await world.start();
  }, 90_000);
  afterAll(async () => {
    await world?.stop();
  });

  it('ends its one streamed message with the answer: citations linked at the commit read, a bad one removed and unlinked, the work titled as reading for the answer', async () => {
    const { anthropic, slack, github } = world;
    const sha = (await github.branchSha('acme', 'shop', 'main'))!;
    const finish = { answer: 'Up to MAX_ATTEMPTS (src/checkout.js:1); also src/nope.js:3.', claims: [], notFound: [] };
    anthropic.setScript(scriptByRun({ 'retry the payment': [toolUseResponse([{ name: 'finish_task', input: finish }])] }).items);
    const question = appMentionEnvelope({ channel: 'C0SHOP', user: 'U0ALICE', text: '<@U0BOT> why does checkout retry the payment three times?' });
    await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, question);
    const ts = (question.event as { ts: string }).ts;
    const stop = await slack.waitFor((c) => c.method === 'chat.stopStream', 120_000);
    const chunks = stop.args.chunks as Array<{ type: string; id?: string; title?: string; text?: string }>;
    const answer = chunks
      .filter((c) => c.type === 'markdown_text')
      .map((c) => c.text)
      .join('');
    expect(answer).toContain(`[src/checkout.js:1](${github.gitBaseUrl}/acme/shop/blob/${sha}/src/checkout.js#L1)`);
    expect(answer).toContain('`src/nope.js:3`: no such file at this commit');
    expect(answer).not.toContain('nope.js#L');
    const titles = slack.calls
      .filter((c) => /Stream$/.test(c.method))
      .flatMap((c) => (c.args.chunks as typeof chunks).filter((k) => k.id === 'working').map((k) => k.title));
    expect(titles.length).toBeGreaterThan(0);
    expect(new Set(titles)).toEqual(new Set(['Read the code for the answer']));
    // One message for the run: nothing else posted in the thread.
    expect(slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === ts)).toHaveLength(0);
  });
});

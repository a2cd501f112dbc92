import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope, blockActionsPayload } from '../fakes/slack-fake.js';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { streamText } from '../fakes/slack/streams.js';
import type { SlackFailure } from '../fakes/slack/types.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/web, baseBranch: main }
sandbox: { mode: bwrap }
`;

const addFile = (path: string) => [
  toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path, file_text: 'export const x = 1;\n' } }]),
  toolUseResponse([
    { name: 'finish_task', input: { summary: `Added ${path}.`, verification: 'none needed', filesChanged: [{ path, change: 'new file' }], openQuestions: [] } },
  ]),
];

/** Slack down from before the mention until after the run finished: the mention, the run and the final reply all meet it. */
describe('nothing is lost while Slack fails: every run runs, every thread gets its messages once Slack answers', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'web', { 'README.md': '# web\n', 'src/index.js': 'export {};\n' });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  const outages: [string, SlackFailure][] = [
    ['HTTP 429 with Retry-After', { status: 429, retryAfter: 1 }],
    ['HTTP 500', { status: 500 }],
    ['ok:false ratelimited', { error: 'ratelimited' }],
    ['channel_not_found', { error: 'channel_not_found' }],
  ];

  it.each(outages)('Slack answering %s at the mention, during the run and at the final reply', async (name, failure) => {
    const { slack, github, anthropic } = world;
    const file = `src/${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.js`;
    anthropic.setScript(addFile(file));
    const pullsBefore = github.pulls('acme', 'web').length;
    slack.startOutage(failure);

    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> add ${file} exporting \`x = 1\`. Keep it to that one file.` });
    const delivered = await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    expect(delivered.status).toBe(200);
    const ts = (envelope.event as { ts: string }).ts;

    // The run goes on while Slack is down: its pull request is opened without a single message delivered.
    const pull = await pollFor(
      () => github.pulls('acme', 'web').find((p) => p.title.includes(file)),
      90_000,
      () =>
        `no pull request for ${file}: ${world
          .wrench!.output()
          .split('\n')
          .filter((l) => !/retrying later/.test(l))
          .slice(-25)
          .join('\n')}`,
    );
    expect(github.pulls('acme', 'web')).toHaveLength(pullsBefore + 1);
    await slack.waitFor((c) => (c.args.thread_ts === ts || c.args.timestamp === ts) && (c.status !== 200 || !!c.error), 10_000);
    expect(slack.messages('C0DEV', ts).filter((m) => m.ts !== ts)).toHaveLength(0);

    slack.recover();
    const replies = () => slack.messages('C0DEV', ts).filter((m) => m.ts !== ts);
    // The run's one message (streamed, the default), delivered once Slack answers: its plan done, the result in it.
    const stream = await pollFor(
      () => slack.streamsIn('C0DEV', ts).find((s) => s.state === 'stopped' && streamText(s).includes(`/pull/${pull.number}`)),
      60_000,
      () => `thread so far: ${JSON.stringify(replies().map((m) => m.text))}`,
    );
    expect(stream.planTitle).toBe('Done: acme/web');
    // Nothing twice: one stream, and the thread holds only that message.
    expect(slack.streamsIn('C0DEV', ts)).toHaveLength(1);
    expect(replies().map((m) => m.ts)).toEqual([stream.ts]);
    // The :eyes: reaction arrived too, once.
    await slack.waitFor((c) => c.method === 'reactions.add' && c.args.timestamp === ts && c.status === 200 && !c.error, 30_000);
  });

  it('a "@wrench triage:" mention while Slack answers 500: the triage runs, its status and report arrive after recovery', async () => {
    const { slack, anthropic } = world;
    anthropic.setScript([
      toolUseResponse([{ name: 'bash', input: { command: 'git log --oneline | head -5' } }]),
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            whatIsGoingOn: 'Checkout answers HTTP 500.',
            verdict: 'No recent change explains the errors',
            likelyCause: {
              summary: 'Unknown from the code alone.',
              confidence: 'low',
              evidence: [{ claim: 'one commit in the window', kind: 'commit', ref: 'HEAD' }],
            },
            suspectCommits: [],
            ruledOut: [],
            nextSteps: ['Look at the service logs'],
          },
        },
      ]),
    ]);
    slack.startOutage({ status: 500 });
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> triage: checkout returns 500 errors since this morning' });
    await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    await pollFor(
      () => (anthropic.requests.filter((r) => JSON.stringify(r.body).includes('checkout returns 500')).length >= 2 ? true : undefined),
      60_000,
      () => 'the triage agent did not run',
    );
    slack.recover();
    const replies = () =>
      slack
        .messages('C0DEV', ts)
        .filter((m) => m.ts !== ts)
        .map((m) => m.text);
    await pollFor(
      () => (replies().some((t) => t.includes('No recent change explains')) && replies().some((t) => /Triage finished/.test(t)) ? true : undefined),
      60_000,
      () => `thread so far: ${JSON.stringify(replies())}`,
    );
    expect(replies()[0]).toMatch(/Triage finished/);
    expect(new Set(replies()).size).toBe(replies().length);
  });

  it('an ill-formed mention while Slack answers 500: its questions reach the thread after recovery', async () => {
    const { slack } = world;
    slack.startOutage({ status: 500 });
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> make it better' });
    await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    // Until the handler's own retries (1 + 3) are spent: the card then waits in the thread's outbox (behind the :eyes:).
    const failedPosts = () => slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === ts && c.status === 500).length;
    await pollFor(
      () => (failedPosts() >= 4 ? true : undefined),
      60_000,
      () => `${failedPosts()} failed posts so far`,
    );
    slack.recover();
    const replies = () => slack.messages('C0DEV', ts).filter((m) => m.ts !== ts);
    const card = await pollFor(
      () => replies()[0],
      60_000,
      () => 'no reply in the thread',
    );
    expect(JSON.stringify(card.blocks ?? card.text)).toMatch(/wrench_/);
    expect(replies()).toHaveLength(1);

    // The card Slack took only from the outbox is still edited in place: its ts was kept under its outbox key.
    const start = (card.blocks as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>)
      .find((b) => b.type === 'actions')!
      .elements!.find((e) => e.action_id === 'wrench_start_anyway')!;
    await slack.deliverInteraction(
      world.eventsUrl(),
      SIGNING_SECRET,
      blockActionsPayload({ user: 'U0ALICE', channel: 'C0DEV', message_ts: card.ts, thread_ts: ts, action_id: start.action_id, value: start.value }),
    );
    const edit = await slack.waitFor((c) => c.method === 'chat.update' && c.args.ts === card.ts, 30_000);
    expect(String(edit.args.text)).toContain('Starting anyway');
  });
});

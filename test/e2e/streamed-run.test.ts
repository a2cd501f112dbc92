import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/web, baseBranch: main }
repos: [acme/*]
sandbox: { mode: bwrap }
slack: { streamRuns: true }
`;

describe('a run streamed into one message with its plan (slack.streamRuns), end to end', () => {
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

  it('shows the stages as a plan, then the reply with its outcome first, in the one streamed message under the card', async () => {
    const { slack, anthropic, github } = world;
    anthropic.setScript([
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
    expect((await slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    const threadTs = (envelope.event as { ts: string }).ts;

    const stream = await pollFor(
      () => slack.streamsIn('C0DEV', threadTs).find((s) => s.state === 'stopped'),
      60_000,
      () => `streams: ${JSON.stringify(slack.streamsIn('C0DEV', threadTs))}`,
    );
    const pull = github.pulls('acme', 'web')[0];
    expect(pull).toBeDefined();
    expect(stream).toMatchObject({ displayMode: 'plan', recipient: { user: 'U0ALICE', team: 'T0TEAM' }, planTitle: 'Done: acme/web' });
    const tasks = stream.parts.flatMap((part) => (part.kind === 'task' ? [`${part.task.id}:${part.task.status}`] : []));
    expect(tasks).toEqual(['reading:complete', 'preparing:complete', 'working:complete', 'edits:complete', 'verifying:complete', 'publishing:complete']);
    expect(stream.parts.find((part) => part.kind === 'task' && part.task.id === 'edits')).toMatchObject({ task: { output: '1 file: src/format.test.js' } });
    const reply = stream.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('');
    expect(reply).toMatch(/^Outcome: `npm test` passes after the change/);
    expect(reply).toContain(`[PR #${pull!.number}: `);

    // The thread holds the mention, the card and the streamed message: no separate reply.
    await slack.waitFor((c) => c.method === 'reactions.add' && c.args.name === 'white_check_mark', 10_000);
    const fromWrench = slack.messages('C0DEV', threadTs).filter((m) => m.bot_id);
    expect(fromWrench).toHaveLength(2);
    expect(fromWrench.map((m) => m.ts)).toContain(stream.ts);
  });
});

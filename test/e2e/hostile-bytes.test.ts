import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { createFileStep, scriptByRun } from './scripted-runs.js';
import { threadReply } from './thread-replies.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/bytes }
sandbox: { mode: bwrap }
`;

/** A NUL, an escape sequence, a bell and a lone surrogate: text git refuses (`NUL byte in commit log message`) or Slack should never show. */
const HOSTILE = '\u0000\u001b[31m\u0007\ud800';
/** What JSON keeps of a control character (other than tab, newline, carriage return) or a lone surrogate. */
const ILL_FORMED_JSON = /\\u00[01][0-9a-f]|\\u007f|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i;

describe('hostile bytes in a mention or an agent summary', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'bytes', { 'README.md': '# bytes\n' });
    await world.start();
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await world?.stop();
  });

  const run = async (text: string, marker: string, summary: string, file: string) => {
    world.anthropic.setScript(
      scriptByRun({
        [marker]: [
          createFileStep(file, 'export {};\n'),
          toolUseResponse([{ name: 'finish_task', input: { summary, verification: 'ok', filesChanged: [], openQuestions: [] } }]),
        ],
      }).items,
    );
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const reply = await threadReply(world, ts, /PR #|failed|could not/i, 120_000);
    return { ts, reply };
  };

  const pushedPull = (file: string) => {
    const pull = world.github
      .pulls('acme', 'bytes')
      .find(
        (p) =>
          p.headRef &&
          execFileSync('git', ['--git-dir', world.github.gitDir('acme', 'bytes'), 'ls-tree', '--name-only', '-r', p.headRef], { encoding: 'utf8' }).includes(
            file,
          ),
      );
    expect(pull, `a pull request whose branch holds ${file}`).toBeDefined();
    const message = execFileSync('git', ['--git-dir', world.github.gitDir('acme', 'bytes'), 'log', '-1', '--format=%B', pull!.headRef], { encoding: 'utf8' });
    return { pull: pull!, message };
  };

  it('a mention holding a NUL byte ends in a pushed commit and a pull request; no NUL reaches Slack or GitHub', async () => {
    const { reply } = await run(
      `<@U0BOT> bytes mention: add src/mention.js${HOSTILE} exporting nothing`,
      'bytes mention',
      'Added src/mention.js.',
      'src/mention.js',
    );
    expect(reply.text).toMatch(/PR #\d+/);
    const { pull, message } = pushedPull('src/mention.js');
    expect(message).toContain('Requested-by:');
    expect(message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(`${pull.title}\n${pull.body}`).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]|[\ud800-\udfff]/);
    expect(JSON.stringify(world.slack.calls.map((c) => c.args))).not.toMatch(ILL_FORMED_JSON);
    expect(JSON.stringify(world.github.requests.map((r) => r.body))).not.toMatch(ILL_FORMED_JSON);
  });

  it("an agent summary holding a NUL byte ends in a pushed commit whose message keeps the summary's words, and a pull request", async () => {
    const { reply } = await run(
      '<@U0BOT> bytes summary: add src/summary.js exporting nothing',
      'bytes summary',
      `Added${HOSTILE} src/summary.js for the summary.`,
      'src/summary.js',
    );
    expect(reply.text).toMatch(/PR #\d+/);
    expect(reply.text).toContain('src/summary.js for the summary.');
    const { pull, message } = pushedPull('src/summary.js');
    expect(message).toMatch(/Added.*src\/summary\.js for the summary\./);
    expect(message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(`${pull.title}\n${pull.body}`).toContain('src/summary.js for the summary.');
    expect(JSON.stringify(world.slack.calls.map((c) => c.args))).not.toMatch(ILL_FORMED_JSON);
    expect(JSON.stringify(world.github.requests.map((r) => r.body))).not.toMatch(ILL_FORMED_JSON);
  });
});

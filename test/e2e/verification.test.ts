import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/dates }
  C0PLAIN: { repo: acme/plain }
  C0DEPS: { repo: acme/deps }
verification:
  acme/deps: { setup: "node setup.js" }
sandbox: { mode: bwrap }
`;

const DATES = 'export function isWeekend(day) {\n  return day === 0 || day >= 5;\n}\n\nexport function isMonday(day) {\n  return day === 1;\n}\n';
const TESTS = [
  "import test from 'node:test';",
  "import assert from 'node:assert';",
  "import { isWeekend, isMonday } from '../src/dates.js';",
  '',
  "test('friday is not weekend', () => assert.equal(isWeekend(5), false));",
  "test('monday is monday', () => assert.equal(isMonday(1), true));",
  '',
].join('\n');

const finish = (summary: string) =>
  toolUseResponse([
    { name: 'finish_task', input: { summary, verification: 'ran node --test', filesChanged: [{ path: 'src/dates.js', change: 'edited' }], openQuestions: [] } },
  ]);
const replace = (oldStr: string, newStr: string) =>
  toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/dates.js', old_str: oldStr, new_str: newStr } }]);

describe('independent verification by the runner', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'dates', {
      'package.json': JSON.stringify({ name: 'dates', type: 'module', scripts: { test: 'node --test test/' } }),
      'src/dates.js': DATES,
      'test/dates.test.js': TESTS,
    });
    await world.github.createRepo('acme', 'plain', {
      'package.json': JSON.stringify({ name: 'plain', type: 'module', scripts: { test: 'node check.js' } }),
      'check.js': "console.log('ok add');\nconsole.log('not ok subtract');\nconsole.log('1 passed, 1 failed');\nprocess.exit(1);\n",
    });
    await world.github.createRepo('acme', 'deps', {
      'package.json': JSON.stringify({ name: 'deps', type: 'module', scripts: { test: 'node --test test/' } }),
      'setup.js': "console.log('resolving devDependencies');\nconsole.error('npm error 404 Not Found - GET left-pad@99.0.0');\nprocess.exit(3);\n",
      'src/dates.js': DATES,
      'test/dates.test.js': TESTS,
    });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  const mention = async (text: string, channel = 'C0DEV') => {
    const envelope = appMentionEnvelope({ channel, user: 'U0ALICE', text: `<@U0BOT> ${text}` });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    return (envelope.event as { ts: string }).ts;
  };

  it('a fix that makes a failing test pass opens a ready PR with the tests before and after', async () => {
    world.anthropic.setScript([replace('day >= 5', 'day === 6'), finish('isWeekend no longer counts Friday.')]);
    const ts = await mention('`isWeekend()` in src/dates.js returns true for Fridays. It should only be true for Saturday and Sunday. Fix it.');
    const reply = await threadReply(world, ts, /\/pull\//, 150_000);
    const pull = world.github.pulls('acme', 'dates').at(-1)!;
    expect(pull.draft).toBe(false);
    expect(pull.body).toContain('before 1 passed, 1 failed → after 2 passed, 0 failed');
    expect(pull.body).toContain('Fixed: `friday is not weekend`');
    expect(reply.text).toContain('improved');
  });

  it('a change that breaks a passing test gets one round to fix it, then becomes a draft PR naming the failure', async () => {
    world.anthropic.setScript([
      replace('return day === 1;', 'return day === 2;'),
      finish('Changed isMonday.'),
      // The fix round: the agent does not manage to fix it.
      finish('I could not find the problem.'),
    ]);
    const ts = await mention("make `isMonday()` in src/dates.js also accept the day name 'monday'; npm test must pass.");
    const reply = await threadReply(world, ts, /\/pull\//, 150_000);
    const pull = world.github.pulls('acme', 'dates').at(-1)!;
    expect(pull.draft).toBe(true);
    expect(pull.body).toContain('Why this is a draft');
    expect(pull.body).toContain('New failures: `monday is monday`');
    // Opened as a draft, not "Stopped early": the agent finished (the streamed reply's line, without the emoji).
    expect(reply.text).toMatch(/^Opened draft PR #\d+/m);
    const fixRound = world.anthropic.requests.at(-1)!.body as { messages: Array<{ content: unknown }> };
    expect(JSON.stringify(fixRound.messages.at(-1))).toContain('Newly failing: monday is monday');
  });

  it('an agent that edits only the README but claims a fixed source file and passing tests is shown as contradicted', async () => {
    world.anthropic.setScript([
      toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'README.md', file_text: '# dates\n\nWeekend helpers.\n' } }]),
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            summary: 'Fixed the Friday edge case in src/dates.js. All tests pass.',
            verification: 'All tests pass.',
            rootCause: 'isWeekend counted Friday as a weekend day; fixed, and the tests pass.',
            filesChanged: [
              { path: 'src/dates.js', change: 'isWeekend excludes Friday' },
              { path: 'README.md', change: 'documented the helpers' },
            ],
            openQuestions: [],
          },
        },
      ]),
    ]);
    const ts = await mention('`isWeekend()` in src/dates.js returns true for Fridays. It should only be true for Saturday and Sunday. Fix it.');
    const reply = await threadReply(world, ts, /\/pull\//, 120_000);
    const text = reply.text;
    const pull = world.github.pulls('acme', 'dates').at(-1)!;
    // The run's streamed message (the default): Outcome first, then the pull request named by its title (a Markdown
    // link, read here as "title (url)") and the diff's counts, not by a bare URL.
    expect(reply.streamed).toBe(true);
    const [outcome, headline] = text.split('\n\n');
    expect(outcome).toBe('Outcome: `npm test` fails after the change (1 passed, 1 failed), as it did before.');
    expect(headline).toMatch(
      new RegExp(`^Opened PR #${pull.number}: [^\\n]*[Ii]sWeekend[^\\n]* \\(http[^)\\s]+/pull/${pull.number}\\) \\(1 file, \\+3 −0\\)$`),
    );
    expect(text).not.toContain('\u200B');
    // Then the agent's summary marked as a contradicted claim next to the measurement, then Verification.
    for (const body of [text, pull.body]) {
      expect(body).toMatch(/Summary \(the agent's claim, contradicted by Wrench's checks\)/);
      expect(body).toContain('Measured by Wrench: `npm test` failed after the change (1 passed, 1 failed).');
      expect(body).toContain('same as before: 1 passed, 1 failed');
      expect(body).toMatch(/`README\.md` \(\+3 −0\): the agent says: documented the helpers/);
      expect(body).toMatch(/`src\/dates\.js`: claimed, not changed/);
      expect(body).not.toMatch(/^[-•]\s+`src\/dates\.js`: isWeekend/m);
      expect(body).not.toMatch(/^Fixed the Friday edge case/m);
      // A category section in the agent's words (bug fixing's root cause) is its claim too, never a finding.
      // Bold in the streamed Markdown (**…**), a heading in the PR body.
      expect(body).toMatch(/Root cause \(the agent's claim, contradicted by Wrench's checks\)(\*\*)?\n+> isWeekend counted Friday/);
      expect(body).not.toMatch(/^isWeekend counted Friday/m);
    }
    expect(text.indexOf('Summary')).toBeLessThan(text.indexOf('Verification'));
  });

  it('reads the counts of a test command whose output ends with a plain "1 passed, 1 failed" line', async () => {
    world.anthropic.setScript([
      toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'NOTES.md', file_text: 'notes\n' } }]),
      finish('Added notes.'),
    ]);
    const ts = await mention('add a NOTES.md file', 'C0PLAIN');
    const reply = await threadReply(world, ts, /\/pull\//, 150_000);
    const pull = world.github.pulls('acme', 'plain').at(-1)!;
    expect(pull.body).toContain('`npm test`: same as before: 1 passed, 1 failed.');
    expect(pull.body).not.toContain('exit code 1');
    expect(reply.text).toContain('1 passed, 1 failed');
  });

  it('a dependency setup that fails is said in the thread and the PR, and the checks are marked "could not install dependencies"', async () => {
    world.anthropic.setScript([
      toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'NOTES.md', file_text: 'notes\n' } }]),
      finish('Added notes. All tests pass.'),
    ]);
    const ts = await mention('add a NOTES.md file', 'C0DEPS');
    const reply = await threadReply(world, ts, /\/pull\//, 150_000);
    const text = reply.text;
    const pull = world.github.pulls('acme', 'deps').at(-1)!;
    expect(text).toContain('Outcome: Wrench could not install the dependencies (`node setup.js` failed)');
    for (const body of [text, pull.body!]) {
      expect(body).toMatch(/Could not install dependencies\*{0,2}: `node setup.js` exited with code 3\./);
      expect(body).toContain('npm error 404 Not Found - GET left-pad@99.0.0');
      expect(body).toMatch(/on the base commit and after the change: \*{1,2}could not install dependencies\*{1,2}\./);
    }
  });
});

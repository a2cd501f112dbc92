import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { createE2eWorld, type E2eWorld } from './e2e-world.js';
import { mention, replyIn, taskText } from './category-helpers.js';

const CONFIG = `
channels:
  C0BUGS: { repo: acme/dates, baseBranch: main }
sandbox: { mode: bwrap }
`;

const DATES = 'export function isWeekend(day) {\n  return day === 0 || day >= 5;\n}\n\nexport function isMonday(day) {\n  return day === 1;\n}\n';
const MONDAY_TEST =
  "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { isMonday } from '../src/dates.js';\n\ntest('monday is monday', () => assert.equal(isMonday(1), true));\n";
const weekendTest = (name: string) =>
  `import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { isWeekend } from '../src/dates.js';\n\ntest('${name}', () => assert.equal(isWeekend(5), false));\ntest('saturday is weekend', () => assert.equal(isWeekend(6), true));\n`;

const steps = (testFile: string, testName: string, regressionTest: Record<string, string>) => [
  toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: testFile, file_text: weekendTest(testName) } }]),
  toolUseResponse([{ name: 'bash', input: { command: `node --test ${testFile} 2>&1 | grep -E '^# (pass|fail)'` } }]),
  toolUseResponse([
    { name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/dates.js', old_str: 'day >= 5', new_str: 'day === 6' } },
  ]),
  toolUseResponse([
    {
      name: 'finish_task',
      input: {
        summary: 'isWeekend counted Friday (5) as weekend; it now only counts Saturday and Sunday.',
        rootCause: 'The check `day >= 5` includes Friday.',
        filesChanged: [
          { path: 'src/dates.js', change: 'weekend is 0 or 6' },
          { path: testFile, change: 'regression test' },
        ],
        verification: 'The regression test failed before the fix and passes now; npm test passes.',
        openQuestions: [],
        regressionTests: [regressionTest],
      },
    },
  ]),
];

describe('bug fixing with a regression test, end to end', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'dates', {
      'package.json': JSON.stringify({ name: 'dates', type: 'module', scripts: { test: 'node --test test/' } }),
      'src/dates.js': DATES,
      'test/dates.test.js': MONDAY_TEST,
    });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it("checks that the regression test fails without the fix and passes with it (the test's own command), and says so", async () => {
    const { anthropic, github } = world;
    const name = 'friday is not a weekend day';
    anthropic.setScript(steps('test/weekend.test.js', name, { name, file: 'test/weekend.test.js', command: 'node --test test/weekend.test.js' }));

    const ts = await mention(
      world,
      'C0BUGS',
      '`isWeekend()` in src/dates.js returns true for Fridays. It should be true only on Saturday and Sunday. Fix it with a regression test.',
    );
    const { text } = await replyIn(world, ts, /\/pull\//);

    expect(taskText(anthropic.requests[0]!.body)).toContain('Add a regression test that fails without your fix');
    expect(text).toContain("*Root cause (the agent's account)*");
    expect(text).toContain(`Regression test \`${name}\` failed before the fix and passes after (\`node --test test/weekend.test.js\`).`);
    expect(text).toContain('`src/dates.js`');

    // The fix was restored exactly after the check: it is what was pushed.
    const pull = github.pulls('acme', 'dates').at(-1)!;
    const pushed = execFileSync('git', ['--git-dir', github.gitDir('acme', 'dates'), 'show', `${pull.headRef}:src/dates.js`], { encoding: 'utf8' });
    expect(pushed).toContain('day === 6');
    expect(pull.body).toContain('## Regression test');
  });

  it('without a command of its own, runs the suite and finds the named test failing before the fix', async () => {
    const name = 'friday is a working day';
    world.anthropic.setScript(steps('test/friday.test.js', name, { name, file: 'test/friday.test.js' }));
    const ts = await mention(
      world,
      'C0BUGS',
      '`isWeekend()` in src/dates.js says Friday is weekend. Expected: false for Friday. Fix the bug and add a regression test.',
    );
    const { text } = await replyIn(world, ts, /\/pull\//);
    expect(text).toContain(`Regression test \`${name}\` failed before the fix and passes after (\`npm test\`).`);
  });
});

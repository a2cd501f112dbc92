import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { mention, replyIn } from './category-helpers.js';
import { threadReply } from './thread-replies.js';

const CONFIG = `
channels:
  C0REFACTOR: { repo: acme/orders, baseBranch: main }
  C0LEGACY: { repo: acme/legacy, baseBranch: main }
sandbox: { mode: bwrap }
`;

const PACKAGE = JSON.stringify({ name: 'orders', type: 'module', scripts: { test: 'node --test test/' } }, null, 2);
const ORDERS = [
  'export function calcTax(amount, rate = 0.2) {',
  '  return Math.round(amount * rate * 100) / 100;',
  '}',
  '',
  'export function orderTotal(lines) {',
  '  const net = lines.reduce((sum, line) => sum + line.price * line.qty, 0);',
  '  return net + calcTax(net);',
  '}',
  '',
].join('\n');
const ORDERS_TEST =
  "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { orderTotal } from '../src/orders.js';\n\ntest('order total includes tax', () => assert.equal(orderTotal([{ price: 10, qty: 2 }]), 24));\n";
const TAX = 'export function computeTax(amount, rate = 0.2) {\n  return Math.round(amount * rate * 100) / 100;\n}\n';

const edit = (path: string, oldStr: string, newStr: string) =>
  toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path, old_str: oldStr, new_str: newStr } }]);

describe('refactoring, end to end', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'orders', { 'package.json': PACKAGE, 'src/orders.js': ORDERS, 'test/orders.test.js': ORDERS_TEST });
    await world.github.createRepo('acme', 'legacy', {
      'package.json': PACKAGE,
      'src/orders.js': ORDERS,
      'test/orders.test.js': ORDERS_TEST.replace('24));', '25));'),
    });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('keeps the full suite passing before and after, and lists what moved and what was renamed', async () => {
    const { anthropic, github } = world;
    anthropic.setScript([
      toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'src/tax.js', file_text: TAX } }]),
      edit('src/orders.js', ORDERS.split('\n').slice(0, 4).join('\n') + '\n', "import { computeTax } from './tax.js';\n\n"),
      edit('src/orders.js', 'return net + calcTax(net);', 'return net + computeTax(net);'),
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            summary: 'Moved the tax helper into src/tax.js and renamed it computeTax; behaviour unchanged.',
            filesChanged: [
              { path: 'src/tax.js', change: 'new module with computeTax' },
              { path: 'src/orders.js', change: 'uses computeTax from tax.js' },
            ],
            verification: 'npm test passes.',
            openQuestions: [],
            moved: [{ what: 'the tax helper', from: 'src/orders.js', to: 'src/tax.js' }],
            renamed: [{ from: 'calcTax', to: 'computeTax', kind: 'function' }],
          },
        },
      ]),
    ]);

    const ts = await mention(
      world,
      'C0REFACTOR',
      'Refactor src/orders.js: move the tax helper into src/tax.js and rename calcTax to computeTax. All tests must pass; no behaviour change.',
    );
    const { text } = await replyIn(world, ts, /\/pull\//);

    // The finish tool asked for the moved/renamed lists.
    const tools = (anthropic.requests[0]!.body as { tools: Array<{ name: string; input_schema: { properties: Record<string, unknown> } }> }).tools;
    expect(Object.keys(tools.find((t) => t.name === 'finish_task')!.input_schema.properties)).toEqual(expect.arrayContaining(['moved', 'renamed']));

    expect(text).toContain("*Moved and renamed (the agent's account)*");
    expect(text).toContain('Moved the tax helper: `src/orders.js` → `src/tax.js`');
    expect(text).toContain('Renamed function `calcTax` → `computeTax`');
    expect(text).toContain('`npm test` passes on the base commit and passes after the refactoring.');
    const pull = github.pulls('acme', 'orders').at(-1)!;
    expect(pull.draft).toBe(false);
    expect(pull.body).toContain("## Moved and renamed (the agent's account)");
  });

  it('does not start when the suite fails on the base commit, and says so up front', async () => {
    const before = world.anthropic.requests.length;
    const ts = await mention(
      world,
      'C0LEGACY',
      'Refactor src/orders.js: move the tax helper into src/tax.js and rename calcTax to computeTax. No behaviour change.',
    );
    const { text } = await replyIn(world, ts, /did not start the refactoring/);
    expect(text).toContain('The test suite fails on the base commit');
    expect(text).toContain('`order total includes tax`');
    expect(text).toContain('refactor even though the tests fail');
    expect(world.anthropic.requests.length).toBe(before);
    expect(world.github.pulls('acme', 'legacy')).toHaveLength(0);
  });

  it("says so in the requester's language (their Slack locale), the command and the failing test as they are", async () => {
    world.slack.addUser({ id: 'U0KENJI', name: 'kenji', locale: 'ja-JP' });
    const envelope = appMentionEnvelope({
      channel: 'C0LEGACY',
      user: 'U0KENJI',
      text: '<@U0BOT> Refactor src/orders.js: move the tax helper into src/tax.js and rename calcTax to computeTax. No behaviour change.',
    });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    // On whichever surface the run answered (a streamed message by default).
    const { text } = await threadReply(world, ts, /リファクタリングを開始しませんでした/);
    expect(text).toMatch(/:warning: ベースコミットの時点でテストスイートが失敗しているため、リファクタリングを開始しませんでした。\n/);
    expect(text).toMatch(/`npm test` は変更前からすでに失敗しています: 1 件失敗\(`order total includes tax` など\)。/);
    expect(text).not.toMatch(/did not start|refactor even though/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { createE2eWorld, type E2eWorld } from './e2e-world.js';
import { mention, replyIn, taskText } from './category-helpers.js';

const CONFIG = `
channels:
  C0TEST: { repo: acme/cart, baseBranch: main }
sandbox: { mode: bwrap }
`;

const CART = [
  'export function total(items) {',
  '  return items.reduce((sum, item) => sum + item.price * item.qty, 0);',
  '}',
  '',
  'export function discount(amount, code) {',
  "  if (code === 'HALF') return amount / 2;",
  "  if (code === 'TENOFF') return Math.max(0, amount - 10);",
  '  return amount;',
  '}',
  '',
  'export function isEmpty(items) {',
  '  return items.length === 0;',
  '}',
  '',
].join('\n');

const EXISTING_TEST =
  "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { total } from '../src/cart.js';\n\ntest('total sums price times quantity', () => assert.equal(total([{ price: 2, qty: 3 }]), 6));\n";

const NEW_TEST = [
  "import test from 'node:test';",
  "import assert from 'node:assert/strict';",
  "import { discount, isEmpty } from '../src/cart.js';",
  '',
  "test('HALF halves the amount', () => assert.equal(discount(30, 'HALF'), 15));",
  "test('TENOFF never goes below zero', () => assert.equal(discount(4, 'TENOFF'), 0));",
  "test('an unknown code changes nothing', () => assert.equal(discount(30, 'NOPE'), 30));",
  "test('an empty cart is empty', () => assert.equal(isEmpty([]), true));",
  '',
].join('\n');

describe('testing with coverage, end to end', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'cart', {
      'package.json': JSON.stringify(
        { name: 'cart', type: 'module', scripts: { test: 'node --test test/', coverage: 'node --test --experimental-test-coverage test/' } },
        null,
        2,
      ),
      'src/cart.js': CART,
      'test/cart.test.js': EXISTING_TEST,
    });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('shows coverage before and after in the reply, and verification runs the new tests', async () => {
    const { anthropic, github } = world;
    anthropic.setScript([
      toolUseResponse([{ name: 'bash', input: { command: 'npm run coverage 2>&1 | tail -8' } }]),
      toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'test/discount.test.js', file_text: NEW_TEST } }]),
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            summary: 'Added tests for discount codes and empty carts.',
            filesChanged: [{ path: 'test/discount.test.js', change: 'tests for discount() and isEmpty()' }],
            verification: 'npm test: 5 passed.',
            openQuestions: [],
          },
        },
      ]),
    ]);

    const ts = await mention(
      world,
      'C0TEST',
      'Add unit tests for src/cart.js covering discount codes and empty carts; coverage must go up. npm test must pass.',
    );
    const { text } = await replyIn(world, ts, /\/pull\//);

    // The agent was told the coverage command and the baseline.
    expect(taskText(anthropic.requests[0]!.body)).toMatch(/Coverage: `npm run coverage` measures it; on the base commit: [\d.]+% of lines/);

    // Coverage before and after, measured by Wrench.
    expect(text).toContain('*Coverage*');
    const coverage = /`npm run coverage`: lines ([\d.]+)% before → ([\d.]+)% after \(\+([\d.]+) points\)/.exec(text);
    expect(coverage, text).not.toBeNull();
    expect(Number(coverage![2])).toBeGreaterThan(Number(coverage![1]));

    // The new tests ran in verification: one test before, five after.
    expect(text).toContain('`npm test`: before 1 passed, 0 failed → after 5 passed, 0 failed');
    expect(github.pulls('acme', 'cart').at(-1)!.body).toContain('## Coverage');
  });
});

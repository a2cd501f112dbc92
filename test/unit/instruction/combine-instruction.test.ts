import { describe, expect, it } from 'vitest';
import { clarifyingQuestions } from '../../../src/instruction/clarifying-questions.js';
import { combineInstruction } from '../../../src/instruction/combine-instruction.js';
import { readInstruction } from '../../../src/instruction/read-instruction.js';
import { CASES } from './cases.js';

describe('combineInstruction', () => {
  it('appends each answer under the label the reader knows', () => {
    const combined = combineInstruction('<@U0BOT> something is wrong with payments, please fix', {
      location: 'src/payments/charge.ts, `createCharge`',
      'observed-problem': 'a double click on "Pay" charges the card twice',
    });
    expect(combined).toBe(
      '<@U0BOT> something is wrong with payments, please fix\n\n' +
        'Observed problem: a double click on "Pay" charges the card twice\n\n' +
        'Location: src/payments/charge.ts, `createCharge`',
    );
  });

  it('accepts modal keys, skips empty answers and keeps multi-line answers as a list', () => {
    const combined = combineInstruction('add a settings page', {
      'missing:requirements': '1. theme switch\n\n2. language picker',
      'success-criteria': '   ',
    });
    expect(combined).toBe('add a settings page\n\nRequirements:\n1. theme switch\n2. language picker');
    expect(readInstruction(combined).elements.requirements).toEqual(['theme switch', 'language picker']);
  });

  it.each([
    ['<@U0BOT> we need more test coverage', { target: 'the `formatBytes` helper', location: 'src/lib/format.ts' }],
    [
      '<@U0BOT> something is wrong with payments, please fix',
      {
        'observed-problem': 'Expected: one charge per order. Actual: a double click on "Pay" charges the card twice.',
        location: 'src/payments/charge.ts, `createCharge`',
      },
    ],
    ['<@U0BOT> add payments', { scope: 'a Stripe Checkout session endpoint for one-off orders only; no subscriptions or refunds' }],
    ['<@U0BOT> can you review this?', { target: 'PR #91 in acme/api' }],
    [
      '<@U0BOT> give me some insights from the data',
      { target: 'data/orders-2026-09.csv', 'success-criteria': 'revenue per day and the top 10 products, as a Markdown table' },
    ],
    ['<@U0BOT> scrape the internet for competitor pricing', { target: 'https://competitor.example.com/pricing' }],
    ['<@U0BOT> clean up the codebase', { target: 'src/api/handlers.ts', 'success-criteria': 'one file per resource, no behaviour change, tests pass' }],
    ['<@U0BOT> everything is on fire', { 'observed-problem': 'search-api returns 504s on /search since 10:42 UTC, error rate 8%' }],
  ])('makes "%s" well-formed once the answers fill the gaps', (text, answers) => {
    const before = readInstruction(text);
    expect(before.verdict).toBe('ill-formed');
    expect(Object.keys(answers).sort()).toEqual([...before.missing].sort());
    const after = readInstruction(combineInstruction(text, answers));
    expect(after).toMatchObject({ verdict: 'well-formed', category: before.category });
  });

  it('round-trips every ill-formed sample and case answered with the example answers of its questions', () => {
    const illFormed = CASES.map((c) => c.text).filter((text) => readInstruction(text).verdict === 'ill-formed');
    expect(illFormed.length).toBeGreaterThan(40);
    for (const text of illFormed) {
      const reading = readInstruction(text);
      const answers = Object.fromEntries(clarifyingQuestions(reading).map((q) => [q.element, q.placeholder ?? '']));
      const after = readInstruction(combineInstruction(text, answers));
      expect({ text, verdict: after.verdict, category: after.category }).toEqual({ text, verdict: 'well-formed', category: reading.category });
    }
  });

  it('stays ill-formed when the answer is as vague as the question it answers', () => {
    const text = combineInstruction('<@U0BOT> something is wrong with payments, please fix', {
      'observed-problem': "it's broken",
      location: 'src/payments/charge.ts',
    });
    expect(readInstruction(text)).toMatchObject({ verdict: 'ill-formed', missing: ['observed-problem'] });
  });
});

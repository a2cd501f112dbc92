import { describe, expect, it } from 'vitest';
import { clarifyingQuestions, scopedFirstStep } from '../../../src/instruction/clarifying-questions.js';
import { COMPLEXITY_MINUTES } from '../../../src/instruction/instruction-types.js';
import { readInstruction } from '../../../src/instruction/read-instruction.js';
import { CASES } from './cases.js';

describe('clarifying questions', () => {
  it('asks one question per missing element, in the same order', () => {
    const reading = readInstruction('<@U0BOT> something is wrong with payments, please fix');
    const questions = clarifyingQuestions(reading);
    expect(questions.map((q) => q.element)).toEqual(['observed-problem', 'location']);
    expect(questions[0]!.question).toMatch(/error message|stack trace/);
    expect(questions[1]!.question).toMatch(/file|function|endpoint/);
  });

  it('asks what each kind of work needs', () => {
    const review = clarifyingQuestions(readInstruction('<@U0BOT> can you review this?'));
    expect(review).toEqual([{ element: 'target', question: expect.stringMatching(/PR number|link/), placeholder: expect.any(String) }]);
    const scrape = clarifyingQuestions(readInstruction('<@U0BOT> scrape the internet for competitor pricing'));
    expect(scrape[0]!.question).toMatch(/sites|URLs/);
    const data = clarifyingQuestions(readInstruction('<@U0BOT> give me some insights from the data'));
    expect(data.map((q) => q.element)).toEqual(['target', 'success-criteria']);
    expect(data[1]!.question).toMatch(/questions should the analysis answer/);
  });

  it('names the large area when asking to bound the scope', () => {
    const [question] = clarifyingQuestions(readInstruction('<@U0BOT> add payments'));
    expect(question).toMatchObject({ element: 'scope', question: expect.stringContaining('"payments"') });
  });

  it('asks about what a model reading names missing, though the rules never hold a clear task back for it', () => {
    const review = readInstruction('<@U0BOT> review PR #88');
    expect(review).toMatchObject({ verdict: 'well-formed', missing: [] });
    const asked = clarifyingQuestions({ ...review, verdict: 'ill-formed', missing: ['focus-areas', 'output-format'] });
    expect(asked.map((q) => q.element)).toEqual(['focus-areas', 'output-format']);
    const scrape = readInstruction('<@U0BOT> write a crawler for docs.example.dev that collects page titles');
    const scrapeAsked = clarifyingQuestions({ ...scrape, verdict: 'ill-formed', missing: ['rate-limit', 'error-handling', 'logging'] });
    expect(scrapeAsked.map((q) => q.placeholder)).toEqual([
      expect.stringMatching(/per second/),
      expect.stringMatching(/retry/),
      expect.stringMatching(/failed URL/),
    ]);
  });

  it('has a specific question and a placeholder for every element any case reports missing', () => {
    for (const labelled of CASES) {
      for (const question of clarifyingQuestions(readInstruction(labelled.text))) {
        expect(question.question).not.toMatch(/say more about/);
        expect(question.placeholder).toBeTruthy();
      }
    }
  });
});

describe('scoped first step', () => {
  it('suggests one bounded piece of an unrealistic rewrite, keeping the language asked for', () => {
    const text = '<@U0BOT> rewrite the whole backend from scratch in Rust';
    const step = scopedFirstStep(readInstruction(text), text);
    expect(step).toContain('backend');
    expect(step).toContain('in Rust');
    expect(step).toMatch(/single endpoint|one self-contained piece/);
  });

  it('suggests a bounded piece for an unbounded scope', () => {
    const text = '<@U0BOT> add payments';
    expect(scopedFirstStep(readInstruction(text), text)).toMatch(/^Start with one bounded piece of payments/);
  });
});

describe('complexity durations', () => {
  it('gives the indicative minutes of each complexity', () => {
    expect(COMPLEXITY_MINUTES).toEqual({
      simple: { min: 5, max: 15, label: '5–15 min' },
      medium: { min: 15, max: 45, label: '15–45 min' },
      complex: { min: 45, label: '45+ min' },
    });
  });
});

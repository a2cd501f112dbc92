import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../../src/categories.js';
import { readInstruction } from '../../../src/instruction/read-instruction.js';
import { CASES } from './cases.js';

describe('hand-labelled instructions', () => {
  it('cover every category and every verdict', () => {
    expect(new Set(CASES.map((c) => c.category))).toEqual(new Set(CATEGORIES));
    expect(new Set(CASES.map((c) => c.verdict))).toEqual(new Set(['well-formed', 'ill-formed', 'unrealistic']));
    expect(new Set(CASES.map((c) => c.complexity))).toEqual(new Set(['simple', 'medium', 'complex']));
    expect(CASES.length).toBeGreaterThanOrEqual(80);
  });

  it.each(CASES.map((c) => [c.text.replace(/\s+/g, ' ').slice(0, 90), c] as const))('%s', (_title, labelled) => {
    const reading = readInstruction(labelled.text);
    expect({ category: reading.category, verdict: reading.verdict }).toEqual({ category: labelled.category, verdict: labelled.verdict });
    if (labelled.missing) expect(reading.missing).toEqual(labelled.missing);
  });

  // The rules' complexity is a coarse fallback (the model reader judges it): right on most cases, never wrong on
  // the clear ends of the scale.
  it('estimate complexity coarsely: right on three cases in four, a whole rewrite always complex', () => {
    const right = CASES.filter((c) => readInstruction(c.text).complexity === c.complexity).length;
    expect(right / CASES.length).toBeGreaterThanOrEqual(0.75);
    for (const labelled of CASES.filter((c) => c.verdict === 'unrealistic')) expect(readInstruction(labelled.text).complexity).toBe('complex');
  });

  it('never reports missing elements outside the contract vocabulary', () => {
    const known = new Set([
      'target',
      'location',
      'observed-problem',
      'scope',
      'requirements',
      'success-criteria',
      'focus-areas',
      'output-format',
      'rate-limit',
      'error-handling',
      'logging',
    ]);
    for (const labelled of CASES) {
      for (const element of readInstruction(labelled.text).missing) expect(known).toContain(element);
    }
  });

  it('is ill-formed exactly when something blocking is missing', () => {
    for (const labelled of CASES) {
      const reading = readInstruction(labelled.text);
      if (reading.verdict === 'ill-formed') expect(reading.missing.length).toBeGreaterThan(0);
    }
  });
});

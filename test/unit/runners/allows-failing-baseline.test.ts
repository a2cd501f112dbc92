import { describe, expect, it } from 'vitest';
import { allowsFailingBaseline } from '../../../runners/category-steps/refactoring-steps.js';

describe('allowsFailingBaseline', () => {
  it('recognises an instruction that says to go ahead on a failing suite', () => {
    for (const text of [
      'Refactor src/a.js even though the tests are failing',
      'Split the module; the test suite is already broken, ignore that.',
      'Rename foo to bar, ignore the failing tests.',
      'Extract the helper despite the CI being red.',
    ])
      expect(allowsFailingBaseline(text), text).toBe(true);
  });

  it('does not read a plain refactoring as permission', () => {
    for (const text of ['Refactor src/orders.js; all tests must pass.', 'Rename calcTax to computeTax, fix any failing callers.'])
      expect(allowsFailingBaseline(text), text).toBe(false);
  });
});

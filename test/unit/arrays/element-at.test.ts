import { describe, expect, it } from 'vitest';
import { elementAt } from '../../../src/arrays/element-at.js';

describe('elementAt', () => {
  it('gives the element at a bounded index, falsy ones included', () => {
    expect(elementAt(['a', 'b'], 1)).toBe('b');
    expect(elementAt([0, 1], 0)).toBe(0);
  });

  it('throws a RangeError naming the index instead of letting undefined through', () => {
    expect(() => elementAt(['a', 'b'], 2)).toThrow(new RangeError('Index 2 is outside 0..1.'));
    expect(() => elementAt([], 0)).toThrow(RangeError);
    expect(() => elementAt([1], -1)).toThrow(RangeError);
  });
});

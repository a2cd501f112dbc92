import { describe, expect, it } from 'vitest';
import { findChangePoint, type Sample } from '../../../src/monitoring/change-point.js';

const minute = 60;
function series(values: number[]): Sample[] {
  return values.map((value, index) => ({ time: 1_700_000_000 + index * minute, value }));
}

describe('findChangePoint', () => {
  it('finds the first sample of a jump in the error rate', () => {
    const noisy = [1, 1.1, 0.9, 1.05, 0.95, 1, 1.1, 0.9, 1, 1.02];
    const change = findChangePoint(series([...noisy, 5, 5.2, 4.9, 5.1, 5, 4.8]));
    expect(change?.time).toBe(1_700_000_000 + 10 * minute);
    expect(change?.before).toBeCloseTo(1, 1);
    expect(change?.after).toBeCloseTo(5, 0);
  });

  it('reports nothing for a steady series or noise alone', () => {
    expect(findChangePoint(series(Array(20).fill(3)))).toBeUndefined();
    expect(findChangePoint(series([1, 1.1, 0.9, 1.05, 0.95, 1, 1.1, 0.9, 1, 1.02, 0.97, 1.03]))).toBeUndefined();
  });

  it('ignores a small shift and too-short series, and skips NaN samples', () => {
    expect(findChangePoint(series([100, 100, 100, 100, 101, 101, 101, 101]))).toBeUndefined();
    expect(findChangePoint(series([1, 9]))).toBeUndefined();
    const change = findChangePoint(series([1, 1, Number.NaN, 1, 1, 8, 8, 8, 8]));
    expect(change?.after).toBe(8);
  });
});

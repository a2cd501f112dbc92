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

describe('findChangePoint: the onset of a ramp', () => {
  // What sum(rate(x[5m])) makes of a step from 1/s to 6/s at index 20, read every minute: a five-minute ramp.
  const ramp = [...Array(20).fill(1), 2, 3, 4, 5, 6, ...Array(15).fill(6)].map((value, index) => value + ((index * 7) % 5) / 100);

  it('reports where the ramp began, not where the least-squares split fell', () => {
    const change = findChangePoint(series(ramp), { lookbackSeconds: 300 })!;
    expect(change.split).toBeGreaterThan(1_700_000_000 + 20 * minute);
    expect(change.time).toBe(1_700_000_000 + 20 * minute);
    expect(change.from).toBe(1_700_000_000 + 19 * minute);
  });

  it('a sharp step began after the sample before it, also without a known window', () => {
    const step = [...Array(12).fill(1), ...Array(10).fill(5)];
    for (const lookbackSeconds of [undefined, 0, 300]) {
      const change = findChangePoint(series(step), { lookbackSeconds })!;
      expect([change.from, change.time, change.split]).toEqual([11, 12, 12].map((i) => 1_700_000_000 + i * minute));
    }
  });

  it('finds the start of a falling ramp in a noisy series', () => {
    const noisy = [...Array(20).keys()].map((i) => 100 + ((i * 13) % 7) - 3);
    const falling = [80, 60, 40, 20, ...Array(12).fill(5)];
    const change = findChangePoint(series([...noisy, ...falling]), { lookbackSeconds: 240 })!;
    expect(change.time).toBe(1_700_000_000 + 20 * minute);
  });

  it('finds where a long ramp began from a few samples of history before it (no need to wait a whole window)', () => {
    // A [30m] rate read over 40 minutes: five minutes at the level before, then its 30-minute ramp.
    const values = [...Array(5).fill(1), ...Array.from({ length: 30 }, (_, i) => 1 + (i + 1) / 6), ...Array(5).fill(6)];
    const change = findChangePoint(series(values), { lookbackSeconds: 1800 })!;
    expect([change.from, change.start, change.time]).toEqual([4, 4, 5].map((i) => 1_700_000_000 + i * minute));
    expect(change.split).toBeGreaterThan(change.time);
  });

  // A gradual rise: ten minutes from 0.2 to 0.8, beginning 20 s after a sample, with noise of ±0.02. The step fit's
  // split falls mid-ramp; walking back from it stopped a minute or two late (issue 44).
  const noise = (i: number) => (((i * 7) % 5) - 2) / 100;
  const rampStart = 30 * minute + 20;
  const rising = Array.from({ length: 60 }, (_, i) => {
    const t = i * minute;
    const level = t <= rampStart ? 0.2 : t >= rampStart + 600 ? 0.8 : 0.2 + (0.6 * (t - rampStart)) / 600;
    return level + noise(i);
  });

  it('a ten-minute ramp: the onset holds the real start, and the best fit is within a sample of it', () => {
    const change = findChangePoint(series(rising))!;
    const real = 1_700_000_000 + rampStart;
    expect(change.from).toBeLessThan(real);
    expect(change.time).toBeGreaterThanOrEqual(real);
    expect(Math.abs(change.start - real)).toBeLessThanOrEqual(minute);
    expect(change.time - change.from).toBeLessThanOrEqual(4 * minute);
    expect(change.split).toBeGreaterThan(real + 2 * minute);
  });
});

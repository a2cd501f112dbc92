/**
 * One change point in a series of samples. It is found by the least-squares two-segment fit (a single step of
 * binary segmentation): for every split k the series is modelled as mean(before k) then mean(from k), and the split
 * with the smallest total squared error wins. The split is reported only when the shift is large against the noise
 * before it: |mean after - mean before| >= minSigmas * stddev(before) and >= minRelativeShift * |mean before|.
 *
 * Where the change began is a second fit, of a slope change rather than a step: the level before, then a straight
 * ramp from a start to an end, then the level after (a step is a ramp of one sample; a windowed query such as
 * `rate(…[5m])` turns a step into a ramp as long as its window; a gradual rise is a ramp of its own). Starts are
 * tried every quarter of a sample step, ends at each sample, the ramp holding the split. Every start whose best fit
 * is not significantly worse than the best one (a profile-likelihood interval at about 95%) may be the real start,
 * so the onset reported runs from the last sample at or before the earliest of them to the first sample after the
 * latest: the real start lies inside it, however far the step split fell from it.
 */
import { elementAt } from '../arrays/element-at.js';

export interface Sample {
  readonly time: number; // unix seconds
  readonly value: number;
}

export interface ChangePoint {
  /** The onset's end: the first sample after every start the fit allows (by then the change had begun). */
  readonly time: number;
  /** The onset's beginning: the change began after `from` (the last sample at or before every start the fit allows) and by `time`. */
  readonly from: number;
  /** The best fit's start of the change (unix seconds, between samples to a quarter step): what candidates are ranked by. */
  readonly start: number;
  /** Where the least-squares fit split the series (mid-ramp for a windowed query). */
  readonly split: number;
  readonly before: number;
  readonly after: number;
  readonly sigmas: number;
}

export interface ChangePointOptions {
  readonly minSegment?: number;
  readonly minSigmas?: number;
  readonly minRelativeShift?: number;
  /** How far back the query looks at each point (its range window, e.g. 300 for `[5m]`); the slope fit finds the ramp a step becomes without it. */
  readonly lookbackSeconds?: number;
}

export function findChangePoint(samples: readonly Sample[], options: ChangePointOptions = {}): ChangePoint | undefined {
  const minSegment = options.minSegment ?? 3;
  const minSigmas = options.minSigmas ?? 3;
  const minRelativeShift = options.minRelativeShift ?? 0.2;
  const points = samples.filter((sample) => Number.isFinite(sample.value));
  if (points.length < minSegment * 2) return undefined;

  const prefix = [0];
  const prefixSquares = [0];
  let runningSum = 0;
  let runningSquares = 0;
  for (const { value } of points) {
    runningSum += value;
    runningSquares += value * value;
    prefix.push(runningSum);
    prefixSquares.push(runningSquares);
  }
  const total = (sums: number[], from: number, to: number) => elementAt(sums, to) - elementAt(sums, from);
  const squaredError = (from: number, to: number) => {
    const n = to - from;
    const sum = total(prefix, from, to);
    return total(prefixSquares, from, to) - (sum * sum) / n;
  };

  let best: { split: number; error: number } | undefined;
  for (let split = minSegment; split <= points.length - minSegment; split++) {
    const error = squaredError(0, split) + squaredError(split, points.length);
    if (!best || error < best.error) best = { split, error };
  }
  if (!best) return undefined;

  const before = total(prefix, 0, best.split) / best.split;
  const after = total(prefix, best.split, points.length) / (points.length - best.split);
  const noise = Math.sqrt(Math.max(squaredError(0, best.split), 0) / best.split);
  const shift = Math.abs(after - before);
  const sigmas = noise > 0 ? shift / noise : Number.POSITIVE_INFINITY;
  if (shift === 0 || sigmas < minSigmas) return undefined;
  if (shift < minRelativeShift * Math.abs(before)) return undefined;

  const onset = rampOnset(points, best.split);
  return { time: onset.time, from: onset.from, start: onset.start, split: elementAt(points, best.split).time, before, after, sigmas };
}

/** 95% of a chi-squared with one degree of freedom: how much worse (in n·ln(SSE)) a start may fit and still be the real one. */
const PROFILE_LIMIT = 3.84;
const QUARTERS = [0, 0.25, 0.5, 0.75];

/**
 * Fits level, ramp, level (continuous) for every start before the split (at quarter steps) and every end from the
 * split on, with prefix sums so each fit costs the same however long the ramp: y = a + c·h(t), h 0 before the start,
 * rising linearly to 1 at the end, 1 after. Returns the best start and the onset every plausible start falls in.
 */
function rampOnset(points: readonly Sample[], split: number): { start: number; from: number; time: number } {
  const origin = elementAt(points, 0).time;
  const t = points.map((point) => point.time - origin);
  const y = points.map((point) => point.value);
  const n = points.length;
  const sums = { t: [0], tt: [0], y: [0], yy: [0], ty: [0] };
  for (let k = 0; k < n; k++) {
    const tk = elementAt(t, k);
    const yk = elementAt(y, k);
    sums.t.push(elementAt(sums.t, k) + tk);
    sums.tt.push(elementAt(sums.tt, k) + tk * tk);
    sums.y.push(elementAt(sums.y, k) + yk);
    sums.yy.push(elementAt(sums.yy, k) + yk * yk);
    sums.ty.push(elementAt(sums.ty, k) + tk * yk);
  }
  const range = (sum: number[], from: number, to: number) => elementAt(sum, to) - elementAt(sum, from);
  const totalY = range(sums.y, 0, n);
  const spread = range(sums.yy, 0, n) - (totalY * totalY) / n;
  /** Squared error of the fit with the ramp from `start` (seconds from origin) to sample `end`; `first` is the first sample after `start`. */
  const errorOf = (start: number, first: number, end: number) => {
    const length = elementAt(t, end) - start;
    const m = end - first;
    const rampT = range(sums.t, first, end);
    const rampY = range(sums.y, first, end);
    const plateau = n - end;
    const h = (rampT - m * start) / length + plateau;
    const hh = (range(sums.tt, first, end) - 2 * start * rampT + m * start * start) / (length * length) + plateau;
    const hy = (range(sums.ty, first, end) - start * rampY) / length + range(sums.y, end, n);
    const varianceH = hh - (h * h) / n;
    if (varianceH <= 0) return spread;
    const covariance = hy - (h * totalY) / n;
    return spread - (covariance * covariance) / varianceH;
  };
  const step = medianStep(points);
  const starts: { start: number; error: number }[] = [];
  for (let k = 0; k < split; k++) {
    for (const quarter of QUARTERS) {
      const start = elementAt(t, k) + quarter * step;
      if (quarter > 0 && start >= elementAt(t, k + 1)) break;
      let error = Number.POSITIVE_INFINITY;
      for (let end = Math.max(split, k + 1); end < n; end++) error = Math.min(error, errorOf(start, k + 1, end));
      starts.push({ start, error });
    }
  }
  const best = starts.reduce((one, other) => (other.error < one.error ? other : one), starts[0] ?? { start: elementAt(t, split - 1), error: 0 });
  // Within the profile limit of the best fit; a floor for series that fit exactly (no noise to measure by).
  const limit = Math.max(best.error * Math.exp(PROFILE_LIMIT / n), best.error + 1e-9 * spread);
  const plausible = starts.filter((one) => one.error <= limit).map((one) => one.start);
  const earliest = Math.min(...plausible);
  const latest = Math.max(...plausible);
  let from = 0;
  while (from + 1 < n && elementAt(t, from + 1) <= earliest) from++;
  let time = from;
  while (time < n - 1 && elementAt(t, time) <= latest) time++;
  return { start: origin + best.start, from: elementAt(points, from).time, time: elementAt(points, time).time };
}

function medianStep(points: readonly Sample[]): number {
  const gaps = points
    .slice(1)
    .map((point, index) => point.time - elementAt(points, index).time)
    .sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 0;
}
